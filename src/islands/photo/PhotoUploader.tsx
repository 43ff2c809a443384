import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { call } from '../../lib/api/client.ts';
import { buildUrl, HttpError } from '../../lib/api/http.ts';
import { getMediaStatus } from '../../lib/api/index.ts';
import type { ApiErrorBody } from '../../lib/api/errors.ts';
import type { Tag } from '../../lib/api/contracts/video.ts';
import { COPYRIGHTS, type Copyright } from '../../lib/api/contracts/video.constants.ts';
import {
  PHOTO_ALT_MAX,
  PHOTO_DESCRIPTION_MAX,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_IMAGES,
  PHOTO_MIME_TYPES,
  PHOTO_TITLE_MAX,
} from '../../lib/api/contracts/photo.constants.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { startTusUpload, type TusUploadHandle, type UploadProgressView } from '../../lib/upload/tus-upload.ts';
import { percentDone } from '../../lib/upload/machine.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { photoPostPath } from '../../lib/photo/picture.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import TagPicker from '../uploader/TagPicker.tsx';
import { PendingNotice, usePendingWork } from '../uploader/pending-work.tsx';
import { DraftNotice, useUploadDraft } from '../uploader/use-upload-draft.tsx';
import { draftValue, fileIdentity, isBlankDraft, keptAltTexts } from '../../lib/upload/draft.ts';
import '../../styles/photo-upload.css';

const endpoint = () =>
  buildUrl(publicConfig.apiBase.endsWith('/') ? publicConfig.apiBase : `${publicConfig.apiBase}/`, 'video/tus');
const PROBE_POLL_MS = 700;

/** One chosen image: its file, a preview, its alt text, and what became of its upload. */
interface Entry {
  key: number;
  file: File;
  preview: string;
  alt: string;
  progress: number;
  mediaId: string | null;
  /** uploading → checking (the server's probe) → ready; or refused with the server's reason. */
  phase: 'uploading' | 'checking' | 'ready' | 'refused' | 'error';
  message: string;
}
let nextKey = 1;

/** The server's message (already in the page's language), else a generic one. */
function messageOf(error: unknown, fallback: string): string {
  const body = error instanceof HttpError ? (error.body as Partial<ApiErrorBody> | undefined) : undefined;
  return body?.message || fallback;
}

/**
 * /upload/photo: choose 1-30 images (checked in the browser for type, size and count), each
 * uploaded at once through the resumable endpoint and checked by the server (a refusal shows on
 * its card); write the alt text of each (required: a reminder counts what is missing), the
 * title, description, tags and copyright; publish once all are ready. The post then waits for review.
 */
