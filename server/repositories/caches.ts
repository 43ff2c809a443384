/**
 * What one server keeps in memory of its database, and where it announces that others must
 * forget theirs. Built once by the composition root (server/main.ts) and handed to the
 * repositories, the media server and the cache notices, so no module keeps a cache of its own:
 * several test servers share one Node process, each with its own set.
 */
import type { CacheNotices } from '../events/cache-invalidation.ts';

export type VideoBasics = { status: 'pending' | 'approved' | 'deleted'; uploader_uid: number; duration_ms: number };

/** What media-access.ts read of one media item's state, and when. */
export type MediaState = { at: number; row: Promise<{ uid: number; status: string | null } | undefined> };

/** A session's lookup kept a second (sessions.repository.ts, docs/decisions/0024). */
export type KeptSession = { uid: number; roles: string[] };
export type KeptSessionEntry = { uid: number; until: number; row: Promise<KeptSession | undefined> };

/** A kept count (videos.repository.ts, `keptCount`): made at `at`; `settled` once it has its number, `recounting` while a newer one is made. */
export type VideoCountEntry = { at: number; n: Promise<number>; settled: boolean; recounting: boolean };

export interface RepositoryCaches {
  /** A video's status, uploader and duration by id (videos.repository.ts, `basics`). */
  videoBasics: Map<number, { at: number; row: Promise<VideoBasics | undefined> }>;
  /** How many approved videos a guest's list holds, by category and uploader (videos.repository.ts, `thumbPage`). */
  videoCounts: Map<string, VideoCountEntry>;
  /** Media items' access states by media id (server/media/media-access.ts). */
  mediaStates: Map<string, MediaState>;
  /** Sessions by uid and token hash (sessions.repository.ts, `userOfLiveSession`). */
  sessions: Map<string, KeptSessionEntry>;
  /** Joined to the event bus by connectCacheInvalidation; silent until then. */
  notices: CacheNotices;
}

export function createRepositoryCaches(): RepositoryCaches {
  return {
    videoBasics: new Map(),
    videoCounts: new Map(),
    mediaStates: new Map(),
    sessions: new Map(),
    notices: { send: null },
  };
}

/** Forgets the media states read so far, when a video, track or photo is reviewed or deleted here (another process's change shows within a second). */
export function forgetMediaAccess(caches: Pick<RepositoryCaches, 'mediaStates'>): void {
  caches.mediaStates.clear();
}
