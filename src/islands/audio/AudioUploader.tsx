import { useEffect, useRef, useState, type FormEvent } from 'react';
import { commitAudio, getMediaStatus } from '../../lib/api/index.ts';
import type { MediaStatusResponse } from '../../lib/api/contracts/upload.ts';
import { AUDIO_ARTIST_MAX } from '../../lib/api/contracts/audio.constants.ts';
import { VIDEO_TITLE_MAX } from '../../lib/api/contracts/video.constants.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import {
  startTusUpload,
  tusEndpoint,
  type TusUploadHandle,
  type UploadProgressView,
} from '../../lib/upload/tus-upload.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import UploadProgress from '../uploader/UploadProgress.tsx';
import VideoMetaFields, { fieldErrorsOf, type FieldErrors, type MetaValues } from '../uploader/VideoMetaFields.tsx';
import CopyrightFields, { NO_RIGHTS_GIVEN, type Rights } from '../uploader/CopyrightFields.tsx';
import { PendingNotice, usePendingWork } from '../uploader/pending-work.tsx';
import { DraftNotice, useUploadDraft } from '../uploader/use-upload-draft.tsx';
import { draftValue, isBlankDraft } from '../../lib/upload/draft.ts';
import '../uploader/uploader.css';
import './audio.css';

const ACCEPT = 'audio/*,.mp3,.m4a,.aac,.flac,.wav,.ogg,.oga,.opus';
const FINAL: ReadonlyArray<MediaStatusResponse['status']> = ['ready', 'rejected', 'failed'];

/**
 * /upload/audio: choose an audio file, upload it (resumable, tus kind=audio), follow its
 * processing (probe, transcode, waveform, loudness, cover), describe the track and send it to
 * review. The form can be filled in while the file uploads and is processed.
 */
