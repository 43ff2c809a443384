import { useCallback, useRef, useState, type DragEvent } from 'react';
import { MAX_VIDEO_PARTS, VIDEO_TITLE_MAX } from '../../lib/api/contracts/video.constants.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { MAX_VIDEO_DURATION_SECONDS } from '../../lib/upload/tus-upload.ts';
import { readMediaFacts, refusalOf, type LocalRefusal, type MediaFacts } from '../../lib/upload/media-info.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import PartUpload, { CHECKED, type PartEntry, type PartProgress } from './PartUpload.tsx';
import VideoForm from './VideoForm.tsx';
import { byteFormatters } from './format.ts';
import { draftValue, restoredPartTitle, type DraftFields } from '../../lib/upload/draft.ts';
import { DraftNotice, useUploadDraft } from './use-upload-draft.tsx';
import './uploader.css';

type Check =
  | { kind: 'checking' }
  | { kind: 'ok'; facts: MediaFacts | null }
  | { kind: 'refused'; reason: LocalRefusal };

let nextKey = 1;
/** A part's default title: its file's name without the extension (as Bilibili's). */
const defaultTitle = (file: File) => file.name.replace(/\.[^.]+$/, '').slice(0, VIDEO_TITLE_MAX);
/** A new part, titled as the draft's part at its place if a draft was restored. */
const partOf = (file: File, checked: boolean, index = 0, keptTitles?: unknown): PartEntry => ({
  key: nextKey++,
  file,
  title: restoredPartTitle(keptTitles, index, defaultTitle(file)),
  checked,
});

/**
 * /upload: choose a file, upload it (resumable), add more files as further parts (each uploaded
 * the same way, titled, reordered, removed), follow their processing, describe the video and
 * publish it once every part is uploaded and checked.
 */
