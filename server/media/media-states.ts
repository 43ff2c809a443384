import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** What media-access.ts read of one media item's state, and when. */
export type MediaState = { at: number; row: Promise<{ uid: number; status: string | null } | undefined> };
const statesByDatabase = new WeakMap<Kysely<Database>, Map<string, MediaState>>();

/** The media states this process has read over one database. */
export function mediaStatesOf(db: Kysely<Database>): Map<string, MediaState> {
  let states = statesByDatabase.get(db);
  if (!states) statesByDatabase.set(db, (states = new Map()));
  return states;
}

/** Forgets them, when a video is reviewed or deleted here (another process's change shows within a second). */
export function forgetMediaAccess(db: Kysely<Database>): void {
  statesByDatabase.get(db)?.clear();
}
