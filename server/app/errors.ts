import { ERROR_MESSAGE_KEY, ERROR_STATUS, type ApiErrorBody } from '../../src/lib/api/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { localMessage } from '../http/request-locale.ts';
import { outageOf } from '../http/outage.ts';

export { outageOf };

/**
 * The one place where an error becomes an HTTP answer: the code's status, Retry-After (and
 * `retryAfterSeconds` in the body) when the call may be tried again, and `{ success:false, code, message }` in the caller's language.
 * Anything that is not a DomainError is an INTERNAL 500 (and logged by the caller).
 */
export function errorAnswer(
  error: unknown,
  headers: Headers,
  requestId?: string,
): { status: number; body: ApiErrorBody; headers: Record<string, string> } {
  const known = error instanceof DomainError ? error : outageOf(error);
  const code = known?.code ?? 'INTERNAL';
  const body: ApiErrorBody = {
    ...known?.extra,
    success: false,
    code,
    message: localMessage(headers, ERROR_MESSAGE_KEY[code]),
    requestId,
  };
  if (known?.issues) body.issues = known.issues;
  const extraHeaders: Record<string, string> = { 'Cache-Control': 'no-store' };
  // Every refusal that can be tried again later says when, as the header and in the body (for the countdown the site shows).
  if (known?.retryAfterSeconds !== undefined) {
    extraHeaders['Retry-After'] = String(known.retryAfterSeconds);
    body.retryAfterSeconds = known.retryAfterSeconds;
  }
  // The refused body was never read: the connection cannot carry another request after it.
  if (code === 'PAYLOAD_TOO_LARGE') extraHeaders.Connection = 'close';
  return { status: ERROR_STATUS[code], body, headers: extraHeaders };
}
