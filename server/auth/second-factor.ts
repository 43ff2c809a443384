import type { Repositories } from '../repositories/index.ts';
import { DomainError } from '../domain/errors.ts';
import { totpStatus, verifySecondFactor as verifyTotp } from './totp.ts';
import { checkVerificationCode, consumeVerificationCode } from '../services/verification.ts';

export type AuthenticatorType = 'none' | 'totp' | 'email';
export interface SecondFactorStatus {
  have2FA: boolean;
  type: AuthenticatorType;
  totpCreationDateTime: number | null;
}

/** Which second factor an account has: at most one, TOTP or e-mail. */
export async function secondFactorStatus(
  repositories: Pick<Repositories, 'secondFactors'>,
  uid: number,
): Promise<SecondFactorStatus> {
  const totp = await totpStatus(repositories, uid);
  if (totp.have2FA) return totp;
  return (await repositories.secondFactors.hasEmailAuthenticator(uid))
    ? { have2FA: true, type: 'email', totpCreationDateTime: null }
    : { have2FA: false, type: 'none', totpCreationDateTime: null };
}

export type LoginSecondFactor = Exclude<AuthenticatorType, 'none'>;
export interface LoginCodes {
  clientOtp?: string;
  verificationCode?: string;
}

/**
 * The second factor a login asks for: the account's own, if any; with `evenWithout` (an account
 * under attack, see accounts.login), the mailed login code for an account without one, or with
 * no account at all, so that answer tells nothing either.
 */
export async function loginSecondFactor(
  repositories: Pick<Repositories, 'secondFactors'>,
  uid: number | null,
  evenWithout = false,
): Promise<LoginSecondFactor | null> {
  const type = uid === null ? 'none' : (await secondFactorStatus(repositories, uid)).type;
  return type === 'none' ? (evenWithout ? 'email' : null) : type;
}

/** The code a login gives for its second factor, or SECOND_FACTOR_REQUIRED naming the one to give. */
export function loginCode(type: LoginSecondFactor, input: LoginCodes): string {
  const code = (type === 'totp' ? input.clientOtp : input.verificationCode)?.trim();
  if (!code) throw new DomainError('SECOND_FACTOR_REQUIRED', { extra: { authenticatorType: type } });
  return code;
}

/** Checks the second factor of a login after the password: a TOTP code, or the mailed login code. */
export async function checkLoginSecondFactor(
  repositories: Repositories,
  uid: number,
  email: string,
  type: LoginSecondFactor | null,
  input: LoginCodes,
) {
  if (!type) return;
  const code = loginCode(type, input);
  if (type === 'totp') {
    await verifyTotp(repositories, uid, code);
    return;
  }
  const codeId = await checkVerificationCode(repositories, { email, purpose: 'login', code });
  await consumeVerificationCode(repositories, codeId);
}

export async function createEmailAuthenticator(repositories: Pick<Repositories, 'secondFactors'>, uid: number) {
  const status = await secondFactorStatus(repositories, uid);
  if (status.type !== 'none') return { isExists: true as const, existsAuthenticatorType: status.type };
  await repositories.secondFactors.insertEmailAuthenticator(uid);
  return { isExists: false as const, existsAuthenticatorType: null };
}

export async function deleteEmailAuthenticator(
  repositories: Repositories,
  uid: number,
  email: string,
  verificationCode: string,
) {
  const codeId = await checkVerificationCode(repositories, { email, purpose: 'disable-2fa', code: verificationCode });
  await repositories.transaction(async (r) => {
    await consumeVerificationCode(r, codeId);
    await r.secondFactors.deleteEmailAuthenticator(uid);
  });
}
