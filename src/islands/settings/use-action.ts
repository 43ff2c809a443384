import { useState } from 'react';
import { HttpError } from '../../lib/api/http.ts';

/** A message meant for the visitor, raised by a form's own checks before any call. */
export class FormError extends Error {}

/**
 * Runs a form action with a busy flag. The error shown is the server's message (already in the
 * page's language), a FormError's message, or the generic message for anything else (network).
 */
export function useAction(fallbackMessage: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await action();
    } catch (e) {
      const serverMessage = e instanceof HttpError ? (e.body as { message?: string } | undefined)?.message : undefined;
      setError(serverMessage ?? (e instanceof FormError ? e.message : fallbackMessage));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}
