/**
 * The sessions table: only a hash of each token is stored. The session behind a token is kept
 * SESSION_KEPT_MS in the server's RepositoryCaches (docs/decisions/0024): every member request looks it up, and a
 * member's pages and bell ask several times a second. Logging out, revoking a member's sessions
 * and changing their roles forget their entries here at once and in every other process
 * through the cache notices (`forgetMember` once a transaction has committed); a change made
 * elsewhere (SQL by hand, the CLI on its own connection) shows within that time.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../db/schema.ts';
import { announceForgotten } from '../events/cache-invalidation.ts';
import { PREPARED } from '../db/prepared.ts';
import type { KeptSession, KeptSessionEntry, RepositoryCaches } from './caches.ts';

const SESSION_KEPT_MS = 1000;
const SESSIONS_KEPT = 10_000;

/** Forgets what this process kept of a member's sessions (a change here, or a notice from another process). */
export function forgetSessionsLocally(caches: Pick<RepositoryCaches, 'sessions'>, uid: number): void {
  for (const [key, entry] of caches.sessions) if (entry.uid === uid) caches.sessions.delete(key);
}

/**
 * `caches` absent (a repository made outside the composition root): nothing is kept, every
 * lookup reads the database.
 */
export function createSessionsRepository(
  db: Kysely<Database>,
  caches?: Pick<RepositoryCaches, 'sessions' | 'notices'>,
) {
  /** Forgets a member's sessions here and has every other process forget them. */
  const forgetSessions = (uid: number) => {
    if (!caches) return;
    forgetSessionsLocally(caches, uid);
    announceForgotten(caches.notices, { cache: 'session', uid });
  };
  const lookUp = (uid: number, tokenHash: string) =>
    // Prepared: nearly every member request runs it.
    db
      .selectFrom('sessions')
      .modifyFront(PREPARED)
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
      const gone = await db
        .deleteFrom('sessions')
        .where('token_hash', '=', tokenHash)
        .returning('uid')
        .executeTakeFirst();
      if (gone) forgetSessions(gone.uid);
    },

    /** Every session of a user, except the one with `keptTokenHash` when given. */
    async deleteAllOfUser(uid: number, keptTokenHash?: string): Promise<void> {
      let query = db.deleteFrom('sessions').where('uid', '=', uid);
      if (keptTokenHash) query = query.where('token_hash', '!=', keptTokenHash);
      await query.execute();
      forgetSessions(uid);
    },

    /**
     * Forgets the member's kept sessions here and in every process, once a change to their roles
     * or sessions has committed (forgotten before the commit, a lookup in between could keep the old answer).
     */
    forgetMember: forgetSessions,

    /**
     * The user of an unexpired session with this token hash, when it is this uid's; read at most
     * once a second per session (never past its expiry). A token that names no session is not
     * kept, so guessed tokens cannot crowd out real ones.
     */
    userOfLiveSession(uid: number, tokenHash: string): Promise<KeptSession | undefined> {
      if (!caches) return lookUp(uid, tokenHash).then((found) => found && { uid: found.uid, roles: found.roles });
      const cache = caches.sessions;
      const key = `${uid}:${tokenHash}`;
      const known = cache.get(key);
      const now = Date.now();
      if (known && now < known.until) return known.row;
      cache.delete(key);
      const entry: KeptSessionEntry = { uid, until: now + SESSION_KEPT_MS, row: Promise.resolve(undefined) };
      const row = lookUp(uid, tokenHash).then((found) => {
        if (!found) return undefined;
        entry.until = Math.min(entry.until, new Date(found.expires_at).getTime());
        return { uid: found.uid, roles: found.roles };
      });
      entry.row = row;
      cache.set(key, entry);
      row.then(
        (found) => {
          if (!found && cache.get(key) === entry) cache.delete(key);
        },
        () => {
          if (cache.get(key) === entry) cache.delete(key);
        },
      );
      if (cache.size > SESSIONS_KEPT) cache.delete(cache.keys().next().value!);
      return row;
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