export default function PhotoUploader({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<Tag[]>([]);
  const [copyright, setCopyright] = useState<Copyright>('original');
  const [originalAuthor, setOriginalAuthor] = useState('');
  const [keepCameraData, setKeepCameraData] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [published, setPublished] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [tried, setTried] = useState(false);
  const handles = useRef(new Map<number, TusUploadHandle>());
  const input = useRef<HTMLInputElement>(null);
  const pending = usePendingWork();
  // Alt texts of a restored draft, by file: given back to each image when its file is chosen again.
  const [restoredAlts, setRestoredAlts] = useState<Record<string, string>>({});
  // The draft: the post's words and choices (not the images, but their alt texts), kept once something is typed.
  const alts = keptAltTexts(restoredAlts, entries);
  const draftFields = { title, description, tags, copyright, originalAuthor, keepCameraData, alts };
  const draft = useUploadDraft(
    self.isLogined ? (self.userInfo?.uid ?? null) : null,
    'photo',
    isBlankDraft({ title, description, tags, originalAuthor, alts }) ? null : draftFields,
  );
  const applied = useRef(false);
  useEffect(() => {
    if (!draft.restored || applied.current) return;
    applied.current = true;
    const kept = draft.restored.fields;
    setTitle((v) => draftValue(kept, 'title', v));
    setDescription((v) => draftValue(kept, 'description', v));
    setTags((v) => draftValue(kept, 'tags', v));
    setCopyright((v) => draftValue(kept, 'copyright', v));
    setOriginalAuthor((v) => draftValue(kept, 'originalAuthor', v));
    setKeepCameraData((v) => draftValue(kept, 'keepCameraData', v));
    const keptAlts = draftValue<Record<string, unknown>>(kept, 'alts', {});
    setRestoredAlts(
      Object.fromEntries(
        Object.entries(keptAlts).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
      ),
    );
    // Images chosen before the draft was read get theirs at once.
    setEntries((all) =>
      all.map((e) =>
        e.alt || typeof keptAlts[fileIdentity(e.file)] !== 'string'
          ? e
          : { ...e, alt: keptAlts[fileIdentity(e.file)] as string },
      ),
    );
  }, [draft.restored]);
  const discardDraft = () => {
    draft.discard();
    setTitle('');
    setDescription('');
    setTags([]);
    setCopyright('original');
    setOriginalAuthor('');
    setKeepCameraData(false);
    setRestoredAlts({});
    setEntries((all) => all.map((e) => ({ ...e, alt: '' })));
  };

  const update = useCallback(
    (key: number, change: Partial<Entry>) =>
      setEntries((all) => all.map((e) => (e.key === key ? { ...e, ...change } : e))),
    [],
  );
  useEffect(
    () => () => {
      for (const e of entries) URL.revokeObjectURL(e.preview);
    },
    [],
  ); // eslint-disable-line react-hooks/exhaustive-deps

  /** After the last byte: the server's probe says whether the image will be accepted. */
  const awaitProbe = useCallback(
    async (key: number, mediaId: string) => {
      for (;;) {
        const status = await getMediaStatus(mediaId).catch(() => null);
        if (status?.status === 'probed') return update(key, { phase: 'ready' });
        if (status?.status === 'rejected' || status?.status === 'failed') {
          return update(key, { phase: 'refused', message: t(`photo.refusal.${status.reason ?? 'CORRUPT'}`) });
        }
        await new Promise((resolve) => setTimeout(resolve, PROBE_POLL_MS));
      }
    },
    [t, update],
  );

  const startUpload = useCallback(
    async (entry: Entry) => {
      const handle = await startTusUpload(entry.file, t('photo.upload.fileNotFound'), {
        endpoint: endpoint(),
        locale,
        kind: 'photo',
        onChange: (view: UploadProgressView) => {
          if (view.state === 'error') update(entry.key, { phase: 'error', message: view.error ?? '' });
          else if (view.state === 'success' && view.mediaId) {
            update(entry.key, { progress: 100, mediaId: view.mediaId, phase: 'checking' });
            void awaitProbe(entry.key, view.mediaId);
          } else update(entry.key, { progress: percentDone(view.bytesUploaded, view.bytesTotal) });
        },
      });
      if (handle) handles.current.set(entry.key, handle);
    },
    [awaitProbe, locale, t, update],
  );

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true" data-photo-uploader="checking">
        …
      </div>
    );
  if (!self.isLogined) {
    return (
      <section className="card coming-soon" data-photo-uploader="guest">
        <div className="star" aria-hidden="true">
          ✦
        </div>
        <p>{t('photo.upload.loginRequired')}</p>
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
  if (published) {
    return (
      <section className="card" data-photo-uploader="done" role="status">
        <h2>{t('photo.upload.doneTitle')}</h2>
        <p>{t('photo.upload.doneText')}</p>
        <a className="button" href={photoPostPath(published, locale)}>
          {t('photo.upload.openPost')}
        </a>
      </section>
    );
  }

  const add = (files: FileList | File[] | null) => {
    if (!files) return;
    const room = PHOTO_MAX_IMAGES - entries.length;
    const picked = [...files];
    if (picked.length > room)
      showToast({ message: t('photo.upload.tooMany', { max: PHOTO_MAX_IMAGES }), severity: 'error' });
    const accepted: Entry[] = [];
    for (const file of picked.slice(0, Math.max(0, room))) {
      if (!(PHOTO_MIME_TYPES as readonly string[]).includes(file.type)) {
        showToast({ message: t('photo.upload.wrongType', { name: file.name }), severity: 'error' });
        continue;
      }
      if (file.size > PHOTO_MAX_BYTES) {
        showToast({ message: t('photo.upload.tooLarge', { name: file.name }), severity: 'error' });
        continue;
      }
      accepted.push({
        key: nextKey++,
        file,
        preview: URL.createObjectURL(file),
        alt: alts[fileIdentity(file)] ?? '',
        progress: 0,
        mediaId: null,
        phase: 'uploading',
        message: '',
      });
    }
    setEntries((all) => [...all, ...accepted]);
    for (const entry of accepted) void startUpload(entry);
  };
  const remove = (key: number) => {
    handles.current.get(key)?.pause();
    handles.current.delete(key);
    setEntries((all) =>
      all.filter((e) => {
        if (e.key === key) URL.revokeObjectURL(e.preview);
        return e.key !== key;
      }),
    );
  };
  const move = (index: number, by: number) =>
    setEntries((all) => {
      const next = [...all];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved);
      return next;
    });

  const missingAlt = entries.filter((e) => !e.alt.trim()).length;
  const allReady = entries.length > 0 && entries.every((e) => e.phase === 'ready');
  const titleMissing = !title.trim();
  const authorMissing = copyright !== 'original' && !originalAuthor.trim();
  const publish = async () => {
    setTried(true);
    if (pending.check()) return;
    if (!allReady || missingAlt || titleMissing || authorMissing) return;
    setPublishing(true);
    try {
      const answer = await call('POST photo/upload', {
        title: title.trim(),
        description: description.trim(),
        copyright,
        originalAuthor: copyright === 'original' ? null : originalAuthor.trim(),
        keepCameraData,
        tags: tags.map((tag) => tag.tagId),
        images: entries.map((e) => ({ mediaId: e.mediaId!, alt: e.alt.trim() })),
      });
      draft.clear();
      setPublished(answer.photoId);
    } catch (error) {
      showToast({ message: messageOf(error, t('photo.upload.failed')), severity: 'error' });
    } finally {
      setPublishing(false);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  };

  return (
    <div className="photo-uploader" data-photo-uploader="form">
      {draft.restored && (
        <DraftNotice
          t={t}
          locale={locale}
          savedAt={draft.restored.savedAt}
          onDiscard={discardDraft}
          message={(time) => t('upload.draft.restored', { time })}
        />
      )}
      <div
        className={`card photo-drop${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <p>{t('photo.upload.drop')}</p>
        <p className="photo-hint">{t('photo.upload.limits', { max: PHOTO_MAX_IMAGES })}</p>
        <button
          type="button"
          className="button"
          onClick={() => input.current?.click()}
          disabled={entries.length >= PHOTO_MAX_IMAGES}
        >
          {t('photo.upload.pick')}
        </button>
        <input
          ref={input}
          type="file"
          accept={PHOTO_MIME_TYPES.join(',')}
          multiple
          hidden
          data-photo-files
          onChange={(e) => {
            add(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </div>

      {entries.length > 0 && (
        <ol className="photo-entries" aria-label={t('photo.upload.images')}>
          {entries.map((entry, index) => {
            const altId = `photo-alt-${entry.key}`;
            const altMissing = tried && !entry.alt.trim();
            return (
              <li key={entry.key} className="card photo-entry" data-phase={entry.phase}>
                <img src={entry.preview} alt="" className="photo-entry-preview" />
                <div className="photo-entry-body">
                  <p className="photo-entry-name">
                    {index + 1}. {entry.file.name}
                  </p>
                  <p className="photo-entry-state" role="status">
                    {entry.phase === 'uploading' ? (
                      <progress
                        max={100}
                        value={entry.progress}
                        aria-label={t('photo.upload.progress', { name: entry.file.name })}
                      />
                    ) : entry.phase === 'checking' ? (
                      t('photo.upload.checking')
                    ) : entry.phase === 'ready' ? (
                      t('photo.upload.ready')
                    ) : (
                      <span className="photo-error">{entry.message}</span>
                    )}
                  </p>
                  <label className="field" htmlFor={altId}>
                    <span className="field-label">{t('photo.upload.alt')}</span>
                  </label>
                  <div className="field">
                    <textarea
                      id={altId}
                      value={entry.alt}
                      maxLength={PHOTO_ALT_MAX}
                      rows={2}
                      required
                      aria-invalid={altMissing}
                      aria-describedby={`${altId}-hint`}
                      placeholder={t('photo.upload.altPlaceholder')}
                      data-alt-input
                      onChange={(e) => update(entry.key, { alt: e.currentTarget.value })}
                    />
                  </div>
                  <small id={`${altId}-hint`} className={altMissing ? 'photo-error' : 'field-hint'}>
                    {t('photo.upload.altHint')}
                  </small>
                  <div className="photo-entry-actions">
                    <button
                      type="button"
                      className="button secondary"
                      onClick={() => move(index, -1)}
                      disabled={index === 0}
                      aria-label={t('photo.upload.moveEarlier', { index: index + 1 })}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="button secondary"
                      onClick={() => move(index, 1)}
                      disabled={index === entries.length - 1}
                      aria-label={t('photo.upload.moveLater', { index: index + 1 })}
                    >
                      ↓
                    </button>
                    <button type="button" className="button secondary" onClick={() => remove(entry.key)}>
                      {t('photo.upload.remove')}
                    </button>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}

      <section className="card photo-fields" aria-labelledby="photo-details-title">
        <h2 id="photo-details-title">{t('photo.upload.details')}</h2>
        <label className="field">
          <span className="field-label">{t('upload.title')}</span>
          <input
            value={title}
            maxLength={PHOTO_TITLE_MAX}
            required
            aria-invalid={tried && titleMissing}
            data-photo-title
            onChange={(e) => setTitle(e.currentTarget.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('upload.description')}</span>
          <textarea
            value={description}
            maxLength={PHOTO_DESCRIPTION_MAX}
            rows={4}
            placeholder={t('photo.upload.descriptionPlaceholder')}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
        </label>
        <fieldset>
          <legend className="field-label">{t('upload.copyright')}</legend>
          {COPYRIGHTS.map((c) => (
            <label key={c} className="photo-radio">
              <input type="radio" name="photo-copyright" checked={copyright === c} onChange={() => setCopyright(c)} />{' '}
              {t(`upload.copyrights.${c}`)}
            </label>
          ))}
        </fieldset>
        {copyright !== 'original' && (
          <label className="field">
            <span className="field-label">{t('upload.originalAuthor')}</span>
            <input
              value={originalAuthor}
              maxLength={100}
              required
              aria-invalid={tried && authorMissing}
              onChange={(e) => setOriginalAuthor(e.currentTarget.value)}
            />
          </label>
        )}
        <pending.Provider>
          <TagPicker locale={locale} t={t as never} tags={tags} onChange={setTags} />
        </pending.Provider>
        <label className="photo-radio">
          <input
            type="checkbox"
            checked={keepCameraData}
            onChange={(e) => setKeepCameraData(e.currentTarget.checked)}
          />{' '}
          {t('photo.upload.keepCamera')}
        </label>
        <small className="field-hint">{t('photo.upload.privacy')}</small>
      </section>

      <div className="photo-publish">
        <PendingNotice message={pending.message} />
        {missingAlt > 0 && entries.length > 0 && (
          <p className={tried ? 'photo-error' : 'photo-hint'} role="status" data-alt-reminder>
            {t('photo.upload.altReminder', { count: missingAlt })}
          </p>
        )}
        <button
          type="button"
          className="button"
          onClick={() => void publish()}
          disabled={publishing || !entries.length}
          data-photo-publish
        >
          {publishing
            ? t('photo.upload.publishing')
            : allReady || !entries.length
              ? t('photo.upload.publish')
              : t('photo.upload.waiting')}
        </button>
      </div>
    </div>
  );
}
