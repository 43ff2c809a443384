/**
 * What one server process cached and another changed: the danmaku answers of a video, a video's
 * basics (status, uploader, duration) and its media's access, the pages kept for guests
 * (server/site/page-cache.ts: any video notice, or a `pages` notice for a change elsewhere that
 * guests' pages show: a track, a photo, a profile, a collection), and a member's kept sessions
 * (logout, revocation, new roles). The process that changes one
 * forgets its own copy at once and announces it on the event bus; every other process of the
 * site forgets its copy when the notice arrives (LISTEN/NOTIFY or Redis: milliseconds). The
 * caches' own revalidation (about a second) stays as the backstop for a notice lost while a
 * listener reconnects.
 *
 * The announcer is part of the server's caches (server/repositories/caches.ts), built by the
 * composition root, so repositories and services announce without holding the bus.
 */
import type { Logger } from '../logger.ts';
import type { EventBus } from './bus.ts';

export type CacheNotice =
  | { cache: 'video' | 'danmaku'; videoId: number }
  | { cache: 'pages' }
  | { cache: 'session'; uid: number };
export const CACHE_CHANNEL = 'cache.forget';

/** Where one server's notices go: set by connectCacheInvalidation, null until then. */
export interface CacheNotices {
  send: ((notice: CacheNotice) => void) | null;
}

/** Tells the other processes to forget what they cached (a no-op before connectCacheInvalidation). */
export function announceForgotten(notices: CacheNotices, notice: CacheNotice): void {
  notices.send?.(notice);
}

const isId = (id: unknown) => Number.isSafeInteger(id) && (id as number) > 0;
const isNotice = (value: unknown): value is CacheNotice => {
  const notice = value as Record<string, unknown> | null;
  if (!notice || typeof notice !== 'object') return false;
  if (notice.cache === 'pages') return true;
  if (notice.cache === 'session') return isId(notice.uid);
  return (notice.cache === 'video' || notice.cache === 'danmaku') && isId(notice.videoId);
};

/**
 * Joins this process to the site's cache notices: what it announces goes out on the bus, and
 * what arrives is forgotten with `forget` (which must be cheap and idempotent: a process hears
 * its own notices too). Answers the way to leave.
 */
export async function connectCacheInvalidation(options: {
  notices: CacheNotices;
  bus: EventBus;
  logger: Logger;
  forget: (notice: CacheNotice) => void;
}): Promise<() => Promise<void>> {
  const { notices, bus, logger, forget } = options;
  const unsubscribe = await bus.subscribe(CACHE_CHANNEL, (payload) => {
    let notice: unknown;
    try {
      notice = JSON.parse(payload);
    } catch {
      notice = null;
    }
    if (isNotice(notice)) forget(notice);
    else logger.warn('ignored a malformed cache notice', { payload: payload.slice(0, 200) });
  });
  notices.send = (notice) => {
    // This process forgets at once, so its own next answer is fresh without waiting for the bus.
    forget(notice);
    bus
      .publish(CACHE_CHANNEL, JSON.stringify(notice))
      .catch((error) => logger.warn('announcing a cache change failed', { err: error, ...notice }));
  };
  return async () => {
    notices.send = null;
    await unsubscribe();
  };
}
