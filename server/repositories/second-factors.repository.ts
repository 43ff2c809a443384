/** The second factors: totp_authenticators (secret, steps, backup codes, lock) and email_authenticators. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export function createSecondFactorsRepository(db: Kysely<Database>) {
  const totp = (uid: number) => db.updateTable('totp_authenticators').where('uid', '=', uid);
  const confirmedTotp = (uid: number) =>
    db.selectFrom('totp_authenticators').selectAll().where('uid', '=', uid).where('confirmed_at', 'is not', null);

  return {
    /** When the account's TOTP authenticator was confirmed; null without a confirmed one. */
    async totpConfirmedAt(uid: number): Promise<Date | null> {
      const row = await confirmedTotp(uid).executeTakeFirst();
      return row ? new Date(row.confirmed_at!) : null;
    },

    /** Stores a new, unconfirmed secret, replacing an unfinished setup's (its failures and lock too). */
    async startTotpSetup(uid: number, secret: string): Promise<void> {
      await db
        .insertInto('totp_authenticators')
        .values({ uid, secret, backup_code_hashes: [] })
        .onConflict((oc) =>
          oc.column('uid').doUpdateSet({ secret, failed_attempts: 0, locked_until: null, last_used_step: 0 }),
        )
        .execute();
    },

    unconfirmedTotp: (uid: number) =>
      db
        .selectFrom('totp_authenticators')
        .selectAll()
        .where('uid', '=', uid)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst(),

    async confirmTotp(
      uid: number,
      confirmed: { lastUsedStep: number; backupCodeHashes: string[]; recoveryCodeHash: string },
    ): Promise<void> {
      await totp(uid)
        .set({
          confirmed_at: new Date(),
          last_used_step: confirmed.lastUsedStep,
          backup_code_hashes: confirmed.backupCodeHashes,
          recovery_code_hash: confirmed.recoveryCodeHash,
        })
        .execute();
    },

    /** The confirmed authenticator, locked (FOR UPDATE) until the transaction this runs in ends. */
    lockConfirmedTotp: (uid: number) => confirmedTotp(uid).forUpdate().executeTakeFirst(),

    /** A code accepted at this step: failures forgotten, any lock lifted. */
    async recordTotpStep(uid: number, step: number): Promise<void> {
      await totp(uid).set({ last_used_step: step, failed_attempts: 0, locked_until: null }).execute();
    },

    /** A backup code used: the remaining ones, failures forgotten. */
    async keepBackupCodes(uid: number, remainingHashes: string[]): Promise<void> {
      await totp(uid).set({ backup_code_hashes: remainingHashes, failed_attempts: 0 }).execute();
    },

    async recordTotpFailure(uid: number, failedAttempts: number, lockedUntil: Date | null): Promise<void> {
      await totp(uid).set({ failed_attempts: failedAttempts, locked_until: lockedUntil }).execute();
    },

    async deleteTotp(uid: number): Promise<void> {
      await db.deleteFrom('totp_authenticators').where('uid', '=', uid).execute();
    },

    async hasEmailAuthenticator(uid: number): Promise<boolean> {
      return !!(await db
        .selectFrom('email_authenticators')
        .select('created_at')
        .where('uid', '=', uid)
        .executeTakeFirst());
    },

    async insertEmailAuthenticator(uid: number): Promise<void> {
      await db
        .insertInto('email_authenticators')
        .values({ uid })
        .onConflict((oc) => oc.column('uid').doNothing())
        .execute();
    },

    async deleteEmailAuthenticator(uid: number): Promise<void> {
      await db.deleteFrom('email_authenticators').where('uid', '=', uid).execute();
    },
  };
}

export type SecondFactorsRepository = ReturnType<typeof createSecondFactorsRepository>;
