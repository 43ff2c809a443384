/// <reference lib="webworker" />
/**
 * Kiraboshi's service worker (built by src/integrations/service-worker.ts with Workbox; see
 * docs/decisions/0008-offline-workbox.md): the shell, the default locale's messages and the
 * offline page are precached; the visitor's own locale's messages and offline page are kept
 * when a page says which it is; pages and API reads go to the network first and fall back to
 * what was kept; hashed assets come from the cache. A page never kept shows the offline page.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import {
  CACHE_NAMES,
  NETWORK_TIMEOUT_SECONDS,
  isSiteWrite,
  localeShellUrls,
  navigationSkipsPreload,
  offlinePageFor,
  strategyFor,
  OFFLINE_ROUTE,
} from '../lib/offline/rules.ts';
import { isLocale } from '../lib/i18n/locales.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const facts = (request: Request, url: URL) => ({
  method: request.method,
  url,
  mode: request.mode,
  keepalive: request.keepalive,
  sameOrigin: url.origin === self.location.origin,
  accept: request.headers.get('accept') ?? '',
});

// When this browser last changed something on the site (from any tab). Kept in a cache as well:
// the browser stops an idle worker, and its memory with it.
const LAST_WRITE_KEY = '/last-write';
let lastWriteAt: number | null = null;
async function noteWrite(): Promise<void> {
  lastWriteAt = Date.now();
  await (await caches.open(CACHE_NAMES.writes)).put(LAST_WRITE_KEY, new Response(String(lastWriteAt)));
}
async function lastWrite(): Promise<number> {
  if (lastWriteAt === null) {
    const kept = await caches.match(LAST_WRITE_KEY, { cacheName: CACHE_NAMES.writes });
    lastWriteAt = kept ? Number(await kept.text()) || 0 : 0;
  }
  return lastWriteAt;
}

// First: the keepalive pass-through must answer before any route does.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (isSiteWrite({ method: request.method, url, sameOrigin: url.origin === self.location.origin }))
    event.waitUntil(noteWrite());
  if (request.keepalive) event.respondWith(fetch(request));
});

/**
 * A page preloaded before a write is served by the browser's cache without a question for a few
 * minutes (rules.ts, PREFETCH_REUSE_MS); in that window a navigation revalidates instead. (A
 * navigation request cannot be copied with new options, so the same address is asked anew, with
 * its headers and without following redirects, which the navigation follows itself.)
 */
const freshAfterWrites = {
  requestWillFetch: async ({ request }: { request: Request }) => {
    if (request.mode !== 'navigate' || !navigationSkipsPreload(await lastWrite(), Date.now())) return request;
    return new Request(request.url, {
      headers: request.headers,
      credentials: 'include',
      redirect: 'manual',
      cache: 'no-cache',
      referrer: request.referrer,
    });
  },
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const okOnly = new CacheableResponsePlugin({ statuses: [200] });

// Pages vary on Cookie and Accept-Language for shared caches; this cache is this browser's own, so
// its copy of a page is the one to show offline whatever headers it was fetched with (the pages
// that were open at install are kept by address alone).
registerRoute(
  ({ request, url }) => strategyFor(facts(request, url)) === 'page',
  new NetworkFirst({
    cacheName: CACHE_NAMES.pages,
    matchOptions: { ignoreVary: true },
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [freshAfterWrites, okOnly, new ExpirationPlugin({ maxEntries: 120, maxAgeSeconds: 30 * 24 * 3600 })],
  }),
);
registerRoute(
  ({ request, url }) => strategyFor(facts(request, url)) === 'api',
  new NetworkFirst({
    cacheName: CACHE_NAMES.api,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 7 * 24 * 3600 })],
  }),
);
registerRoute(
  ({ request, url }) => strategyFor(facts(request, url)) === 'asset',
  new CacheFirst({
    cacheName: CACHE_NAMES.assets,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 300 })],
  }),
);
registerRoute(
  ({ request, url }) => strategyFor(facts(request, url)) === 'messages',
  new StaleWhileRevalidate({
    cacheName: CACHE_NAMES.locale,
    plugins: [okOnly],
  }),
);

/** A navigation that failed with nothing kept: the offline page of its locale (the default one's is precached). */
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== 'navigate' || !url) return Response.error();
  const kept = await caches.match(offlinePageFor(url.pathname), { cacheName: CACHE_NAMES.locale });
  return kept ?? (await matchPrecache(OFFLINE_ROUTE)) ?? Response.error();
});

async function keepLocaleShell(locale: string): Promise<void> {
  if (!isLocale(locale)) return;
  const cache = await caches.open(CACHE_NAMES.locale);
  await Promise.all(
    localeShellUrls(locale).map(async (url) => {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (response.ok) await cache.put(url, response);
    }),
  );
}

/** Pages that were open when this worker took over are kept too (they loaded before it could see them). */
async function keepOpenPages(): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window' });
  const cache = await caches.open(CACHE_NAMES.pages);
  await Promise.all(
    windows.map(async ({ url }) => {
      const target = new URL(url);
      if (target.origin !== self.location.origin || (await cache.match(target.href))) return;
      const response = await fetch(target.href, { credentials: 'same-origin' }).catch(() => null);
      if (response?.ok) await cache.put(target.href, response);
    }),
  );
}

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim().then(keepOpenPages)));

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; locale?: string } | null;
  if (data?.type === 'locale' && data.locale) event.waitUntil(keepLocaleShell(data.locale).then(keepOpenPages));
  // After a logout, nothing of the member's stays readable offline.
  if (data?.type === 'logout')
    event.waitUntil(
      Promise.all([caches.delete(CACHE_NAMES.api), caches.delete(CACHE_NAMES.pages)]).then(() => undefined),
    );
});
