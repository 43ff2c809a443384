import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useAction } from '../settings/use-action.ts';
import { fieldErrorsOf, type FieldErrors } from '../uploader/VideoMetaFields.tsx';

/**
 * Saving an upload's metadata from "my videos" or "my tracks": the server's refusal of a field is
 * shown at that field, anything else as the form's message; `onSaved` hears whether the edit sent
 * the upload back to review.
 */
export function useMetaSave(t: TFunction, onSaved: (backToReview: boolean) => void) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const action = useAction(t('api.internal'));
  const save = (send: () => Promise<{ backToReview: boolean }>) => {
    setErrors({});
    void action.run(async () => {
      try {
        onSaved((await send()).backToReview);
      } catch (failure) {
        const { named } = fieldErrorsOf(failure, t);
        if (!Object.keys(named).length) throw failure;
        setErrors(named);
      }
    });
  };
  return { ...action, errors, save };
}

/** An editor's end: whether saving sends a public upload back to review (`texts`: the warning and the note), the error, save and cancel. */
export function EditorFooter({
  t,
  approved,
  reReview,
  texts,
  error,
  busy,
  onCancel,
}: {
  t: TFunction;
  approved: boolean;
  reReview: boolean;
  texts: { warning: string; note: string };
  error: string;
  busy: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {approved && (
        <p className={reReview ? 'my-video-notice' : 'field-hint'} role="status" data-re-review>
          {reReview ? texts.warning : texts.note}
        </p>
      )}
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      <div className="review-actions">
        <button type="submit" className="button" disabled={busy} data-save>
          {t(reReview ? 'myVideos.saveForReview' : 'myVideos.save')}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {t('myVideos.cancel')}
        </button>
      </div>
    </>
  );
}
