/**
 * Pages rendered on demand, kept in the process for guests (issue 30, decision 0022).
 *
 * A page costs 25-35 times a static file to render. Guests all see the same page, and every page
 * already says how long a shared cache may keep it (`public, s-maxage=…, stale-while-revalidate=…`):
 * this is that shared cache, in the process, for a site with no CDN in front or a CDN missing
 * everything at once when a link goes viral. What it keeps and for how long is decided by the
 * page's own Cache-Control; `private`, `no-store`, a cookie set by the page, `Vary: *` or a
 * status other than 200 keep it out.
 *
 * - Key: the origin and Host asked for, the rendered path and query, the encoding sent (bodies are kept compressed, as sent),
 *   whether the visitor is a crawler, and the values of the request headers the page names in
 *   its Vary (Cookie aside: only requests without a session reach the cache).
 * - One render for concurrent misses: the first request renders, the others wait for it.
 * - stale-while-revalidate: once past s-maxage, the next request renders afresh while others
 *   are still answered from the old copy; past the stale window, it is a miss.
 * - Bounded: least recently used pages go first when the bodies pass `maxBytes`.
 * - Forgotten whole by `clear()`, which the site's cache notices call (an edit, a review), so
 *   a change shows in every process as soon as the notice arrives. A render that began before
 *   a clear is not kept.
 */
import type { OutgoingHttpHeaders } from 'node:http';

