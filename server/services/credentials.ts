import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import { hashPassword, verifyPassword, COMMON_PASSWORDS } from '../auth/passwords.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { checkVerificationCode, consumeVerificationCode } from './verification.ts';
import { checkPassword, isValidEmail, normalizeEmail } from '../../src/lib/validation/account.ts';
import { emailExists, uidByEmail } from './accounts.ts';

async function account(db: Kysely<Database>, uid: number) {
  return db.selectFrom('users').select(['uid', 'email', 'username', 'password_hash']).where('uid', '=', uid).executeTakeFirstOrThrow();
}

function assertStrong(password: string, email: string | null, username: string) {
  const problem = checkPassword(password, COMMON_PASSWORDS, [email?.split('@')[0] ?? '', username]);
  if (problem) throw new AppError('WEAK_PASSWORD', { issues: [{ path: 'newPassword', message: problem }] });
}

/** user/update/password: old password and a mailed code; every other session is signed out. */
export async function changePassword(db: Kysely<Database>, uid: number, currentToken: string | undefined, input: { oldPassword: string; newPassword: string; verificationCode: string }) {
  const user = await account(db, uid);
  if (!user.email || !(await verifyPassword(user.password_hash, input.oldPassword))) throw new AppError('INVALID_CREDENTIALS');
  assertStrong(input.newPassword, user.email, user.username);
  const codeId = await checkVerificationCode(db, { email: user.email, purpose: 'change-password', code: input.verificationCode });
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await consumeVerificationCode(trx, codeId);
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('uid', '=', uid).execute();
    await revokeAllSessions(trx, uid, currentToken);
  });
}

/** user/forgot/password: a mailed code replaces the password and signs out every session. */
export async function resetPassword(db: Kysely<Database>, input: { email: string; newPassword: string; verificationCode: string }) {
  const uid = await uidByEmail(db, input.email);
  if (uid === null) throw new AppError('VERIFICATION_CODE_INVALID'); // no code was ever sent: same answer as a wrong one
  const user = await account(db, uid);
  assertStrong(input.newPassword, user.email, user.username);
  const codeId = await checkVerificationCode(db, { email: user.email!, purpose: 'forgot-password', code: input.verificationCode });
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await consumeVerificationCode(trx, codeId);
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('uid', '=', uid).execute();
    await revokeAllSessions(trx, uid);
  });
}

/** user/update/email: the password, and a code mailed to the new address, which proves it is theirs. */
export async function changeEmail(db: Kysely<Database>, uid: number, input: { oldEmail: string; newEmail: string; password: string; verificationCode: string }) {
  const user = await account(db, uid);
  const oldMatches = user.email && normalizeEmail(input.oldEmail).toLowerCase() === user.email.toLowerCase();
  if (!oldMatches || !(await verifyPassword(user.password_hash, input.password))) throw new AppError('INVALID_CREDENTIALS');
  const newEmail = normalizeEmail(input.newEmail);
  if (!isValidEmail(newEmail)) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'newEmail', message: 'invalid' }] });
  if (await emailExists(db, newEmail)) throw new AppError('EMAIL_TAKEN');
  const codeId = await checkVerificationCode(db, { email: newEmail, purpose: 'change-email', code: input.verificationCode });
  await db.transaction().execute(async (trx) => {
    await consumeVerificationCode(trx, codeId);
    await trx.updateTable('users').set({ email: newEmail, updated_at: new Date() }).where('uid', '=', uid).execute();
  });
}

export async function ownEmail(db: Kysely<Database>, uid: number): Promise<string> {
  const row = await db.selectFrom('users').select('email').where('uid', '=', uid).where(sql<boolean>`email IS NOT NULL`).executeTakeFirst();
  if (!row?.email) throw new AppError('NOT_FOUND');
  return row.email;
}