export default function Uploader({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [file, setFile] = useState<File | null>(null);
  const [missingFile, setMissingFile] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const [check, setCheck] = useState<Check | null>(null);
  const [parts, setParts] = useState<PartEntry[]>([]);
  const [progress, setProgress] = useState<Record<number, PartProgress>>({});
  const [videoId, setVideoId] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  // The draft (use-upload-draft.tsx): the parts' titles here, the form's fields from VideoForm.
  const [formDraft, setFormDraft] = useState<DraftFields | null>(null);
  const [formEpoch, setFormEpoch] = useState(0);
  const uid = self.isLogined ? (self.userInfo?.uid ?? null) : null;
  const draft = useUploadDraft(
    uid,
    'video',
    parts.length ? { fileName: parts[0].file.name, partTitles: parts.map((p) => p.title), form: formDraft } : null,
  );
  const keptTitles = draft.restored?.fields.partTitles;
  const keptForm = draftValue<DraftFields | null>(draft.restored?.fields, 'form', null);

  const report = useCallback(
    (key: number, value: PartProgress) => setProgress((all) => ({ ...all, [key]: value })),
    [],
  );

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
          ✦
        </div>
        <p>{t('upload.loginRequired')}</p>
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

  const choose = (picked: File | null | undefined) => {
    if (!picked) return;
    setFile(picked);
    setMissingFile(false);
    setCheck({ kind: 'checking' });
    readMediaFacts(picked).then(
      (facts) =>
        setCheck((current) =>
          current?.kind === 'checking'
            ? refusalOf(facts, MAX_VIDEO_DURATION_SECONDS)
              ? { kind: 'refused', reason: refusalOf(facts, MAX_VIDEO_DURATION_SECONDS)! }
              : { kind: 'ok', facts }
            : current,
        ),
      // mediainfo could not load: the server's own check still applies.
      (error) => {
        console.warn('media info check unavailable', error);
        setCheck({ kind: 'ok', facts: null });
      },
    );
  };
  const start = () => {
    if (!file) {
      // Said twice: the toast of SPEC §5, and beside the button until a file is chosen; the picker gets the focus.
      setMissingFile(true);
      picker.current?.focus();
      return showToast({ message: t('upload.fileNotFound'), severity: 'error' });
    }
    if (check?.kind !== 'ok') return;
    setParts([partOf(file, true, 0, keptTitles)]);
  };
  const addParts = (files: FileList | null) => {
    const room = MAX_VIDEO_PARTS - parts.length;
    const picked = [...(files ?? [])];
    if (picked.length > room) showToast({ message: t('parts.tooMany', { max: MAX_VIDEO_PARTS }), severity: 'warning' });
    if (room > 0 && picked.length)
      setParts((now) => [...now, ...picked.slice(0, room).map((f, i) => partOf(f, false, now.length + i, keptTitles))]);
  };
  const move = (index: number, by: -1 | 1) => {
    setParts((now) => {
      const next = [...now];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });
    // Focus follows the moved part (the same button, or the other one at the end of the list).
    requestAnimationFrame(() => {
      const row = list.current?.querySelectorAll<HTMLElement>('[data-part-upload]')[index + by];
      const same = row?.querySelector<HTMLButtonElement>(by < 0 ? '[data-part-up]' : '[data-part-down]');
      (same && !same.disabled
        ? same
        : row?.querySelector<HTMLButtonElement>(by < 0 ? '[data-part-down]' : '[data-part-up]')
      )?.focus();
    });
  };
  const remove = (key: number) => {
    setParts((now) => now.filter((p) => p.key !== key));
    setProgress(({ [key]: _gone, ...rest }) => rest);
  };
  const reset = () => {
    setFile(null);
    setCheck(null);
    setParts([]);
    setProgress({});
    setVideoId(null);
    setFormDraft(null);
  };
  const discardDraft = () => {
    draft.discard();
    setParts((now) => now.map((p) => ({ ...p, title: defaultTitle(p.file) })));
    setFormEpoch((n) => n + 1);
  };
  const committed = (id: number) => {
    draft.clear();
    setVideoId(id);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    choose(e.dataTransfer.files[0]);
  };

  if (videoId !== null) {
    return (
      <section className="card upload-done" data-uploader="done">
        <div className="star" aria-hidden="true">
          ✦
        </div>
        <h2 className="upload-step-title">{t('upload.doneTitle')}</h2>
        <p>{t('upload.doneText')}</p>
        <div className="error-actions">
          <a className="button" href={localizePath(`/video/kv${videoId}`, locale)} data-video-link>
            {t('upload.openVideo', { id: videoId })}
          </a>
          <button type="button" className="button secondary" onClick={reset}>
            {t('upload.another')}
          </button>
        </div>
      </section>
    );
  }

  const format = byteFormatters(locale);
  const states = parts.map((p) => progress[p.key]);
  const anyRefused = states.some((s) => s?.refused);
  // The commit names every part: it may be sent once all are uploaded, and goes once all are checked.
  const uploaded = states.every((s) => s?.mediaId);
  const checked = uploaded && states.every((s) => s?.status && CHECKED.includes(s.status));
  const commitParts = uploaded
    ? parts.map((p, i) => ({ mediaId: states[i]!.mediaId!, videoPartTitle: p.title.trim() }))
    : null;
  const uploading = parts.length > 0;
  return (
    <div className="uploader" data-uploader={uploading ? 'uploading' : 'choose'}>
      {draft.restored && (
        <DraftNotice
          t={t}
          locale={locale}
          savedAt={draft.restored.savedAt}
          onDiscard={discardDraft}
          message={(time) =>
            uploading
              ? t('upload.draft.restored', { time })
              : t('upload.draft.kept', {
                  time,
                  title:
                    draftValue(draftValue<DraftFields | null>(keptForm, 'meta', null), 'title', '') ||
                    draftValue(draft.restored!.fields, 'fileName', ''),
                })
          }
        />
      )}
      {!uploading && (
        <section className="card upload-choose">
          <label
            className={`drop-zone${dragging ? ' dragging' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <span className="drop-icon" aria-hidden="true">
              ⇪
            </span>
            <strong>{t('upload.drop')}</strong>
            <span className="button secondary">{t('upload.pick')}</span>
            <input
              type="file"
              name="video"
              ref={picker}
              aria-describedby={missingFile ? 'upload-missing-file' : undefined}
              accept="video/*,.mkv,.flv,.ts,.m2ts"
              className="visually-hidden"
              onChange={(e) => {
                choose(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
          <p className="field-hint">{t('upload.limits', { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}</p>
          {file && (
            <div className="file-facts" data-check={check?.kind}>
              <strong>{file.name}</strong> <span className="user-meta">{format.size(file.size)}</span>
              {check?.kind === 'checking' && <p className="field-hint">{t('upload.checking')}</p>}
              {check?.kind === 'ok' && check.facts && (
                <p className="user-meta">
                  {[
                    check.facts.duration !== null && formatTimecode(check.facts.duration),
                    check.facts.width && `${check.facts.width}×${check.facts.height}`,
                    check.facts.videoCodec,
                    check.facts.audioCodec,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
              )}
              {check?.kind === 'refused' && (
                <p className="auth-error" role="alert" data-refusal={check.reason}>
                  {t(`upload.reason.${check.reason}`, { minutes: MAX_VIDEO_DURATION_SECONDS / 60 })}
                </p>
              )}
            </div>
          )}
          <div className="error-actions">
            <button
              type="button"
              className="button"
              disabled={check?.kind === 'checking' || check?.kind === 'refused'}
              onClick={start}
              data-start
            >
              {t('upload.start')}
            </button>
          </div>
          {missingFile && (
            <p className="auth-error" role="alert" id="upload-missing-file" data-missing-file>
              {t('upload.chooseFileFirst')}
            </p>
          )}
        </section>
      )}
      {uploading && (
        <section className="card upload-parts" aria-labelledby="upload-parts-title" data-upload-parts={parts.length}>
          <h2 className="upload-step-title" id="upload-parts-title">
            {t('parts.heading', { count: parts.length })}
          </h2>
          <ol className="part-uploads" ref={list}>
            {parts.map((part, index) => (
              <PartUpload
                key={part.key}
                locale={locale}
                t={t}
                entry={part}
                index={index}
                count={parts.length}
                onTitle={(title) => setParts((now) => now.map((p) => (p.key === part.key ? { ...p, title } : p)))}
                onMove={(by) => move(index, by)}
                onRemove={() => remove(part.key)}
                onProgress={(value) => report(part.key, value)}
                onAnother={reset}
              />
            ))}
          </ol>
          {parts.length < MAX_VIDEO_PARTS && (
            <label className="button secondary add-part">
              <span aria-hidden="true">+</span> {t('parts.add')}
              <input
                type="file"
                name="videoPartFile"
                multiple
                accept="video/*,.mkv,.flv,.ts,.m2ts"
                className="visually-hidden"
                onChange={(e) => {
                  addParts(e.target.files);
                  e.target.value = '';
                }}
              />
            </label>
          )}
          <p className="field-hint">{t('parts.hint', { max: MAX_VIDEO_PARTS })}</p>
        </section>
      )}
      {uploading && !(parts.length === 1 && anyRefused) && (
        <VideoForm
          key={formEpoch}
          locale={locale}
          t={t}
          parts={commitParts}
          initial={formEpoch === 0 ? keptForm : null}
          onDraft={setFormDraft}
          checked={checked}
          blocked={anyRefused}
          posterUrl={states[0]?.posterUrl ?? null}
          fileName={parts[0].file.name}
          onCommitted={committed}
        />
      )}
    </div>
  );
}
