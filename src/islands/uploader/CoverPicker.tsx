import { useState } from 'react';
import type { TFunction } from 'i18next';
import { uploadCover } from '../../lib/api/index.ts';
import ImageCropper from '../settings/ImageCropper.tsx';

/** Covers are 16:9; the image service stores them at 1280×720. */
const COVER_ASPECT = 16 / 9;
const COVER_WIDTH = 1280;

/**
 * The cover step: a picture framed to 16:9 in the browser and uploaded to the site's image
 * service, or (without one) the poster frame the pipeline took from the video.
 */
export default function CoverPicker({ t, cover, posterUrl, onChange, invalid }: {
  t: TFunction; cover: string | null; posterUrl: string | null; onChange: (url: string | null) => void; invalid?: string;
}) {
  const [picked, setPicked] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const upload = async (blob: Blob) => {
    setPicked(null);
    setBusy(true);
    setError('');
    const url = await uploadCover(blob);
    setBusy(false);
    if (url) onChange(url);
    else setError(t('upload.coverFailed'));
  };
  const preview = cover ?? posterUrl;
  const viewportWidth = typeof window === 'undefined' ? 320 : Math.min(480, window.innerWidth - 96);

  return (
    <div className="field cover-picker" data-cover-picker>
      <span className="field-label">{t('upload.cover')}</span>
      <div className="cover-row">
        <figure className="cover-preview">
          {preview ? <img src={preview} alt={t('upload.cover')} width={320} height={180} data-cover-preview={cover ? 'cover' : 'poster'} />
            : <div className="cover-empty" aria-hidden="true">16:9</div>}
          <figcaption className="field-hint">{cover ? t('upload.coverSet') : posterUrl ? t('upload.posterUsed') : t('upload.posterPending')}</figcaption>
        </figure>
        <div className="cover-actions">
          <label className="button secondary">
            {busy ? t('upload.coverUploading') : t('upload.chooseCover')}
            <input type="file" name="cover" accept="image/jpeg,image/png,image/webp,image/gif,image/avif" hidden disabled={busy}
              onChange={(e) => { setPicked(e.target.files?.[0] ?? null); e.target.value = ''; }} />
          </label>
          {cover && <button type="button" className="button secondary" onClick={() => onChange(null)}>{t('upload.removeCover')}</button>}
        </div>
      </div>
      {picked && (
        <ImageCropper key={`${picked.name}-${picked.lastModified}`} file={picked} aspect={COVER_ASPECT} viewportWidth={viewportWidth} outputWidth={COVER_WIDTH}
          outputType="image/webp" labels={{ title: t('upload.cropTitle'), hint: t('upload.cropHint'), zoom: t('upload.zoom'), confirm: t('upload.useCover'), cancel: t('upload.cancel') }}
          onCancel={() => setPicked(null)} onConfirm={(blob) => void upload(blob)} onInvalid={() => { setPicked(null); setError(t('upload.coverNotImage')); }} />
      )}
      <span className="field-hint">{t('upload.coverHint')}</span>
      {(error || invalid) && <span className="auth-error" role="alert">{error || invalid}</span>}
    </div>
  );
}
