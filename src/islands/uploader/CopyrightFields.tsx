import type { TFunction } from 'i18next';
import { COPYRIGHTS, type Copyright } from '../../lib/api/contracts/video.constants.ts';
import type { FieldErrors, MetaField } from './VideoMetaFields.tsx';

/** Whose work an upload is: one's own (confirmed), or a repost with its author and link. */
export interface Rights {
  copyright: Copyright;
  ensureOriginal: boolean;
  originalAuthor: string;
  originalLink: string;
}
export const NO_RIGHTS_GIVEN: Rights = {
  copyright: 'original',
  ensureOriginal: false,
  originalAuthor: '',
  originalLink: '',
};

/** The copyright part of an upload form (videos and audio tracks alike; `kind` words the confirmation). */
export default function CopyrightFields({
  t,
  value,
  onChange,
  errors,
  kind = 'video',
}: {
  t: TFunction;
  value: Rights;
  onChange: (changes: Partial<Rights>) => void;
  errors: FieldErrors;
  kind?: 'video' | 'audio';
}) {
  const { copyright, ensureOriginal, originalAuthor, originalLink } = value;
  const invalid = (field: MetaField) => (errors[field] ? { 'aria-invalid': true as const } : {});
  const hint = (field: MetaField) =>
    errors[field] && (
      <span className="auth-error" role="alert" data-field-error={field}>
        {errors[field]}
      </span>
    );
  return (
    <fieldset className="field copyright-field">
      <legend className="field-label">{t('upload.copyright')}</legend>
      <div className="choice-row">
        {COPYRIGHTS.map((c) => (
          <label key={c} className="check">
            <input
              type="radio"
              name="copyright"
              value={c}
              checked={copyright === c}
              onChange={() => onChange({ copyright: c })}
            />{' '}
            {t(`upload.copyrights.${c}`)}
          </label>
        ))}
      </div>
      {copyright === 'original' && (
        <label className="check">
          <input
            type="checkbox"
            name="ensureOriginal"
            required
            checked={ensureOriginal}
            onChange={(e) => onChange({ ensureOriginal: e.target.checked })}
            {...invalid('ensureOriginal')}
          />{' '}
          {t(kind === 'audio' ? 'audio.form.ensureOriginal' : 'upload.ensureOriginal')}
        </label>
      )}
      {copyright !== 'original' && (
        <div className="field-row">
          <label className="field">
            <span className="field-label">{t('upload.originalAuthor')}</span>
            <input
              name="originalAuthor"
              required={copyright === 'repost'}
              maxLength={100}
              value={originalAuthor}
              onChange={(e) => onChange({ originalAuthor: e.target.value })}
              {...invalid('originalAuthor')}
            />
            {hint('originalAuthor')}
          </label>
          <label className="field">
            <span className="field-label">{t('upload.originalLink')}</span>
            <input
              name="originalLink"
              type="url"
              required={copyright === 'repost'}
              placeholder="https://"
              maxLength={500}
              value={originalLink}
              onChange={(e) => onChange({ originalLink: e.target.value })}
              {...invalid('originalLink')}
            />
            {hint('originalLink')}
          </label>
        </div>
      )}
      {hint('ensureOriginal')}
      {hint('copyright')}
    </fieldset>
  );
}
