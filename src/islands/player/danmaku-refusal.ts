import { HttpError, retryAfterOf } from '../../lib/api/http.ts';
import { showToast } from '../../lib/stores/toast.ts';

/**
 * Says why a danmaku was not sent, on the video and the audio player alike: the server's message
 * in the viewer's language (too fast: a warning with the seconds to wait), or `fallback` when
 * the server said nothing (offline).
 */
export function toastSendRefusal(error: unknown, fallback: string): void {
  const message = error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;
  showToast({
    message: message || fallback,
    severity: error instanceof HttpError && error.status === 429 ? 'warning' : 'error',
    retryAfterSeconds: retryAfterOf(error),
  });
}
