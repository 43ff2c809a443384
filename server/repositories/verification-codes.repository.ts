/** The verification_codes table: mailed codes, stored as hashes. */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, VerificationCodesTable, VerificationPurpose } from '../db/schema.ts';

export function createVerificationCodesRepository(db: Kysely<Database>) {
  const forAddress = (email: string, purpose: VerificationPurpose) =>
    db
      .selectFrom('verification_codes')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('purpose', '=', purpose);

  return {
    /** When codes for this address (without case) and purpose were sent since a time, newest first. */
    async sentSince(email: string, purpose: VerificationPurpose, since: Date): Promise<Date[]> {
      const rows = await forAddress(email, purpose)
        .select('created_at')
        .where('created_at', '>', since)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((row) => new Date(row.created_at));
    },

    async insert(code: Insertable<VerificationCodesTable>): Promise<void> {
      await db.insertInto('verification_codes').values(code).execute();
    },

    /** The newest unused, unexpired code for this address and purpose. */
    newestLive: (email: string, purpose: VerificationPurpose) =>
      forAddress(email, purpose)
        .select(['id', 'code_hash', 'attempts'])
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date())
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst(),

    async countWrongGuess(id: number): Promise<void> {
      await db
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    /** Marks a code used: false when it already was. */
    async markUsed(id: number): Promise<boolean> {
      const result = await db
        .updateTable('verification_codes')
        .set({ used_at: new Date() })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type VerificationCodesRepository = ReturnType<typeof createVerificationCodesRepository>;
