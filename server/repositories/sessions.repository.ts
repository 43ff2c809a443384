/** The sessions table: only a hash of each token is stored. */
import type { Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../db/schema.ts';

export function createSessionsRepository(db: Kysely<Database>) {
  return {
    async insert(session: Insertable<SessionsTable>): Promise<void> {
      await db.insertInto('sessions').values(session).execute();
    },

    async deleteByTokenHash(tokenHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },

    /** Every session of a user, except the one with `keptTokenHash` when given. */
    async deleteAllOfUser(uid: number, keptTokenHash?: string): Promise<void> {
      let query = db.deleteFrom('sessions').where('uid', '=', uid);
      if (keptTokenHash) query = query.where('token_hash', '!=', keptTokenHash);
      await query.execute();
    },

    /** The user of an unexpired session with this token hash, when it is this uid's. */
    userOfLiveSession: (uid: number, tokenHash: string) =>
      db.selectFrom('sessions')
        .innerJoin('users', 'users.uid', 'sessions.uid')
        .select(['users.uid', 'users.roles'])
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.uid', '=', uid)
        .where('sessions.expires_at', '>', new Date())
        .executeTakeFirst(),
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
