/** The invitation_codes table. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitationCodesTable } from '../db/schema.ts';

export type InvitationRow = Selectable<InvitationCodesTable>;

export function createInvitationsRepository(db: Kysely<Database>) {
  return {
    /** When this creator made their latest code. */
    async lastCreatedBy(creatorUid: number): Promise<Date | null> {
      const row = await db
        .selectFrom('invitation_codes')
        .select('created_at')
        .where('creator_uid', '=', creatorUid)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? new Date(row.created_at) : null;
    },

    /** Inserts a code; undefined when that code already exists. */
    insertUnlessExists: (code: string, creatorUid: number | null): Promise<InvitationRow | undefined> =>
      db
        .insertInto('invitation_codes')
        .values({ code, creator_uid: creatorUid })
        .onConflict((oc) => oc.column('code').doNothing())
        .returningAll()
        .executeTakeFirst(),

    /** Whether the code exists, unused and not disabled. */
    async isAvailable(code: string): Promise<boolean> {
      return !!(await db
        .selectFrom('invitation_codes')
        .select('code')
        .where('code', '=', code)
        .where('used_at', 'is', null)
        .where('disabled', '=', false)
        .executeTakeFirst());
    },

    /** Gives an available code to its assignee, atomically: false when it was not available. */
    async claim(code: string, assigneeUid: number): Promise<boolean> {
      const claimed = await db
        .updateTable('invitation_codes')
        .set({ assignee_uid: assigneeUid, used_at: new Date() })
        .where('code', '=', code)
        .where('used_at', 'is', null)
        .where('disabled', '=', false)
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1;
    },

    listByCreator: (creatorUid: number): Promise<InvitationRow[]> =>
      db
        .selectFrom('invitation_codes')
        .selectAll()
        .where('creator_uid', '=', creatorUid)
        .orderBy('created_at', 'desc')
        .execute(),
  };
}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
