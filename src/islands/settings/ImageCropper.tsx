import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { clampCrop, displayScale, sourceRect, MIN_ZOOM, MAX_ZOOM, type CropState } from '../../lib/image/crop.ts';
import { onPinch, onWheel } from '../../lib/gestures/gestures.ts';

export interface CropperLabels {
  title: string;
  hint: string;
  zoom: string;
  confirm: string;
  cancel: string;
}

/**
 * Frames a chosen picture at a fixed aspect ratio (drag to move; slider, wheel or pinch to zoom) and hands back
 * the framed part: a square for avatars (shown round), 16:9 for video covers.
 */
export default function ImageCropper({
  file,
  labels,
  aspect = 1,
  viewportWidth = 240,
  outputWidth = 512,
  outputType = 'image/png',
  round = aspect === 1,
  onCancel,
  onConfirm,
  onInvalid,
}: {
  file: File;
  labels: CropperLabels;
  /** Width / height of the result. */
  aspect?: number;
  viewportWidth?: number;
  outputWidth?: number;
  outputType?: string;
  round?: boolean;
  onCancel: () => void;
  onConfirm: (blob: Blob) => void;
  onInvalid: () => void;
}) {
  const viewport = { width: viewportWidth, height: Math.round(viewportWidth / aspect) };
  const [url] = useState(() => URL.createObjectURL(file));
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [crop, setCrop] = useState<CropState>({ zoom: 1, dx: 0, dy: 0 });
  const img = useRef<HTMLImageElement>(null);
  const drag = useRef<{ x: number; y: number; start: CropState } | null>(null);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);

  const update = (next: CropState) => size && setCrop(clampCrop(size.w, size.h, viewport, next));
  // The gesture listeners live as long as the frame; they read the latest crop through refs.
  const latest = useRef({ crop, update });
  latest.current = { crop, update };
  const frame = useRef<HTMLDivElement>(null);
  const pinching = useRef(false);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let pinchStart = 1;
    const offPinch = onPinch(element, ({ phase, scale }) => {
      if (phase === 'start') {
        pinching.current = true;
        drag.current = null;
        pinchStart = latest.current.crop.zoom;
      } else if (phase === 'change') latest.current.update({ ...latest.current.crop, zoom: pinchStart * scale });
      else pinching.current = false;
    });
    const offWheel = onWheel(
      element,
      ({ phase, zoom }) => {
        if (phase === 'change')
          latest.current.update({ ...latest.current.crop, zoom: latest.current.crop.zoom * zoom });
      },
      { captureZoom: true },
    );
    return () => {
      offPinch();
      offWheel();
    };
  }, []);
  const onPointerDown = (e: PointerEvent) => {
    (e.target as Element).setPointerCapture(e.pointerId);
    if (!pinching.current) drag.current = { x: e.clientX, y: e.clientY, start: crop };
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = pinching.current ? null : drag.current;
    if (d) update({ ...d.start, dx: d.start.dx + e.clientX - d.x, dy: d.start.dy + e.clientY - d.y });
  };
  const confirm = () => {
    if (!size || !img.current) return;
    const rect = sourceRect(size.w, size.h, viewport, crop);
    const canvas = Object.assign(document.createElement('canvas'), {
      width: outputWidth,
      height: Math.round(outputWidth / aspect),
    });
    canvas
      .getContext('2d')!
      .drawImage(img.current, rect.x, rect.y, rect.width, rect.height, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => blob && onConfirm(blob), outputType, 0.92);
  };

  const scale = size ? displayScale(size.w, size.h, viewport, crop.zoom) : 1;
  return (
    <div className="cropper" data-cropper>
      <p className="field-label">{labels.title}</p>
      <div
        ref={frame}
        className={`crop-viewport${round ? '' : ' crop-rect'}`}
        style={{ width: viewport.width, height: viewport.height, touchAction: 'none' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
      >
        <img
          ref={img}
          src={url}
          alt=""
          draggable={false}
          onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          onError={onInvalid}
          style={
            size
              ? {
                  width: size.w * scale,
                  height: size.h * scale,
                  left: (viewport.width - size.w * scale) / 2 + crop.dx,
                  top: (viewport.height - size.h * scale) / 2 + crop.dy,
                }
              : { visibility: 'hidden' }
          }
        />
      </div>
      <span className="field-hint">{labels.hint}</span>
      <label className="field">
        <span className="field-label">{labels.zoom}</span>
        <input
          type="range"
          name="zoom"
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.01}
          value={crop.zoom}
          onChange={(e) => update({ ...crop, zoom: Number(e.target.value) })}
        />
      </label>
      <div className="error-actions">
        <button type="button" className="button" onClick={confirm} disabled={!size}>
          {labels.confirm}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {labels.cancel}
        </button>
      </div>
    </div>
  );
}
