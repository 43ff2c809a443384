import { useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { uploadCover } from '../../lib/api/index.ts';
import ImageCropper from '../settings/ImageCropper.tsx';
import { useReportPending } from './pending-work.tsx';

/** A video's cover is 16:9 (stored at 1280×720), a track's square like an album's (1000×1000). */
const SHAPES = {
  video: {
    aspect: 16 / 9,
    width: 1280,
    label: '16:9',
    height: 180,
    hint: 'upload.coverHint',
    posterUsed: 'upload.posterUsed',
    posterPending: 'upload.posterPending',
  },
  audio: {
    aspect: 1,
    width: 1000,
    label: '1:1',
    height: 320,
    hint: 'audio.form.coverHint',
    posterUsed: 'audio.form.embeddedCoverUsed',
    posterPending: 'audio.form.embeddedCoverPending',
  },
} as const;

/**
 * The cover step: a picture framed to the cover's shape in the browser and uploaded to the
 * site's image service, or (without one) the poster frame the pipeline took from the video (a
 * track's embedded cover). A framing not confirmed, or a cover still uploading, holds the form
 * back (pending-work.tsx) rather than letting it go without the cover.
 */
export default function CoverPicker({
  t,
  cover,
  posterUrl,
  onChange,
  invalid,
  kind = 'video',
}: {
  t: TFunction;
  cover: string | null;
  posterUrl: string | null;
  onChange: (url: string | null) => void;
  invalid?: string;
  kind?: keyof typeof SHAPES;
}) {
  const shape = SHAPES[kind];
  const [picked, setPicked] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const box = useRef<HTMLDivElement>(null);
  const focusCropper = () => {
    box.current?.scrollIntoView({ block: 'center' });
    box.current?.querySelector<HTMLElement>('[data-cropper] .error-actions button')?.focus();
  };
  useReportPending(
    'cover',
    picked
      ? { message: t('upload.cropPending'), focus: focusCropper }
      : busy
        ? { message: t('upload.coverPending'), focus: () => box.current?.scrollIntoView({ block: 'center' }) }
        : null,
  );

  const upload = async (blob: Blob) => {
    setPicked(null);
    setBusy(true);
    setError('');
    const url = await uploadCover(blob).catch(() => null);
    setBusy(false);
    if (url) onChange(url);
    else setError(t('upload.coverFailed'));
  };
  const preview = cover ?? posterUrl;
  const viewportWidth = typeof window === 'undefined' ? 320 : Math.min(480, window.innerWidth - 96);

  return (
    <div className="field cover-picker" data-cover-picker ref={box}>
      <span className="field-label">{t('upload.cover')}</span>
      <div className="cover-row">
        <figure className={kind === 'audio' ? 'cover-preview cover-square' : 'cover-preview'}>
          {preview ? (
            <img
              src={preview}
              alt={t('upload.cover')}
              width={320}
              height={shape.height}
              data-cover-preview={cover ? 'cover' : 'poster'}
            />
          ) : (
            <div className="cover-empty" aria-hidden="true">
              {shape.label}
            </div>
          )}
          <figcaption className="field-hint">
            {cover ? t('upload.coverSet') : posterUrl ? t(shape.posterUsed) : t(shape.posterPending)}
          </figcaption>
        </figure>
        <div className="cover-actions">
          <label className="button secondary">
            {busy ? t('upload.coverUploading') : t('upload.chooseCover')}
            <input
              type="file"
              name="cover"
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              hidden
              disabled={busy}
              onChange={(e) => {
                setPicked(e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
            />
          </label>
          {cover && (
            <button type="button" className="button secondary" onClick={() => onChange(null)}>
              {t('upload.removeCover')}
            </button>
          )}
        </div>
      </div>
      {picked && (
        <ImageCropper
          key={`${picked.name}-${picked.lastModified}`}
          file={picked}
          aspect={shape.aspect}
          viewportWidth={viewportWidth}
          outputWidth={shape.width}
          outputType="image/webp"
          labels={{
            title: t('upload.cropTitle'),
            hint: t('upload.cropHint'),
            zoom: t('upload.zoom'),
            confirm: t('upload.useCover'),
            cancel: t('upload.cancel'),
          }}
          onCancel={() => setPicked(null)}
          onConfirm={(blob) => void upload(blob)}
          onInvalid={() => {
            setPicked(null);
            setError(t('upload.coverNotImage'));
          }}
        />
      )}
      <span className="field-hint">{t(shape.hint)}</span>
      {(error || invalid) && (
        <span className="auth-error" role="alert">
          {error || invalid}
        </span>
      )}
    </div>
  );
}
