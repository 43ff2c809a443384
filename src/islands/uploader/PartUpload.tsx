import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { getMediaStatus } from '../../lib/api/index.ts';
import type { MediaStatusResponse } from '../../lib/api/contracts/upload.ts';
import { VIDEO_TITLE_MAX } from '../../lib/api/contracts/video.constants.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import {
  startTusUpload,
  tusEndpoint,
  MAX_VIDEO_DURATION_SECONDS,
  type TusUploadHandle,
  type UploadProgressView,
} from '../../lib/upload/tus-upload.ts';
import { readMediaFacts, refusalOf, type LocalRefusal } from '../../lib/upload/media-info.ts';
import UploadProgress from './UploadProgress.tsx';

const STATUS_POLL_MS = 1500;
const FINAL_STATUSES: ReadonlyArray<MediaStatusResponse['status']> = ['ready', 'rejected', 'failed'];
/** What the pipeline has checked (probed) and not refused: the commit may name it. */
export const CHECKED: ReadonlyArray<MediaStatusResponse['status']> = ['probed', 'transcoding', 'playable', 'ready'];

/** One part as the uploader lists it: its file and the title the member gives it. */
export interface PartEntry {
  key: number;
  file: File;
  title: string /** The browser's check already passed (the first file, checked before Start). */;
  checked: boolean;
}
/** What became of a part's file so far. */
export interface PartProgress {
  mediaId: string | null;
  status: MediaStatusResponse['status'] | null;
  posterUrl: string | null;
  refused: boolean;
}

/**
 * One part of the upload: the browser's check (mediainfo.js), then its own resumable upload
 * (tus) with pause and resume, then the pipeline's status until it is ready or refused; told
 * upwards through onProgress. The title, the order and removal are the list's.
 */
export default function PartUpload({
  locale,
  t,
  entry,
  index,
  count,
  onTitle,
  onMove,
  onRemove,
  onProgress,
  onAnother,
}: {
  locale: Locale;
  t: TFunction;
  entry: PartEntry;
  index: number;
  count: number;
  onTitle: (title: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onProgress: (progress: PartProgress) => void;
  /** The only part was refused: start over. */
  onAnother: () => void;
}) {
  const [localRefusal, setLocalRefusal] = useState<LocalRefusal | null>(null);
  const [view, setView] = useState<UploadProgressView | null>(null);
  const [media, setMedia] = useState<MediaStatusResponse | null>(null);
  const handle = useRef<TusUploadHandle | null>(null);
  const report = useRef(onProgress);
  report.current = onProgress;
  const mediaId = view?.state === 'success' ? view.mediaId : null;

  // Checked in the browser (unless it already was), then uploaded; a removed part stops sending.
  useEffect(() => {
    let stopped = false;
    const upload = async () => {
      if (!entry.checked) {
        const facts = await readMediaFacts(entry.file).catch(() => null);
        const refusal = facts && refusalOf(facts, MAX_VIDEO_DURATION_SECONDS);
        if (stopped) return;
        if (refusal) return setLocalRefusal(refusal);
      }
      const started = await startTusUpload(entry.file, t('upload.fileNotFound'), {
        endpoint: tusEndpoint(),
        locale,
        onChange: (v) => !stopped && setView(v),
      });
      if (stopped) return started?.pause();
      handle.current = started;
      if (started) setView(started.view());
    };
    void upload();
    return () => {
      stopped = true;
      handle.current?.pause();
    };
  }, [entry.file]);

  // Processing status of the uploaded file, until it is ready or refused.
  useEffect(() => {
    if (!mediaId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const status = await getMediaStatus(mediaId);
        if (stopped) return;
        setMedia(status);
        if (FINAL_STATUSES.includes(status.status)) return;
      } catch {
        // a passing network failure: ask again
      }
      if (!stopped) timer = setTimeout(() => void poll(), STATUS_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [mediaId]);

  const serverRefused = media?.status === 'rejected' || media?.status === 'failed';
  const refused = serverRefused || localRefusal !== null || view?.state === 'error';
  useEffect(() => {
    report.current({ mediaId, status: media?.status ?? null, posterUrl: media?.posterUrl ?? null, refused });
  }, [mediaId, media?.status, media?.posterUrl, refused]);

  // Rejected files carry the probe's reason; a failure without one is ours (processing gave up).
  const refusal = media?.reason ?? (media?.status === 'failed' ? 'FAILED' : 'CORRUPT');
  const n = index + 1;
  return (
    <li className="part-upload" data-part-upload={n} data-part-refused={refused || undefined}>
      <div className="part-upload-head">
        <span className="part-upload-number" aria-hidden="true">
          P{n}
        </span>
        <label className="field part-upload-title">
          <span className="field-label">{t('parts.titleLabel', { n })}</span>
          <input
            name="videoPartTitle"
            maxLength={VIDEO_TITLE_MAX}
            value={entry.title}
            onChange={(e) => onTitle(e.target.value)}
          />
        </label>
        {count > 1 && (
          <span className="part-upload-tools">
            <button
              type="button"
              className="part-tool"
              disabled={index === 0}
              aria-label={t('parts.moveUp', { n })}
              title={t('parts.moveUp', { n })}
              onClick={() => onMove(-1)}
              data-part-up
            >
              ↑
            </button>
            <button
              type="button"
              className="part-tool"
              disabled={index === count - 1}
              aria-label={t('parts.moveDown', { n })}
              title={t('parts.moveDown', { n })}
              onClick={() => onMove(1)}
              data-part-down
            >
              ↓
            </button>
            <button
              type="button"
              className="part-tool"
              aria-label={t('parts.remove', { n })}
              title={t('parts.remove', { n })}
              onClick={onRemove}
              data-part-remove
            >
              ✕
            </button>
          </span>
        )}
      </div>
      {localRefusal && (
        <p className="auth-error" role="alert" data-refusal={localRefusal}>
          {entry.file.name}: {t(`upload.reason.${localRefusal}`, { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}
        </p>
      )}
      {refused && !serverRefused && count === 1 && (
        <button type="button" className="button secondary" onClick={onAnother}>
          {t('upload.another')}
        </button>
      )}
      {!localRefusal && !view && (
        <p className="field-hint">
          {entry.file.name} · {t('upload.checking')}
        </p>
      )}
      {view && (
        <UploadProgress
          view={view}
          fileName={entry.file.name}
          locale={locale}
          t={t}
          onPause={() => handle.current?.pause()}
          onResume={() => handle.current?.resume()}
        />
      )}
      {mediaId && (
        <div className="processing" data-media-status={media?.status ?? 'uploaded'}>
          <span className="field-label">{t('upload.processing')}</span>
          {serverRefused ? (
            <p className="auth-error" role="alert" data-refusal={refusal}>
              {t(`upload.reason.${refusal}`, { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}
            </p>
          ) : (
            <p className="processing-status">{t(`upload.status.${media?.status ?? 'uploaded'}`)}</p>
          )}
          {serverRefused && count === 1 && (
            <button type="button" className="button secondary" onClick={onAnother}>
              {t('upload.another')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
