import { useEffect, useState } from 'react';
import { HttpError } from '../../lib/api/http.ts';
import type { ApiErrorBody } from '../../lib/api/errors.ts';

/** A message meant for the visitor, raised by a form's own checks before any call. */
export class FormError extends Error {}

/**
 * Runs a form action with a busy flag. The error shown is the server's message (already in the
 * page's language), a FormError's message, or the generic message for anything else (network).
 * The form is busy until the island has hydrated too: a form sent before then would go as a
 * plain page load and lose what was typed (the server rendered it busy, so hydration matches).
 */
export function useAction(fallbackMessage: string) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await action();
    } catch (e) {
      const serverMessage = e instanceof HttpError ? (e.body as Partial<ApiErrorBody> | undefined)?.message : undefined;
      setError(serverMessage ?? (e instanceof FormError ? e.message : fallbackMessage));
    } finally {
      setBusy(false);
    }
  };
  // `ready`: the island has hydrated, so its fields may take typing (see FormFields).
  return { busy: busy || !hydrated, ready: hydrated, error, run, setError };
}
