import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { HttpError } from '../../lib/api/index.ts';
import {
  VIDEO_CATEGORIES,
  VIDEO_DESCRIPTION_MAX,
  VIDEO_TITLE_MAX,
  type VideoCategory,
} from '../../lib/api/contracts/video.constants.ts';
import type { ApiErrorBody } from '../../lib/api/errors.ts';
import type { Tag } from '../../lib/api/contracts/video.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import TagPicker from './TagPicker.tsx';
import CoverPicker from './CoverPicker.tsx';

/** The form fields the server may name in VALIDATION_FAILED issues, each with its own message (upload.invalid.*). */
export const META_FIELDS = [
  'title',
  'description',
  'videoCategory',
  'copyright',
  'ensureOriginal',
  'originalAuthor',
  'originalLink',
  'videoTagList',
  'image',
] as const;
export type MetaField = (typeof META_FIELDS)[number];
export type FieldErrors = Partial<Record<MetaField, string>>;
/** The server's refusal; MEDIA_REJECTED also names the reason the file was refused. */
export type ErrorBody = Partial<ApiErrorBody> & { reason?: string };

/** The refusal's body, and its issues as messages beside the fields they name. */
export function fieldErrorsOf(error: unknown, t: TFunction): { body: ErrorBody | undefined; named: FieldErrors } {
  const body = (error instanceof HttpError ? error.body : undefined) as ErrorBody | undefined;
  const named: FieldErrors = {};
  for (const issue of body?.issues ?? []) {
    const field = META_FIELDS.find((f) => issue.path === f || issue.path.startsWith(`${f}.`));
    if (field) named[field] = t(`upload.invalid.${field}`);
  }
  return { body, named };
}

export interface MetaValues {
  title: string;
  description: string;
  category: VideoCategory | '';
  tags: Tag[];
  cover: string | null;
}

/**
 * A video's (or track's: `kind`) public metadata as the upload forms and the "my videos" and "my
 * tracks" editors ask for it: the cover, title, description and category, then `children` (the
 * upload's copyright part, a track's artist), then tags. A track's cover is square and its texts its own.
 */
export default function VideoMetaFields({
  locale,
  t,
  values,
  onChange,
  errors,
  posterUrl,
  children,
  kind = 'video',
}: {
  locale: Locale;
  t: TFunction;
  values: MetaValues;
  onChange: (changes: Partial<MetaValues>) => void;
  errors: FieldErrors;
  posterUrl: string | null;
  children?: ReactNode;
  kind?: 'video' | 'audio';
}) {
  const invalid = (field: MetaField) => (errors[field] ? { 'aria-invalid': true as const } : {});
  const hint = (field: MetaField) =>
    errors[field] && (
      <span className="auth-error" role="alert" data-field-error={field}>
        {errors[field]}
      </span>
    );
  return (
    <>
      <CoverPicker
        t={t}
        cover={values.cover}
        posterUrl={posterUrl}
        onChange={(cover) => onChange({ cover })}
        invalid={errors.image}
        kind={kind}
      />
      <label className="field">
        <span className="field-label">{t('upload.title')}</span>
        <input
          name="title"
          required
          maxLength={VIDEO_TITLE_MAX}
          value={values.title}
          onChange={(e) => onChange({ title: e.target.value })}
          {...invalid('title')}
        />
        {hint('title')}
      </label>
      <label className="field">
        <span className="field-label">{t('upload.description')}</span>
        <textarea
          name="description"
          rows={4}
          maxLength={VIDEO_DESCRIPTION_MAX}
          placeholder={t(kind === 'audio' ? 'audio.form.descriptionPlaceholder' : 'upload.descriptionPlaceholder')}
          value={values.description}
          onChange={(e) => onChange({ description: e.target.value })}
          {...invalid('description')}
        />
        {hint('description')}
      </label>
      <label className="field">
        <span className="field-label">{t('upload.category')}</span>
        <select
          name="videoCategory"
          required
          value={values.category}
          onChange={(e) => onChange({ category: e.target.value as VideoCategory })}
          {...invalid('videoCategory')}
        >
          <option value="" disabled>
            {t('upload.chooseCategory')}
          </option>
          {VIDEO_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`video.categories.${c}`)}
            </option>
          ))}
        </select>
        {hint('videoCategory')}
      </label>
      {children}
      <TagPicker
        locale={locale}
        t={t}
        tags={values.tags}
        onChange={(tags) => onChange({ tags })}
        invalid={errors.videoTagList}
      />
    </>
  );
}
