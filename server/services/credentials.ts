import type { Repositories } from '../repositories/index.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import { hashPassword, verifyPassword, COMMON_PASSWORDS } from '../auth/passwords.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { checkVerificationCode, consumeVerificationCode } from './verification.ts';
import { checkPassword, isValidEmail, normalizeEmail } from '../../src/lib/validation/account.ts';
import { emailExists, uidByEmail } from './accounts.ts';

async function account(repositories: Repositories, uid: number) {
  const user = await repositories.users.credentials(uid);
  if (!user) throw new NotFound();
  return user;
}

/** Consumes the checked code and sets the new password; every session but `keptToken` ends. */
async function replacePassword(
  repositories: Repositories,
  uid: number,
  codeId: number,
  newPassword: string,
  keptToken?: string,
) {
  const passwordHash = await hashPassword(newPassword);
  await repositories.transaction(async (r) => {
    await consumeVerificationCode(r, codeId);
    await r.users.setPasswordHash(uid, passwordHash);
    await revokeAllSessions(r, uid, keptToken);
  });
  // The sessions ended in the transaction are forgotten by every process now it has committed.
  repositories.sessions.forgetMember(uid);
}

function assertStrong(password: string, email: string | null, username: string) {
  const problem = checkPassword(password, COMMON_PASSWORDS, [email?.split('@')[0] ?? '', username]);
  if (problem) throw new DomainError('WEAK_PASSWORD', { issues: [{ path: 'newPassword', message: problem }] });
}

/** user/update/password: old password and a mailed code; every other session is signed out. */
export async function changePassword(
  repositories: Repositories,
  uid: number,
  currentToken: string | undefined,
  input: { oldPassword: string; newPassword: string; verificationCode: string },
) {
  const user = await account(repositories, uid);
  if (!user.email || !(await verifyPassword(user.password_hash, input.oldPassword)))
    throw new DomainError('INVALID_CREDENTIALS');
  assertStrong(input.newPassword, user.email, user.username);
  const codeId = await checkVerificationCode(repositories, {
    email: user.email,
    purpose: 'change-password',
    code: input.verificationCode,
  });
  await replacePassword(repositories, uid, codeId, input.newPassword, currentToken);
}

/**
 * user/forgot/password: a mailed code replaces the password and signs out every session. The
 * code is checked first: until it is right the answer is the same whether or not the address
 * has an account (no code was ever sent to one without), so nothing else may answer before it.
 */
export async function resetPassword(
  repositories: Repositories,
  input: { email: string; newPassword: string; verificationCode: string },
) {
  const codeId = await checkVerificationCode(repositories, {
    email: normalizeEmail(input.email),
    purpose: 'forgot-password',
    code: input.verificationCode,
  });
  const uid = await uidByEmail(repositories, input.email);
  if (uid === null) throw new DomainError('VERIFICATION_CODE_INVALID'); // the account changed its address since
  const user = await account(repositories, uid);
  assertStrong(input.newPassword, user.email, user.username);
  await replacePassword(repositories, uid, codeId, input.newPassword);
}

/** user/update/email: the password, and a code mailed to the new address, which proves it is theirs. */
export async function changeEmail(
  repositories: Repositories,
  uid: number,
  input: { oldEmail: string; newEmail: string; password: string; verificationCode: string },
) {
  const user = await account(repositories, uid);
  const oldMatches = user.email && normalizeEmail(input.oldEmail).toLowerCase() === user.email.toLowerCase();
  if (!oldMatches || !(await verifyPassword(user.password_hash, input.password)))
    throw new DomainError('INVALID_CREDENTIALS');
  const newEmail = normalizeEmail(input.newEmail);
  if (!isValidEmail(newEmail))
    throw new DomainError('VALIDATION_FAILED', { issues: [{ path: 'newEmail', message: 'invalid' }] });
  if (await emailExists(repositories, newEmail)) throw new DomainError('EMAIL_TAKEN');
  const codeId = await checkVerificationCode(repositories, {
    email: newEmail,
    purpose: 'change-email',
    code: input.verificationCode,
  });
  await repositories.transaction(async (r) => {
    await consumeVerificationCode(r, codeId);
    await r.users.setEmail(uid, newEmail);
  });
}

export async function ownEmail(repositories: Pick<Repositories, 'users'>, uid: number): Promise<string> {
  const email = await repositories.users.emailOf(uid);
  if (!email) throw new DomainError('NOT_FOUND');
  return email;
}

/** An account's address, or null (no such account, or none on it). */
export function emailOf(repositories: Pick<Repositories, 'users'>, uid: number): Promise<string | null> {
  return repositories.users.emailOf(uid);
}
