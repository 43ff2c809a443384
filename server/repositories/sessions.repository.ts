/**
 * The sessions table: only a hash of each token is stored. The session behind a token is kept
 * SESSION_KEPT_MS in the server's RepositoryCaches (docs/decisions/0024): every member request looks it up, and a
 * member's pages and bell ask several times a second. Logging out, revoking a member's sessions
 * and changing their roles forget their entries here at once and in every other process
 * through the cache notices (`forgetMember` once a transaction has committed); a change made
 * elsewhere (SQL by hand, the CLI on its own connection) shows within that time.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, SessionsTable } from '../db/schema.ts';
import { announceForgotten } from '../events/cache-invalidation.ts';
import { PREPARED } from '../db/prepared.ts';
import { batched } from '../db/batches.ts';
import type { KeptSession, KeptSessionEntry, RepositoryCaches } from './caches.ts';

const SESSION_KEPT_MS = 1000;
const SESSIONS_KEPT = 10_000;
/** At most this many sessions looked up in one statement. */
const SESSIONS_PER_LOOKUP = 500;

type SessionRow = { uid: number; roles: string[]; expires_at: Date };

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
  /**
   * The lookups of the moment in one statement (server/db/batches.ts, docs/decisions/0040): at a
   * hot item's 1000 likes a second, each from a member whose session this process has not kept,
   * one statement per request was half of what the requests cost the database and the server.
   * Prepared: nearly every member request runs it.
   */
  const lookUpBatched = batched<{ uid: number; tokenHash: string }, SessionRow | undefined>({
    max: SESSIONS_PER_LOOKUP,
    run: async (wanted) => {
      const { rows } = await sql<SessionRow & { n: string | number }>`${PREPARED}
        SELECT w.n, users.uid, users.roles, sessions.expires_at
        FROM unnest(${sql.val(wanted.map((w) => w.tokenHash))}::text[], ${sql.val(wanted.map((w) => w.uid))}::bigint[])
          WITH ORDINALITY AS w(token_hash, uid, n)
        JOIN sessions ON sessions.token_hash = w.token_hash AND sessions.uid = w.uid
        JOIN users ON users.uid = sessions.uid
        WHERE sessions.expires_at > ${new Date()}`.execute(db);
      const found = new Map(rows.map((row) => [Number(row.n), row]));
      return wanted.map((_, i) => found.get(i + 1));
    },
  });
  const lookUp = (uid: number, tokenHash: string) => lookUpBatched('', { uid, tokenHash });
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
