import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import { totpStatus, verifySecondFactor as verifyTotp } from './totp.ts';
import { checkVerificationCode, consumeVerificationCode } from '../services/verification.ts';

export type AuthenticatorType = 'none' | 'totp' | 'email';
export interface SecondFactorStatus { have2FA: boolean; type: AuthenticatorType; totpCreationDateTime: number | null }

/** Which second factor an account has: at most one, TOTP or e-mail. */
export async function secondFactorStatus(db: Kysely<Database>, uid: number): Promise<SecondFactorStatus> {
  const totp = await totpStatus(db, uid);
  if (totp.have2FA) return totp;
  const email = await db.selectFrom('email_authenticators').select('created_at').where('uid', '=', uid).executeTakeFirst();
  return email ? { have2FA: true, type: 'email', totpCreationDateTime: null } : { have2FA: false, type: 'none', totpCreationDateTime: null };
}

/** Checks the second factor of a login after the password: a TOTP code, or the mailed login code. */
export async function checkLoginSecondFactor(db: Kysely<Database>, uid: number, email: string, input: { clientOtp?: string; verificationCode?: string }) {
  const { type } = await secondFactorStatus(db, uid);
  if (type === 'none') return;
  if (type === 'totp') {
    if (!input.clientOtp?.trim()) throw new AppError('SECOND_FACTOR_REQUIRED', { extra: { authenticatorType: 'totp' } });
    await verifyTotp(db, uid, input.clientOtp);
    return;
  }
  if (!input.verificationCode?.trim()) throw new AppError('SECOND_FACTOR_REQUIRED', { extra: { authenticatorType: 'email' } });
  const codeId = await checkVerificationCode(db, { email, purpose: 'login', code: input.verificationCode.trim() });
  await consumeVerificationCode(db, codeId);
}

export async function createEmailAuthenticator(db: Kysely<Database>, uid: number) {
  const status = await secondFactorStatus(db, uid);
  if (status.have2FA) return { isExists: true, existsAuthenticatorType: status.type };
  await db.insertInto('email_authenticators').values({ uid }).onConflict((oc) => oc.column('uid').doNothing()).execute();
  return { isExists: false, existsAuthenticatorType: null };
}

export async function deleteEmailAuthenticator(db: Kysely<Database>, uid: number, email: string, verificationCode: string) {
  const codeId = await checkVerificationCode(db, { email, purpose: 'disable-2fa', code: verificationCode });
  await db.transaction().execute(async (trx) => {
    await consumeVerificationCode(trx, codeId);
    await trx.deleteFrom('email_authenticators').where('uid', '=', uid).execute();
  });
}
