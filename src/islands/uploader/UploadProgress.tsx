import type { TFunction } from 'i18next';
import { canApply, percentDone, secondsLeft } from '../../lib/upload/machine.ts';
import type { UploadProgressView } from '../../lib/upload/tus-upload.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { byteFormatters } from './format.ts';

/** The progress bar with percentage, speed and time left, and pause / resume as the machine allows. */
export default function UploadProgress({
  view,
  fileName,
  locale,
  t,
  onPause,
  onResume,
}: {
  view: UploadProgressView;
  fileName: string;
  locale: Locale;
  t: TFunction;
  onPause: () => void;
  onResume: () => void;
}) {
  const percent = percentDone(view.bytesUploaded, view.bytesTotal);
  const left = secondsLeft(view.bytesUploaded, view.bytesTotal, view.speed);
  const format = byteFormatters(locale);
  const running = view.state === 'uploading';
  return (
    <div
      className="upload-progress"
      data-upload-state={view.state}
      data-resumed-from={view.resumedFrom}
      data-bytes-uploaded={view.bytesUploaded}
    >
      <div className="upload-progress-head">
        <strong className="upload-file-name">{fileName}</strong>
        <span className="upload-state">{t(`upload.state.${view.state}`)}</span>
      </div>
      <div
        className="progress-track"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t('upload.progress')}
      >
        <div className={`progress-fill${running ? ' running' : ''}`} style={{ width: `${percent}%` }} />
      </div>
      <div className="upload-stats">
        <span data-percent>{percent}%</span>
        <span>
          {format.size(view.bytesUploaded)} / {format.size(view.bytesTotal)}
        </span>
        {running && <span data-speed>{t('upload.speed', { speed: format.speed(view.speed) })}</span>}
        {running && (
          <span data-time-left>
            {left === null ? t('upload.estimating') : t('upload.timeLeft', { time: formatTimecode(left) })}
          </span>
        )}
      </div>
      {view.resumedFrom > 0 && view.state !== 'success' && (
        <p className="field-hint" data-resumed>
          {t('upload.resumedFrom', { percent: percentDone(view.resumedFrom, view.bytesTotal) })}
        </p>
      )}
      {view.state === 'error' && (
        <p className="auth-error" role="alert">
          {t('upload.failed', { message: view.error ?? '' })}
        </p>
      )}
      <div className="error-actions">
        {canApply(view.state, 'pause') && (
          <button type="button" className="button secondary" onClick={onPause} data-pause>
            {t('upload.pause')}
          </button>
        )}
        {canApply(view.state, 'resume') && (
          <button type="button" className="button" onClick={onResume} data-resume>
            {t('upload.resume')}
          </button>
        )}
      </div>
    </div>
  );
}
