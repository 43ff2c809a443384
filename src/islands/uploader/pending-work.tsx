import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** Work a field has begun and not finished (a tag typed, a crop not confirmed, a cover uploading). */
export interface PendingEntry {
  /** Why the form cannot go yet, in the page's language. */
  message: string;
  /** Brings the user to the field that holds it. */
  focus: () => void;
}

type Report = (key: string, entry: PendingEntry | null) => void;
const PendingWorkContext = createContext<Report | null>(null);

/**
 * A form's register of its fields' unfinished work: `check()` before sending answers whether
 * something is pending, and then shows why (`message`, meant for a role="alert" beside the
 * submit button) and focuses the field, so nothing the user entered is silently dropped.
 */
export function usePendingWork() {
  const entries = useRef(new Map<string, PendingEntry>());
  const [message, setMessage] = useState('');
  const report = useCallback<Report>((key, entry) => {
    if (entry) entries.current.set(key, entry);
    else entries.current.delete(key);
    // A reason shown goes once its work is done (or follows the next pending one).
    setMessage((shown) => (shown ? ([...entries.current.values()][0]?.message ?? '') : shown));
  }, []);
  const check = useCallback((): boolean => {
    const first = [...entries.current.values()][0];
    setMessage(first?.message ?? '');
    first?.focus();
    return !!first;
  }, []);
  const Provider = useMemo(
    () =>
      function PendingWorkProvider({ children }: { children: ReactNode }) {
        return <PendingWorkContext.Provider value={report}>{children}</PendingWorkContext.Provider>;
      },
    [report],
  );
  return { check, message, Provider };
}

/** A field reports its unfinished work (null: none) to the form around it, if any. */
export function useReportPending(key: string, entry: PendingEntry | null): void {
  const report = useContext(PendingWorkContext);
  const message = entry?.message ?? null;
  const focus = useRef(entry?.focus);
  focus.current = entry?.focus;
  useEffect(() => {
    if (!report) return;
    report(key, message === null ? null : { message, focus: () => focus.current?.() });
    return () => report(key, null);
  }, [report, key, message]);
}

/** The reason shown beside a form's submit button while pending work holds it back. */
export function PendingNotice({ message }: { message: string }) {
  return message ? (
    <p className="auth-error" role="alert" data-pending-work>
      {message}
    </p>
  ) : null;
}
