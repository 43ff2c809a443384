import { useEffect, useRef, useState, type PointerEvent } from 'react';
import type { TFunction } from 'i18next';
import { clampCrop, displayScale, sourceSquare, MIN_ZOOM, MAX_ZOOM, type CropState } from '../../lib/image/crop.ts';

const VIEWPORT = 240;
const OUTPUT = 512;

/** Frames a chosen picture as a square (drag to move, slider to zoom) and hands back a PNG. */
export default function AvatarCropper({ file, t, onCancel, onConfirm, onInvalid }: {
  file: File; t: TFunction; onCancel: () => void; onConfirm: (blob: Blob) => void; onInvalid: () => void;
}) {
  const [url] = useState(() => URL.createObjectURL(file));
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [crop, setCrop] = useState<CropState>({ zoom: 1, dx: 0, dy: 0 });
  const img = useRef<HTMLImageElement>(null);
  const drag = useRef<{ x: number; y: number; start: CropState } | null>(null);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);

  const update = (next: CropState) => size && setCrop(clampCrop(size.w, size.h, VIEWPORT, next));
  const onPointerDown = (e: PointerEvent) => {
    (e.target as Element).setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, start: crop };
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (d) update({ ...d.start, dx: d.start.dx + e.clientX - d.x, dy: d.start.dy + e.clientY - d.y });
  };
  const confirm = () => {
    if (!size || !img.current) return;
    const { x, y, side } = sourceSquare(size.w, size.h, VIEWPORT, crop);
    const canvas = Object.assign(document.createElement('canvas'), { width: OUTPUT, height: OUTPUT });
    canvas.getContext('2d')!.drawImage(img.current, x, y, side, side, 0, 0, OUTPUT, OUTPUT);
    canvas.toBlob((blob) => blob && onConfirm(blob), 'image/png');
  };

  const scale = size ? displayScale(size.w, size.h, VIEWPORT, crop.zoom) : 1;
  return (
    <div className="cropper" data-cropper>
      <p className="field-label">{t('profile.cropTitle')}</p>
      <div className="crop-viewport" style={{ width: VIEWPORT, height: VIEWPORT }}
        onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={() => (drag.current = null)}>
        <img ref={img} src={url} alt="" draggable={false}
          onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          onError={onInvalid}
          style={size ? {
            width: size.w * scale, height: size.h * scale,
            left: (VIEWPORT - size.w * scale) / 2 + crop.dx, top: (VIEWPORT - size.h * scale) / 2 + crop.dy,
          } : { visibility: 'hidden' }} />
      </div>
      <span className="field-hint">{t('profile.cropHint')}</span>
      <label className="field">
        <span className="field-label">{t('profile.zoom')}</span>
        <input type="range" name="zoom" min={MIN_ZOOM} max={MAX_ZOOM} step={0.01} value={crop.zoom}
          onChange={(e) => update({ ...crop, zoom: Number(e.target.value) })} />
      </label>
      <div className="error-actions">
        <button type="button" className="button" onClick={confirm} disabled={!size}>{t('profile.useAvatar')}</button>
        <button type="button" className="button secondary" onClick={onCancel}>{t('profile.cancel')}</button>
      </div>
    </div>
  );
}
