import { useEffect, useRef, useState, type DragEvent } from 'react';
import { getMediaStatus } from '../../lib/api/index.ts';
import type { MediaStatusResponse } from '../../lib/api/contract.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { buildUrl } from '../../lib/api/http.ts';
import { startTusUpload, MAX_VIDEO_DURATION_SECONDS, type TusUploadHandle, type UploadProgressView } from '../../lib/upload/tus-upload.ts';
import { readMediaFacts, refusalOf, type LocalRefusal, type MediaFacts } from '../../lib/upload/media-info.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import UploadProgress from './UploadProgress.tsx';
import VideoForm from './VideoForm.tsx';
import { byteFormatters } from './format.ts';
import './uploader.css';

const STATUS_POLL_MS = 1500;
const FINAL_STATUSES: ReadonlyArray<MediaStatusResponse['status']> = ['ready', 'rejected', 'failed'];

type Check = { kind: 'checking' } | { kind: 'ok'; facts: MediaFacts | null } | { kind: 'refused'; reason: LocalRefusal };

/** /upload: choose a file, upload it (resumable), follow its processing, describe it, publish it. */
export default function Uploader({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [file, setFile] = useState<File | null>(null);
  const [check, setCheck] = useState<Check | null>(null);
  const [view, setView] = useState<UploadProgressView | null>(null);
  const [media, setMedia] = useState<MediaStatusResponse | null>(null);
  const [videoId, setVideoId] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const handle = useRef<TusUploadHandle | null>(null);
  const mediaId = view?.state === 'success' ? view.mediaId : null;

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

  if (!self.isEffectiveCheckOnce) return <div className="card" aria-busy="true" data-uploader="checking">…</div>;
  if (!self.isLogined) {
    return (
      <section className="card coming-soon" data-uploader="guest">
        <div className="star" aria-hidden="true">✦</div>
        <p>{t('upload.loginRequired')}</p>
        <button type="button" className="button" onClick={() => void import('../auth/open-auth-dialog.ts').then((m) => m.openAuthDialog('login'))}>{t('upload.login')}</button>
      </section>
    );
  }

  const choose = (picked: File | null | undefined) => {
    if (!picked) return;
    setFile(picked);
    setCheck({ kind: 'checking' });
    readMediaFacts(picked).then(
      (facts) => setCheck((current) => (current?.kind === 'checking' ? (refusalOf(facts, MAX_VIDEO_DURATION_SECONDS) ? { kind: 'refused', reason: refusalOf(facts, MAX_VIDEO_DURATION_SECONDS)! } : { kind: 'ok', facts }) : current)),
      // mediainfo could not load: the server's own check still applies.
      (error) => { console.warn('media info check unavailable', error); setCheck({ kind: 'ok', facts: null }); },
    );
  };
  const start = async () => {
    if (file && check?.kind !== 'ok') return;
    handle.current = await startTusUpload(file, t('upload.fileNotFound'), {
      endpoint: buildUrl(publicConfig.apiBase.endsWith('/') ? publicConfig.apiBase : `${publicConfig.apiBase}/`, 'video/tus'),
      locale,
      onChange: setView,
    });
    if (handle.current) setView(handle.current.view());
  };
  const reset = () => {
    handle.current = null;
    setFile(null);
    setCheck(null);
    setView(null);
    setMedia(null);
    setVideoId(null);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };

  if (videoId !== null) {
    return (
      <section className="card upload-done" data-uploader="done">
        <div className="star" aria-hidden="true">✦</div>
        <h2 className="upload-step-title">{t('upload.doneTitle')}</h2>
        <p>{t('upload.doneText')}</p>
        <div className="error-actions">
          <a className="button" href={localizePath(`/video/kv${videoId}`, locale)} data-video-link>{t('upload.openVideo', { id: videoId })}</a>
          <button type="button" className="button secondary" onClick={reset}>{t('upload.another')}</button>
        </div>
      </section>
    );
  }

  const format = byteFormatters(locale);
  const refused = media?.status === 'rejected' || media?.status === 'failed';
  // Rejected files carry the probe's reason; a failure without one is ours (processing gave up).
  const refusal = media?.reason ?? (media?.status === 'failed' ? 'FAILED' : 'CORRUPT');
  const uploading = view !== null && view.state !== 'error';
  return (
    <div className="uploader" data-uploader={view ? 'uploading' : 'choose'}>
      {!uploading && (
        <section className="card upload-choose">
          <label className={`drop-zone${dragging ? ' dragging' : ''}`} onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
            onDragLeave={() => setDragging(false)} onDrop={onDrop}>
            <span className="drop-icon" aria-hidden="true">⇪</span>
            <strong>{t('upload.drop')}</strong>
            <span className="button secondary">{t('upload.pick')}</span>
            <input type="file" name="video" accept="video/*,.mkv,.flv,.ts,.m2ts" className="visually-hidden" onChange={(e) => { choose(e.target.files?.[0]); e.target.value = ''; }} />
          </label>
          <p className="field-hint">{t('upload.limits', { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}</p>
          {file && (
            <div className="file-facts" data-check={check?.kind}>
              <strong>{file.name}</strong> <span className="user-meta">{format.size(file.size)}</span>
              {check?.kind === 'checking' && <p className="field-hint">{t('upload.checking')}</p>}
              {check?.kind === 'ok' && check.facts && (
                <p className="user-meta">{[check.facts.duration !== null && formatTimecode(check.facts.duration), check.facts.width && `${check.facts.width}×${check.facts.height}`,
                  check.facts.videoCodec, check.facts.audioCodec].filter(Boolean).join(' · ')}</p>
              )}
              {check?.kind === 'refused' && <p className="auth-error" role="alert" data-refusal={check.reason}>{t(`upload.reason.${check.reason}`, { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}</p>}
            </div>
          )}
          {view?.state === 'error' && <p className="auth-error" role="alert">{t('upload.failed', { message: view.error ?? '' })}</p>}
          <div className="error-actions">
            <button type="button" className="button" disabled={check?.kind === 'checking' || check?.kind === 'refused'} onClick={() => void start()} data-start>{t('upload.start')}</button>
          </div>
        </section>
      )}
      {uploading && file && (
        <section className="card">
          <UploadProgress view={view} fileName={file.name} locale={locale} t={t} onPause={() => handle.current?.pause()} onResume={() => handle.current?.resume()} />
          {mediaId && (
            <div className="processing" data-media-status={media?.status ?? 'uploaded'}>
              <span className="field-label">{t('upload.processing')}</span>
              {refused
                ? <p className="auth-error" role="alert" data-refusal={refusal}>{t(`upload.reason.${refusal}`, { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}</p>
                : <p className="processing-status">{t(`upload.status.${media?.status ?? 'uploaded'}`)}</p>}
              {refused && <button type="button" className="button secondary" onClick={reset}>{t('upload.another')}</button>}
            </div>
          )}
        </section>
      )}
      {uploading && file && !refused && (
        <VideoForm locale={locale} t={t} mediaId={mediaId} posterUrl={media?.posterUrl ?? null} fileName={file.name} onCommitted={setVideoId} />
      )}
    </div>
  );
}
