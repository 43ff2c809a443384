import { useEffect, useState, type FormEvent } from 'react';
import { draftValue, type DraftFields } from '../../lib/upload/draft.ts';
import type { TFunction } from 'i18next';
import { commitVideo } from '../../lib/api/index.ts';
import { VIDEO_TITLE_MAX } from '../../lib/api/contracts/video.constants.ts';
import type { VideoUploadBody } from '../../lib/api/contracts/upload.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import VideoMetaFields, { fieldErrorsOf, type FieldErrors, type MetaValues } from './VideoMetaFields.tsx';
import CopyrightFields, { NO_RIGHTS_GIVEN, type Rights } from './CopyrightFields.tsx';
import { PendingNotice, usePendingWork } from './pending-work.tsx';

type CommitPart = VideoUploadBody['videoPart'][number];

/**
 * The metadata of the video and its commit (POST video/upload) with its parts in order. Sent
 * before every part is checked by the pipeline, it waits, then goes by itself.
 */
export default function VideoForm({
  locale,
  t,
  parts,
  checked,
  blocked,
  posterUrl,
  fileName,
  onCommitted,
  initial,
  onDraft,
}: {
  locale: Locale;
  t: TFunction;
  /** The fields of a restored draft (onDraft's last values), if any. */
  initial?: DraftFields | null;
  /** The fields as they change, for the draft. */
  onDraft?: (fields: DraftFields) => void;
  /** Null while a file is still being uploaded: the form can be filled in meanwhile. */
  parts: CommitPart[] | null;
  /** Every part is checked (probed, not refused): the commit can go. */
  checked: boolean;
  /** A part was refused: it must be removed first. */
  blocked: boolean;
  posterUrl: string | null;
  fileName: string;
  onCommitted: (videoId: number) => void;
}) {
  const [meta, setMeta] = useState<MetaValues>(() => ({
    title: fileName.replace(/\.[^.]+$/, '').slice(0, VIDEO_TITLE_MAX),
    description: '',
    category: '',
    tags: [],
    cover: null,
    ...draftValue<Partial<MetaValues>>(initial, 'meta', {}),
  }));
  const [rights, setRights] = useState<Rights>(() => ({
    ...NO_RIGHTS_GIVEN,
    ...draftValue<Partial<Rights>>(initial, 'rights', {}),
  }));
  const { copyright, ensureOriginal, originalAuthor, originalLink } = rights;
  const [pushToFeed, setPushToFeed] = useState(() => draftValue(initial, 'pushToFeed', true));
  useEffect(() => onDraft?.({ meta, rights, pushToFeed }), [meta, rights, pushToFeed, onDraft]);
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  // A tag typed, a cover being framed or uploaded: the video does not go without them.
  const pending = usePendingWork();

  const { title, description, category, tags, cover } = meta;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!parts || !category || blocked || pending.check()) return;
    if (checked) void commit(parts);
    else setWaiting(true);
  };
  // Sent while parts were still being checked: it goes once they are (not if one is refused).
  useEffect(() => {
    if (!waiting) return;
    if (blocked) setWaiting(false);
    else if (checked && parts) {
      setWaiting(false);
      if (!pending.check()) void commit(parts);
    }
  }, [waiting, checked, blocked, parts]);
  const commit = async (videoPart: CommitPart[]) => {
    if (!category) return;
    setBusy(true);
    setErrors({});
    setFormError('');
    try {
      const { videoId } = await commitVideo({
        title,
        description,
        image: cover,
        videoPart,
        videoCategory: category,
        copyright,
        originalAuthor: copyright === 'original' ? null : originalAuthor.trim() || null,
        originalLink: copyright === 'original' ? null : originalLink.trim() || null,
        pushToFeed,
        ensureOriginal: copyright === 'original' && ensureOriginal,
        videoTagList: tags.map((tag) => tag.tagId),
      });
      onCommitted(videoId);
    } catch (error) {
      const { body, named } = fieldErrorsOf(error, t);
      setErrors(named);
      if (body?.code === 'MEDIA_REJECTED' && body.reason) setFormError(t(`upload.reason.${body.reason}`));
      else if (!Object.keys(named).length) setFormError(body?.message ?? t('api.internal'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card auth-form upload-form" onSubmit={submit} data-upload-form>
      <h2 className="upload-step-title">{t('upload.detailsTitle')}</h2>
      <pending.Provider>
        <VideoMetaFields
          locale={locale}
          t={t}
          values={meta}
          onChange={(changes) => setMeta((m) => ({ ...m, ...changes }))}
          errors={errors}
          posterUrl={posterUrl}
        >
          <CopyrightFields
            t={t}
            value={rights}
            onChange={(changes) => setRights((r) => ({ ...r, ...changes }))}
            errors={errors}
          />
        </VideoMetaFields>
      </pending.Provider>
      <label className="check">
        <input
          type="checkbox"
          name="pushToFeed"
          checked={pushToFeed}
          onChange={(e) => setPushToFeed(e.target.checked)}
        />{' '}
        {t('upload.pushToFeed')}
      </label>
      <PendingNotice message={pending.message} />
      {formError && (
        <p className="auth-error" role="alert" data-form-error>
          {formError}
        </p>
      )}
      <div className="error-actions">
        <button
          type="submit"
          className="button"
          disabled={busy || waiting || !parts || blocked}
          aria-busy={busy || waiting || undefined}
          data-submit
        >
          {busy ? t('upload.publishing') : waiting ? t('parts.waiting') : t('upload.publish')}
        </button>
        {!parts && !blocked && <span className="field-hint">{t('upload.publishAfterUpload')}</span>}
        {blocked && (
          <span className="field-hint" data-parts-blocked>
            {t('parts.blocked')}
          </span>
        )}
      </div>
    </form>
  );
}
