/**
 * The browser's HTTP helper (SPEC §7): every call sends credentials, has a 30000 ms timeout
 * that aborts it, and a non-OK response raises 'HTTP error! Status: {status}' (also logged: as an
 * error, or quietly for a refusal with an API error code, which the caller handles).
 */
export const REQUEST_TIMEOUT_MS = 30_000;
import { CLIENT_LANGUAGE_HEADER } from './headers.ts';
export { CLIENT_LANGUAGE_HEADER };
export const UPLOAD_TIMEOUT_MS = 60_000;

export class HttpError extends Error {
  readonly status: number;
  /** The parsed error body ({ success, code, message }) when the server sent JSON. */
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`HTTP error! Status: ${status}`);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }
}

/** The server's message of a refused call (in the caller's language), when it sent one. */
export const serverMessage = (error: unknown): string | undefined =>
  error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;

/** After how many seconds a refused call (429, 503) may be tried again, when the server said. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof HttpError)) return undefined;
  const seconds = (error.body as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

/**
 * An answer the caller handles: a refusal below 500 with the API's error code (a wrong password,
 * a name taken, a limit reached). Logged quietly; 5xx and answers without a code are errors.
 */
const isHandledRefusal = (status: number, body: unknown) =>
  status < 500 &&
  typeof body === 'object' &&
  body !== null &&
  (body as { success?: unknown }).success === false &&
  typeof (body as { code?: unknown }).code === 'string';

export class TimeoutError extends Error {
  constructor(url: string, ms: number) {
    super(`Request timed out after ${ms} ms: ${url}`);
    this.name = 'TimeoutError';
  }
}

export type Query = Record<string, string | number | boolean | undefined | null | readonly (string | number)[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  /** JSON-encoded unless it is FormData. */
  body?: unknown;
  headers?: HeadersInit;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Backend base address; the configured one by default. */
  base?: string;
  fetchImpl?: typeof fetch;
  /** Let the request outlive the page (a last write on pagehide). */
  keepalive?: boolean;
}

let defaultBase = '/api/';
/** Set once at start from the runtime configuration. */
export function setApiBase(base: string): void {
  defaultBase = base.endsWith('/') ? base : `${base}/`;
}

/** The configured API's address of a path with its query. */
export const apiUrl = (path: string, query?: Query): string => buildUrl(defaultBase, path, query);

export function buildUrl(base: string, path: string, query?: Query): string {
  const url = base + path.replace(/^\/+/, '');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, String(v)));
    else params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

/** Fired on window when a call failed for the server's or the network's reason, not the caller's. */
export const REQUEST_FAILED_EVENT = 'kiraboshi:request-failed';

function announceFailure(): void {
  if (typeof dispatchEvent === 'function' && typeof CustomEvent === 'function')
    dispatchEvent(new CustomEvent(REQUEST_FAILED_EVENT));
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const {
    method = 'GET',
    query,
    body,
    headers,
    timeoutMs = REQUEST_TIMEOUT_MS,
    signal,
    base = defaultBase,
    fetchImpl = fetch,
    keepalive,
  } = options;
  const url = buildUrl(base, path, query);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError(url, timeoutMs)), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  // The server answers messages in the page's language, which the visitor chose.
  const pageLocale = typeof document !== 'undefined' ? document.documentElement.dataset.locale : undefined;
  const languageHeader: Record<string, string> = pageLocale ? { [CLIENT_LANGUAGE_HEADER]: pageLocale } : {};
  try {
    const response = await fetchImpl(url, {
      method,
      credentials: 'include',
      headers:
        body === undefined || isForm
          ? { ...languageHeader, ...headers }
          : { 'Content-Type': 'application/json', ...languageHeader, ...headers },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: controller.signal,
      ...(keepalive ? { keepalive } : {}),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!response.ok) {
      const error = new HttpError(response.status, parsed);
      if (response.status >= 500) announceFailure();
      if (isHandledRefusal(response.status, parsed))
        console.debug(error.message, url, (parsed as { code: string }).code);
      else console.error(error.message, url);
      throw error;
    }
    return parsed as T;
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof TimeoutError) {
      announceFailure();
      throw controller.signal.reason;
    }
    // The network failed the call (the caller's own abort is no failure).
    if (!(error instanceof HttpError) && !signal?.aborted) announceFailure();
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
