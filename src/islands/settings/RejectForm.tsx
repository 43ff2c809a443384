import { useId, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import {
  REVIEW_NOTE_MAX,
  REVIEW_REJECTION_REASONS,
  type ReviewRejectionReason,
} from '../../lib/api/contracts/common.constants.ts';

export interface Rejection {
  reason: ReviewRejectionReason;
  note: string;
}

/**
 * A review queue item's refusal: a reason from the list and a note for the uploader (needed with
 * OTHER), then Reject. The uploader reads both in their own list (my videos, my tracks, their
 * Photos tab). Strings come from the `rejection` namespace.
 */
export function RejectForm({
  t,
  title,
  busy,
  onReject,
  onCancel,
}: {
  t: TFunction;
  title: string;
  busy: boolean;
  onReject: (rejection: Rejection) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState<ReviewRejectionReason | ''>('');
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return;
    if (reason === 'OTHER' && !note.trim()) {
      setMissing(true);
      return;
    }
    onReject({ reason, note: note.trim() });
  };
  return (
    <form className="reject-form" onSubmit={submit} data-reject-form aria-labelledby={`${id}-legend`}>
      <p className="reject-form-legend" id={`${id}-legend`}>
        <strong>{t('rejection.legend', { title })}</strong>
      </p>
      <label className="field">
        <span className="field-label">{t('rejection.reasonLabel')}</span>
        <select
          name="reason"
          required
          value={reason}
          onChange={(e) => {
            setReason(e.target.value as ReviewRejectionReason);
            setMissing(false);
          }}
          data-reject-reason
        >
          <option value="" disabled>
            —
          </option>
          {REVIEW_REJECTION_REASONS.map((r) => (
            <option key={r} value={r}>
              {t(`rejection.reasons.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">{t('rejection.noteLabel')}</span>
        <textarea
          name="note"
          rows={3}
          maxLength={REVIEW_NOTE_MAX}
          value={note}
          required={reason === 'OTHER'}
          aria-invalid={missing || undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            setNote(e.target.value);
            setMissing(false);
          }}
          data-reject-note
        />
        <span className="field-hint" id={`${id}-hint`}>
          {t('rejection.noteHint')}
        </span>
      </label>
      {missing && (
        <p className="auth-error" role="alert">
          {t('rejection.noteNeeded')}
        </p>
      )}
      <div className="review-actions">
        <button type="submit" className="button danger" disabled={busy || !reason} data-reject-confirm>
          {t('rejection.confirm')}
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={onCancel}>
          {t('rejection.cancel')}
        </button>
      </div>
    </form>
  );
}
