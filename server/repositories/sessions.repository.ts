/**
 * The sessions table: only a hash of each token is stored. The session behind a token is kept
 * SESSION_KEPT_MS per database (docs/decisions/0024): every member request looks it up, and a
 * member's pages and bell ask several times a second. Logging out, revoking a member's sessions
 * and changing their roles forget their entries here at once and in every other process
 * through the cache notices (`forgetMember` once a transaction has committed); a change made
 * elsewhere (SQL by hand, the CLI on its own connection) shows within that time.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../db/schema.ts';
import { announceForgotten } from '../events/cache-invalidation.ts';

const SESSION_KEPT_MS = 1000;
const SESSIONS_KEPT = 10_000;
type LiveSession = { uid: number; roles: string[] };
type Entry = { uid: number; until: number; row: Promise<LiveSession | undefined> };
const sessionCaches = new WeakMap<Kysely<Database>, Map<string, Entry>>();

function sessionCache(db: Kysely<Database>) {
  let cache = sessionCaches.get(db);
  if (!cache) sessionCaches.set(db, (cache = new Map()));
  return cache;
}

/** Forgets what this process kept of a member's sessions (a change here, or a notice from another process). */
export function forgetSessionsLocally(db: Kysely<Database>, uid: number): void {
  const cache = sessionCache(db);
  for (const [key, entry] of cache) if (entry.uid === uid) cache.delete(key);
}

/** Forgets a member's sessions here and has every other process forget them. */
export function forgetSessions(db: Kysely<Database>, uid: number): void {
  forgetSessionsLocally(db, uid);
  announceForgotten(db, { cache: 'session', uid });
}

export function createSessionsRepository(db: Kysely<Database>) {
  const lookUp = (uid: number, tokenHash: string) =>
    db.selectFrom('sessions')
      .innerJoin('users', 'users.uid', 'sessions.uid')
      .select(['users.uid', 'users.roles', 'sessions.expires_at'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.uid', '=', uid)
      .where('sessions.expires_at', '>', new Date())
      .executeTakeFirst();
  return {
    async insert(session: Insertable<SessionsTable>): Promise<void> {
      await db.insertInto('sessions').values(session).execute();
    },

    async deleteByTokenHash(tokenHash: string): Promise<void> {
      const gone = await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).returning('uid').executeTakeFirst();
      if (gone) forgetSessions(db, gone.uid);
    },

    /** Every session of a user, except the one with `keptTokenHash` when given. */
    async deleteAllOfUser(uid: number, keptTokenHash?: string): Promise<void> {
      let query = db.deleteFrom('sessions').where('uid', '=', uid);
      if (keptTokenHash) query = query.where('token_hash', '!=', keptTokenHash);
      await query.execute();
      forgetSessions(db, uid);
    },

    /**
     * Forgets the member's kept sessions here and in every process: after a change to their
     * roles or sessions has committed (inside a transaction this repository cannot announce).
     */
    forgetMember: (uid: number) => forgetSessions(db, uid),

    /**
     * The user of an unexpired session with this token hash, when it is this uid's; read at most
     * once a second per session (never past its expiry). A token that names no session is not
     * kept, so guessed tokens cannot crowd out real ones.
     */
    userOfLiveSession(uid: number, tokenHash: string): Promise<LiveSession | undefined> {
      const cache = sessionCache(db);
      const key = `${uid}:${tokenHash}`;
      const known = cache.get(key);
      const now = Date.now();
      if (known && now < known.until) return known.row;
      cache.delete(key);
      const entry: Entry = { uid, until: now + SESSION_KEPT_MS, row: Promise.resolve(undefined) };
      const row = lookUp(uid, tokenHash).then((found) => {
        if (!found) return undefined;
        entry.until = Math.min(entry.until, new Date(found.expires_at).getTime());
        return { uid: found.uid, roles: found.roles };
      });
      entry.row = row;
      cache.set(key, entry);
      row.then((found) => {
        if (!found && cache.get(key) === entry) cache.delete(key);
      }, () => {
        if (cache.get(key) === entry) cache.delete(key);
      });
      if (cache.size > SESSIONS_KEPT) cache.delete(cache.keys().next().value!);
      return row;
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
