/**
 * What one server process cached and another changed: the danmaku answers of a video, a video's
 * basics (status, uploader, duration) and its media's access, and the pages kept for guests
 * (server/site/page-cache.ts: any video notice, or a `pages` notice for a change elsewhere that
 * guests' pages show: a track, a photo, a profile, a collection). The process that changes one
 * forgets its own copy at once and announces it on the event bus; every other process of the
 * site forgets its copy when the notice arrives (LISTEN/NOTIFY or Redis: milliseconds). The
 * caches' own revalidation (about a second) stays as the backstop for a notice lost while a
 * listener reconnects.
 *
 * The announcer is registered per database, like the caches themselves (several test servers
 * share one Node process), so repositories and services announce without holding the bus.
 */
import type { Logger } from '../logger.ts';
import type { EventBus } from './bus.ts';

export type CacheNotice = { cache: 'video' | 'danmaku'; videoId: number } | { cache: 'pages' };
export const CACHE_CHANNEL = 'cache.forget';

const announcers = new WeakMap<object, (notice: CacheNotice) => void>();

/** Tells the other processes over `database` to forget what they cached (a no-op before connectCacheInvalidation). */
export function announceForgotten(database: object, notice: CacheNotice): void {
  announcers.get(database)?.(notice);
}

const isNotice = (value: unknown): value is CacheNotice => {
  const notice = value as CacheNotice;
  if (notice?.cache === 'pages') return true;
  return !!notice && (notice.cache === 'video' || notice.cache === 'danmaku') && Number.isSafeInteger(notice.videoId) && notice.videoId > 0;
};

/**
 * Joins this process to the site's cache notices: what it announces goes out on the bus, and
 * what arrives is forgotten with `forget` (which must be cheap and idempotent: a process hears
 * its own notices too). Answers the way to leave.
 */
export async function connectCacheInvalidation(options: {
  database: object; bus: EventBus; logger: Logger; forget: (notice: CacheNotice) => void;
}): Promise<() => Promise<void>> {
  const { database, bus, logger, forget } = options;
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
  announcers.set(database, (notice) => {
    // This process forgets at once, so its own next answer is fresh without waiting for the bus.
    forget(notice);
    bus.publish(CACHE_CHANNEL, JSON.stringify(notice)).catch((error) => logger.warn('announcing a cache change failed', { err: error, ...notice }));
  });
  return async () => {
    announcers.delete(database);
    await unsubscribe();
  };
}
