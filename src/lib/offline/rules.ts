/**
 * What the service worker does with each request, as pure decisions (tested without a worker):
 * which cache strategy, and which offline page a failed navigation gets.
 */
import { LOCALES, splitLocale, localizePath, type Locale } from '../i18n/locales.ts';

export const CACHE_NAMES = { pages: 'kiraboshi-pages', api: 'kiraboshi-api', assets: 'kiraboshi-assets', locale: 'kiraboshi-locale' } as const;
/** A page or an API answer slower than this comes from the cache when one is there. */
export const NETWORK_TIMEOUT_SECONDS = 6;
export const OFFLINE_ROUTE = '/offline';

export type Strategy = 'keepalive' | 'page' | 'api' | 'asset' | 'messages' | 'network';

interface RequestFacts { method: string; url: URL; mode: string; keepalive: boolean; sameOrigin: boolean }

export function strategyFor({ method, url, mode, keepalive, sameOrigin }: RequestFacts): Strategy {
  // A request meant to outlive its page (the player's last history write) is sent by the worker itself.
  if (keepalive) return 'keepalive';
  if (method !== 'GET' || !sameOrigin) return 'network';
  const path = url.pathname;
  if (mode === 'navigate') return 'page';
  if (path.startsWith('/_astro/')) return 'asset';
  if (path.startsWith('/_i18n/')) return 'messages';
  // Uploads and media are never kept: large, private or streamed.
  if (path.startsWith('/api/video/tus') || path.startsWith('/media/')) return 'network';
  if (path.startsWith('/api/')) return 'api';
  return 'network';
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
