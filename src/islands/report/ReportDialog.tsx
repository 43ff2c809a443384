import { useEffect, useRef, useState, type FormEvent } from 'react';
import { call } from '../../lib/api/client.ts';
import {
  REPORT_REASONS,
  REPORT_TEXT_MAX,
  type ReportReason,
  type ReportTargetType,
} from '../../lib/api/contracts/moderation.constants.ts';
import { serverMessage } from '../../lib/api/http.ts';
import { showToast } from '../../lib/stores/toast.ts';
import './report.css';

export interface ReportTarget {
  type: ReportTargetType;
  id: number;
  time?: number;
}

interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  /** What to report; the dialog is open while one is given. */
  target: ReportTarget | null;
  onClose: () => void;
}

/** The small report dialog: PeerTube's reasons, an optional word for staff, sent once (a second report of the same item is refused with a message). */
export default function ReportDialog({ t, target, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState<ReportReason>('spam');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (target && !node.open) {
      setReason('spam');
      setText('');
      setError('');
      node.showModal();
    }
    if (!target && node.open) node.close();
  }, [target]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    setBusy(true);
    setError('');
    try {
      await call('POST report/create', {
        targetType: target.type,
        targetId: target.id,
        reason,
        text,
        ...(target.time === undefined ? {} : { time: target.time }),
      });
      showToast({ message: t('moderation.report.sent'), severity: 'success' });
      onClose();
    } catch (failure) {
      setError(serverMessage(failure) ?? t('moderation.report.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a press on the backdrop closes it; Esc closes the dialog natively
    <dialog
      ref={dialog}
      className="report-dialog"
      aria-labelledby="report-dialog-title"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
      data-report-dialog
    >
      <form className="report-dialog-card" onSubmit={send}>
        <h2 id="report-dialog-title">
          {target ? t('moderation.report.title', { target: t(`moderation.targets.${target.type}`) }) : ''}
        </h2>
        <fieldset>
          <legend>{t('moderation.report.reason')}</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r} className="report-reason">
              <input
                type="radio"
                name="report-reason"
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
                data-report-reason={r}
              />
              {t(`moderation.reasons.${r}`)}
            </label>
          ))}
        </fieldset>
        <label className="report-text">
          {t('moderation.report.details')}
          <textarea
            value={text}
            maxLength={REPORT_TEXT_MAX}
            rows={3}
            onChange={(event) => setText(event.target.value)}
            data-report-text
          />
        </label>
        {error && (
          <p className="auth-error" role="alert">
            {error}
          </p>
        )}
        <div className="report-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            {t('moderation.report.cancel')}
          </button>
          <button type="submit" className="button" disabled={busy} data-report-send>
            {t('moderation.report.send')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