export interface CapturedPage {
  status: number;
  /** As sent, Set-Cookie excluded. */
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

interface Entry extends CapturedPage {
  key: string;
  storedAt: number;
  freshMs: number;
  staleMs: number;
  bytes: number;
}

export type PageCacheAnswer =
  /** `stale`: past s-maxage, answered while another request renders it afresh. */
  | { kind: 'hit'; page: CapturedPage; ageS: number; stale: boolean }
  /** Render it: `done` keeps the result (or not) and hands it to whoever waited. */
  | { kind: 'render'; done: (page: CapturedPage | null) => void; revalidating: boolean }
  /** Another request is rendering the same page: ask again once it is done (it may vary on what this request sends). */
  | { kind: 'wait'; done: Promise<void> };

export interface PageRequest {
  /** The public origin and Host it was asked under, and the path after the navigation rules (the locale's page) with the query. */
  target: string;
  encoding: string | null;
  crawler: boolean;
  header: (name: string) => string | undefined;
}

/** Only whole pages: a 404 now may be a page in a moment (a new member), and nothing announces that. */
export const KEPT_STATUS = new Set([200]);
/** How many pages' Vary lists are remembered (only pages that vary on something, such as the embed, have one). */
const MAX_VARYING_PAGES = 10_000;
/** Request headers that never split the cache: the encoding is in the key, and only guests are served. */
const VARY_IN_KEY_ALREADY = new Set(['accept-encoding', 'cookie']);

/** The shared-cache lifetimes a page allows, or null when shared caches may not keep it. */
export function sharedLifetime(cacheControl: string | undefined): { freshMs: number; staleMs: number } | null {
  if (!cacheControl) return null;
  const directives = new Map<string, string>();
  for (const part of cacheControl.toLowerCase().split(',')) {
    const [name, value = ''] = part.trim().split('=');
    directives.set(name.trim(), value.trim().replace(/^"|"$/g, ''));
  }
  if (!directives.has('public') || ['private', 'no-store', 'no-cache'].some((d) => directives.has(d))) return null;
  const seconds = (name: string) => {
    const value = Number(directives.get(name));
    return Number.isFinite(value) && value > 0 ? value * 1000 : 0;
  };
  const freshMs = seconds('s-maxage') || seconds('max-age');
  return freshMs ? { freshMs, staleMs: seconds('stale-while-revalidate') } : null;
}

const headerValue = (headers: OutgoingHttpHeaders, name: string) => {
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  const value = found === undefined ? undefined : headers[found];
  return value === undefined ? undefined : String(value);
};

export function createPageCache(options: { maxBytes: number; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const maxEntryBytes = Math.max(1, Math.floor(options.maxBytes / 8));
  /** In use order: the least recently used first. */
  const entries = new Map<string, Entry>();
  /** Renders in flight, by key, with the requests waiting for them. */
  const inFlight = new Map<string, { promise: Promise<void>; settle: () => void }>();
  /** The request headers a page varies on, learned from its first render, by base key. */
  const varyNames = new Map<string, string[]>();
  let bytes = 0;
  let generation = 0;
  const stats = { hits: 0, stale: 0, renders: 0, waits: 0, stored: 0, evicted: 0, cleared: 0 };

  const baseKeyOf = (request: PageRequest) =>
    `${request.encoding ?? 'identity'} ${request.crawler ? 'bot' : 'person'} ${request.target}`;
  const keyOf = (request: PageRequest, base: string) => {
    const names = varyNames.get(base);
    return names?.length ? `${base}\n${names.map((name) => `${name}:${request.header(name) ?? ''}`).join('\n')}` : base;
  };

  function remove(entry: Entry): void {
    entries.delete(entry.key);
    bytes -= entry.bytes;
  }

  function keep(key: string, page: CapturedPage, lifetime: { freshMs: number; staleMs: number }): void {
    const size = page.body.length + 1024;
    if (size > maxEntryBytes) return;
    const old = entries.get(key);
    if (old) remove(old);
    entries.set(key, { ...page, key, storedAt: now(), ...lifetime, bytes: size });
    bytes += size;
    stats.stored++;
    for (const oldest of entries.values()) {
      if (bytes <= options.maxBytes) break;
      remove(oldest);
      stats.evicted++;
    }
  }

  return {
    /** What to do with a guest's request for a rendered page. */
    answer(request: PageRequest): PageCacheAnswer {
      const base = baseKeyOf(request);
      const key = keyOf(request, base);
      const entry = entries.get(key);
      const age = entry ? now() - entry.storedAt : 0;
      if (entry && age <= entry.freshMs + entry.staleMs) {
        entries.delete(key);
        entries.set(key, entry);
        if (age <= entry.freshMs || inFlight.has(key)) {
          if (age <= entry.freshMs) stats.hits++;
          else stats.stale++;
          return { kind: 'hit', page: entry, ageS: Math.floor(age / 1000), stale: age > entry.freshMs };
        }
      } else if (entry) {
        remove(entry);
      }
      const pending = inFlight.get(key);
      if (pending) {
        stats.waits++;
        return { kind: 'wait', done: pending.promise };
      }
      let settle!: () => void;
      const promise = new Promise<void>((resolve) => (settle = resolve));
      inFlight.set(key, { promise, settle });
      stats.renders++;
      const startedIn = generation;
      return {
        kind: 'render',
        revalidating: !!entry,
        done(page) {
          inFlight.delete(key);
          settle();
          const lifetime =
            page && KEPT_STATUS.has(page.status) ? sharedLifetime(headerValue(page.headers, 'cache-control')) : null;
          const vary = page
            ? (headerValue(page.headers, 'vary') ?? '')
                .toLowerCase()
                .split(',')
                .map((name) => name.trim())
                .filter(Boolean)
            : [];
          if (!page || !lifetime || vary.includes('*') || startedIn !== generation) {
            // A page that may no longer be kept is not answered from its old copy either.
            const old = entries.get(key);
            if (old && startedIn === generation) remove(old);
            return;
          }
          const names = vary.filter((name) => !VARY_IN_KEY_ALREADY.has(name)).sort();
          if (!names.length) varyNames.delete(base);
          else if (varyNames.get(base)?.join() !== names.join()) {
            // Learned again on the next render when forgotten: bounded like the pages (random queries must not grow it).
            if (varyNames.size >= MAX_VARYING_PAGES) varyNames.clear();
            varyNames.set(base, names);
          }
          keep(keyOf(request, base), page, lifetime);
        },
      };
    },

    /** Forgets every page (and lets no render that began before keep its result). */
    clear(): void {
      generation++;
      entries.clear();
      varyNames.clear();
      bytes = 0;
      stats.cleared++;
    },

    get size() {
      return { entries: entries.size, bytes };
    },
    stats,
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