export default function AudioUploader({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [file, setFile] = useState<File | null>(null);
  const [view, setView] = useState<UploadProgressView | null>(null);
  const [media, setMedia] = useState<MediaStatusResponse | null>(null);
  const [meta, setMeta] = useState<MetaValues>({
    title: '',
    description: '',
    category: 'music',
    tags: [],
    cover: null,
  });
  const [artist, setArtist] = useState('');
  const [rights, setRights] = useState<Rights>(NO_RIGHTS_GIVEN);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);
  const [audioId, setAudioId] = useState<number | null>(null);
  const handle = useRef<TusUploadHandle | null>(null);
  // A tag typed, a cover being framed or uploaded: the track does not go without them.
  const pending = usePendingWork();
  // The draft: what was typed (not the file), kept once something is.
  const typed = {
    title: meta.title,
    description: meta.description,
    tags: meta.tags,
    cover: meta.cover,
    artist,
    originalAuthor: rights.originalAuthor,
    originalLink: rights.originalLink,
  };
  const draft = useUploadDraft(
    self.isLogined ? (self.userInfo?.uid ?? null) : null,
    'audio',
    file || !isBlankDraft(typed) ? { meta, artist, rights } : null,
  );
  const applied = useRef(false);
  useEffect(() => {
    if (!draft.restored || applied.current) return;
    applied.current = true;
    const kept = draft.restored.fields;
    setMeta((m) => ({ ...m, ...draftValue<Partial<MetaValues>>(kept, 'meta', {}) }));
    setArtist((a) => draftValue(kept, 'artist', a));
    setRights((r) => ({ ...r, ...draftValue<Partial<Rights>>(kept, 'rights', {}) }));
  }, [draft.restored]);
  const discardDraft = () => {
    draft.discard();
    setMeta((m) => ({ title: file ? m.title : '', description: '', category: 'music', tags: [], cover: null }));
    setArtist('');
    setRights(NO_RIGHTS_GIVEN);
  };
  const mediaId = view?.mediaId ?? null;

  useEffect(() => {
    if (!mediaId) return;
    let stopped = false;
    const poll = async () => {
      while (!stopped) {
        const status = await getMediaStatus(mediaId).catch(() => null);
        if (stopped) return;
        if (status) setMedia(status);
        if (status && FINAL.includes(status.status)) return;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [mediaId]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true" data-uploader="checking">
        …
      </div>
    );
  if (!self.isLogined) {
    return (
      <section className="card coming-soon" data-uploader="guest">
        <div className="star" aria-hidden="true">
          ♪
        </div>
        <p>{t('audio.form.loginRequired')}</p>
        <button
          type="button"
          className="button"
          onClick={() => void import('../auth/open-auth-dialog.ts').then((m) => m.openAuthDialog('login'))}
        >
          {t('upload.login')}
        </button>
      </section>
    );
  }
  if (audioId !== null) {
    return (
      <section className="card" role="status" data-audio-committed={audioId}>
        <p>{t('audio.form.submitted')}</p>
        <a className="button" href={localizePath(`/audio/ka${audioId}`, locale)}>
          {t('audio.form.open')}
        </a>
      </section>
    );
  }

  const choose = async (picked: File | undefined) => {
    if (!picked) return;
    setFile(picked);
    setMeta((m) => ({ ...m, title: m.title || picked.name.replace(/\.[^.]+$/, '').slice(0, VIDEO_TITLE_MAX) }));
    handle.current = await startTusUpload(picked, t('audio.form.fileNotFound'), {
      endpoint: tusEndpoint(),
      locale,
      kind: 'audio',
      onChange: setView,
    });
  };
  const refused = media?.status === 'rejected' || media?.status === 'failed';
  const ready = media?.status === 'ready';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!mediaId || !ready || !meta.category || pending.check()) return;
    setBusy(true);
    setErrors({});
    setFormError('');
    try {
      const answer = await commitAudio({
        mediaId,
        title: meta.title,
        artist,
        description: meta.description,
        image: meta.cover,
        audioCategory: meta.category,
        copyright: rights.copyright,
        ensureOriginal: rights.copyright === 'original' && rights.ensureOriginal,
        originalAuthor: rights.copyright === 'original' ? null : rights.originalAuthor.trim() || null,
        originalLink: rights.copyright === 'original' ? null : rights.originalLink.trim() || null,
        audioTagList: meta.tags.map((tag) => tag.tagId),
      });
      draft.clear();
      setAudioId(answer.audioId);
    } catch (error) {
      const { body, named } = fieldErrorsOf(error, t);
      setErrors(named);
      if (!Object.keys(named).length) setFormError(body?.message ?? t('api.internal'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="uploader" data-audio-uploader>
      {draft.restored && (
        <DraftNotice
          t={t}
          locale={locale}
          savedAt={draft.restored.savedAt}
          onDiscard={discardDraft}
          message={(time) => t('upload.draft.restored', { time })}
        />
      )}
      {!file ? (
        <label className="card upload-drop" data-audio-file>
          <span className="star" aria-hidden="true">
            ♪
          </span>
          <span>{t('audio.form.choose')}</span>
          <span className="field-hint">{t('audio.form.formats')}</span>
          <input type="file" accept={ACCEPT} onChange={(e) => void choose(e.target.files?.[0])} data-audio-input />
        </label>
      ) : (
        <section className="card" aria-live="polite">
          {view && (
            <UploadProgress
              view={view}
              fileName={file.name}
              locale={locale}
              t={t}
              onPause={() => handle.current?.pause()}
              onResume={() => handle.current?.resume()}
            />
          )}
          {mediaId && (
            <p
              className={refused ? 'auth-error' : 'field-hint'}
              role={refused ? 'alert' : undefined}
              data-media-status={media?.status ?? 'uploaded'}
            >
              {refused
                ? t(`audio.reason.${media?.reason ?? 'FAILED'}`)
                : ready
                  ? t('audio.status.ready')
                  : t('audio.status.processing')}
            </p>
          )}
        </section>
      )}
      <form className="card auth-form upload-form" onSubmit={submit} data-audio-form>
        <h2 className="upload-step-title">{t('audio.form.details')}</h2>
        <pending.Provider>
          <VideoMetaFields
            locale={locale}
            t={t}
            values={meta}
            onChange={(changes) => setMeta((m) => ({ ...m, ...changes }))}
            errors={errors}
            posterUrl={media?.posterUrl ?? null}
            kind="audio"
          >
            <label className="field">
              <span className="field-label">{t('audio.form.artist')}</span>
              <input
                name="artist"
                maxLength={AUDIO_ARTIST_MAX}
                value={artist}
                onChange={(e) => setArtist(e.target.value)}
                placeholder={t('audio.form.artistHint')}
              />
            </label>
            <CopyrightFields
              t={t}
              value={rights}
              onChange={(changes) => setRights((r) => ({ ...r, ...changes }))}
              errors={errors}
              kind="audio"
            />
          </VideoMetaFields>
        </pending.Provider>
        <PendingNotice message={pending.message} />
        {formError && (
          <p className="auth-error" role="alert" data-form-error>
            {formError}
          </p>
        )}
        <div className="error-actions">
          <button type="submit" className="button" disabled={busy || !ready} aria-busy={busy || undefined} data-submit>
            {t('audio.form.submit')}
          </button>
          {!ready && !refused && <span className="field-hint">{t('audio.form.afterProcessing')}</span>}
        </div>
      </form>
    </div>
  );
}
