import { useEffect, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { commitVideo, HttpError } from '../../lib/api/index.ts';
import { COPYRIGHTS, VIDEO_CATEGORIES, VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX, type Copyright, type VideoCategory } from '../../lib/api/constants.ts';
import type { ApiErrorBody, Tag, VideoUploadBody } from '../../lib/api/contract.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import TagPicker from './TagPicker.tsx';
import CoverPicker from './CoverPicker.tsx';

/** The form fields the server may name in VALIDATION_FAILED issues, each with its own message. */
const FIELDS = ['title', 'description', 'videoCategory', 'copyright', 'ensureOriginal', 'originalAuthor', 'originalLink', 'videoTagList', 'image'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

/** The server's refusal; MEDIA_REJECTED also names the reason the file was refused. */
type ErrorBody = Partial<ApiErrorBody> & { reason?: string };

type CommitPart = VideoUploadBody['videoPart'][number];

/**
 * The metadata of the video and its commit (POST video/upload) with its parts in order. Sent
 * before every part is checked by the pipeline, it waits, then goes by itself.
 */
export default function VideoForm({ locale, t, parts, checked, blocked, posterUrl, fileName, onCommitted }: {
  locale: Locale; t: TFunction;
  /** Null while a file is still being uploaded: the form can be filled in meanwhile. */
  parts: CommitPart[] | null;
  /** Every part is checked (probed, not refused): the commit can go. */
  checked: boolean;
  /** A part was refused: it must be removed first. */
  blocked: boolean;
  posterUrl: string | null; fileName: string; onCommitted: (videoId: number) => void;
}) {
  const [title, setTitle] = useState(() => fileName.replace(/\.[^.]+$/, '').slice(0, VIDEO_TITLE_MAX));
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState<VideoCategory | ''>('');
  const [copyright, setCopyright] = useState<Copyright>('original');
  const [ensureOriginal, setEnsureOriginal] = useState(false);
  const [originalAuthor, setOriginalAuthor] = useState('');
  const [originalLink, setOriginalLink] = useState('');
  const [tags, setTags] = useState<Tag[]>([]);
  const [cover, setCover] = useState<string | null>(null);
  const [pushToFeed, setPushToFeed] = useState(true);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  const [waiting, setWaiting] = useState(false);

  const fieldError = (field: Field) => errors[field];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!parts || !category || blocked) return;
    if (checked) void commit(parts);
    else setWaiting(true);
  };
  // Sent while parts were still being checked: it goes once they are (not if one is refused).
  useEffect(() => {
    if (!waiting) return;
    if (blocked) setWaiting(false);
    else if (checked && parts) {
      setWaiting(false);
      void commit(parts);
    }
  }, [waiting, checked, blocked, parts]);
  const commit = async (videoPart: CommitPart[]) => {
    if (!category) return;
    setBusy(true);
    setErrors({});
    setFormError('');
    try {
      const { videoId } = await commitVideo({
        title, description, image: cover, videoPart, videoCategory: category, copyright,
        originalAuthor: copyright === 'original' ? null : originalAuthor.trim() || null,
        originalLink: copyright === 'original' ? null : originalLink.trim() || null,
        pushToFeed, ensureOriginal: copyright === 'original' && ensureOriginal, videoTagList: tags.map((tag) => tag.tagId),
      });
      onCommitted(videoId);
    } catch (error) {
      const body = (error instanceof HttpError ? error.body : undefined) as ErrorBody | undefined;
      const named: FieldErrors = {};
      for (const issue of body?.issues ?? []) {
        const field = FIELDS.find((f) => issue.path === f || issue.path.startsWith(`${f}.`));
        if (field) named[field] = t(`upload.invalid.${field}`);
      }
      setErrors(named);
      if (body?.code === 'MEDIA_REJECTED' && body.reason) setFormError(t(`upload.reason.${body.reason}`));
      else if (!Object.keys(named).length) setFormError(body?.message ?? t('api.internal'));
    } finally {
      setBusy(false);
    }
  };

  const invalid = (field: Field) => (fieldError(field) ? { 'aria-invalid': true as const } : {});
  const hint = (field: Field) => fieldError(field) && <span className="auth-error" role="alert" data-field-error={field}>{fieldError(field)}</span>;

  return (
    <form className="card auth-form upload-form" onSubmit={submit} data-upload-form>
      <h2 className="upload-step-title">{t('upload.detailsTitle')}</h2>
      <CoverPicker t={t} cover={cover} posterUrl={posterUrl} onChange={setCover} invalid={fieldError('image')} />
      <label className="field"><span className="field-label">{t('upload.title')}</span>
        <input name="title" required maxLength={VIDEO_TITLE_MAX} value={title} onChange={(e) => setTitle(e.target.value)} {...invalid('title')} />
        {hint('title')}</label>
      <label className="field"><span className="field-label">{t('upload.description')}</span>
        <textarea name="description" rows={4} maxLength={VIDEO_DESCRIPTION_MAX} placeholder={t('upload.descriptionPlaceholder')} value={description}
          onChange={(e) => setDescription(e.target.value)} {...invalid('description')} />
        {hint('description')}</label>
      <label className="field"><span className="field-label">{t('upload.category')}</span>
        <select name="videoCategory" required value={category} onChange={(e) => setCategory(e.target.value as VideoCategory)} {...invalid('videoCategory')}>
          <option value="" disabled>{t('upload.chooseCategory')}</option>
          {VIDEO_CATEGORIES.map((c) => <option key={c} value={c}>{t(`video.categories.${c}`)}</option>)}
        </select>
        {hint('videoCategory')}</label>
      <fieldset className="field copyright-field">
        <legend className="field-label">{t('upload.copyright')}</legend>
        <div className="choice-row">
          {COPYRIGHTS.map((c) => (
            <label key={c} className="check"><input type="radio" name="copyright" value={c} checked={copyright === c} onChange={() => setCopyright(c)} /> {t(`upload.copyrights.${c}`)}</label>
          ))}
        </div>
        {copyright === 'original' && (
          <label className="check"><input type="checkbox" name="ensureOriginal" required checked={ensureOriginal} onChange={(e) => setEnsureOriginal(e.target.checked)} {...invalid('ensureOriginal')} /> {t('upload.ensureOriginal')}</label>
        )}
        {copyright !== 'original' && (
          <div className="field-row">
            <label className="field"><span className="field-label">{t('upload.originalAuthor')}</span>
              <input name="originalAuthor" required={copyright === 'repost'} maxLength={100} value={originalAuthor} onChange={(e) => setOriginalAuthor(e.target.value)} {...invalid('originalAuthor')} />
              {hint('originalAuthor')}</label>
            <label className="field"><span className="field-label">{t('upload.originalLink')}</span>
              <input name="originalLink" type="url" required={copyright === 'repost'} placeholder="https://" maxLength={500} value={originalLink} onChange={(e) => setOriginalLink(e.target.value)} {...invalid('originalLink')} />
              {hint('originalLink')}</label>
          </div>
        )}
        {hint('ensureOriginal')}{hint('copyright')}
      </fieldset>
      <TagPicker locale={locale} t={t} tags={tags} onChange={setTags} invalid={fieldError('videoTagList')} />
      <label className="check"><input type="checkbox" name="pushToFeed" checked={pushToFeed} onChange={(e) => setPushToFeed(e.target.checked)} /> {t('upload.pushToFeed')}</label>
      {formError && <p className="auth-error" role="alert" data-form-error>{formError}</p>}
      <div className="error-actions">
        <button type="submit" className="button" disabled={busy || waiting || !parts || blocked} aria-busy={busy || waiting || undefined} data-submit>
          {busy ? t('upload.publishing') : waiting ? t('parts.waiting') : t('upload.publish')}
        </button>
        {!parts && !blocked && <span className="field-hint">{t('upload.publishAfterUpload')}</span>}
        {blocked && <span className="field-hint" data-parts-blocked>{t('parts.blocked')}</span>}
      </div>
    </form>
  );
}
