/**
 * What the service worker does with each request, as pure decisions (tested without a worker):
 * which cache strategy, and which offline page a failed navigation gets.
 */
import { LOCALES, splitLocale, localizePath, type Locale } from '../i18n/locales.ts';

export const CACHE_NAMES = {
  pages: 'kiraboshi-pages',
  api: 'kiraboshi-api',
  assets: 'kiraboshi-assets',
  locale: 'kiraboshi-locale',
  writes: 'kiraboshi-writes',
} as const;
/** A page or an API answer slower than this comes from the cache when one is there. */
export const NETWORK_TIMEOUT_SECONDS = 6;
export const OFFLINE_ROUTE = '/offline';

export type Strategy = 'keepalive' | 'page' | 'api' | 'asset' | 'messages' | 'network';

/** `accept`: the request's Accept header ('' when it has none). */
interface RequestFacts {
  method: string;
  url: URL;
  mode: string;
  keepalive: boolean;
  sameOrigin: boolean;
  accept: string;
}

export function strategyFor({ method, url, mode, keepalive, sameOrigin, accept }: RequestFacts): Strategy {
  // A request meant to outlive its page (the player's last history write) is sent by the worker itself.
  if (keepalive) return 'keepalive';
  if (method !== 'GET' || !sameOrigin) return 'network';
  // An event stream (the bell's, the player's live danmaku) never ends: fetched and kept by the
  // worker, its body was read into the cache forever, the connection outlived the page that asked
  // for it, and after a few pages the browser's six connections to the site were all such
  // streams, so every later request waited without end (issue 26). The page's own fetch closes
  // with the page.
  if (accept.includes('text/event-stream')) return 'network';
  const path = url.pathname;
  if (mode === 'navigate') return 'page';
  if (path.startsWith('/_astro/')) return 'asset';
  if (path.startsWith('/_i18n/')) return 'messages';
  // Uploads and media are never kept: large, private or streamed.
  if (path.startsWith('/api/video/tus') || path.startsWith('/media/')) return 'network';
  if (path.startsWith('/api/')) return 'api';
  return 'network';
}

/**
 * How long Chromium serves a page preloaded with `<link rel="prefetch">` (src/lib/shell/prefetch.ts)
 * without asking the server again, whatever its Cache-Control says.
 */
export const PREFETCH_REUSE_MS = 5 * 60_000;

/**
 * Calls the spec makes with POST that only read (every page's shell asks for the member's own
 * account and settings): they change nothing, so they must not turn preloads off. The route table
 * is checked against this list in tests/unit/offline-rules.test.ts.
 */
export const READS_SENT_AS_POST: readonly string[] = ['user/self', 'user/settings'];

/** A request that changes something on the site: pages preloaded before it may no longer be true. */
export function isSiteWrite({ method, sameOrigin, url }: Pick<RequestFacts, 'method' | 'sameOrigin' | 'url'>): boolean {
  if (!sameOrigin || method === 'GET' || method === 'HEAD' || !url.pathname.startsWith('/api/')) return false;
  return !READS_SENT_AS_POST.includes(url.pathname.slice('/api/'.length));
}

/**
 * Whether a navigation must ask the server instead of taking a preloaded copy: a member who edits
 * their profile and then opens their page (preloaded a moment before, as the pointer passed the
 * link) must see the edit. Only in the preload window after a write; otherwise preloads stand.
 */
export function navigationSkipsPreload(lastWriteAt: number, now: number): boolean {
  return lastWriteAt > 0 && now - lastWriteAt < PREFETCH_REUSE_MS;
}

/** The locale of a page address, by its prefix (zhs has none). */
export function localeOfPath(pathname: string): Locale {
  return splitLocale(pathname).locale;
}

/** The offline page in the locale of the page that could not load. */
export function offlinePageFor(pathname: string): string {
  return localizePath(OFFLINE_ROUTE, localeOfPath(pathname));
}

/** What a page asks the worker to keep for its locale: the messages and the offline page. */
export function localeShellUrls(locale: Locale): string[] {
  if (!LOCALES.includes(locale)) return [];
  return [`/_i18n/${locale}/messages.json`, localizePath(OFFLINE_ROUTE, locale)];
}
