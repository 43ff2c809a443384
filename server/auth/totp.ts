import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Repositories } from '../repositories/index.ts';
import { DomainError } from '../domain/errors.ts';

export const TOTP_ISSUER = 'Kiraboshi';
export const TOTP_PERIOD_S = 30;
export const TOTP_WINDOW = 1;
export const TOTP_MAX_FAILURES = 5;
export const TOTP_LOCK_MS = 60 * 60_000;
export const BACKUP_CODE_COUNT = 5;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I: codes are typed from paper

const totpFor = (secret: string, label: string) =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
  });

const randomCode = (length: number) =>
  Array.from({ length }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
const hashCode = (uid: number, code: string) =>
  createHash('sha256')
    .update(`${uid}:${code.replace(/[\s-]/g, '').toUpperCase()}`)
    .digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

type TotpRepositories = Pick<Repositories, 'secondFactors'>;

export async function totpStatus(repositories: TotpRepositories, uid: number) {
  const confirmedAt = await repositories.secondFactors.totpConfirmedAt(uid);
  return confirmedAt
    ? { have2FA: true, type: 'totp' as const, totpCreationDateTime: confirmedAt.getTime() }
    : { have2FA: false, type: 'none' as const, totpCreationDateTime: null };
}

/** Starts (or restarts) setup: a new secret, returned once as an otpauth:// URI with the site as issuer. */
export async function createTotp(repositories: TotpRepositories, uid: number, accountLabel: string) {
  const status = await totpStatus(repositories, uid);
  if (status.have2FA) return { isExists: true, existsAuthenticatorType: 'totp' as const, otpAuth: null };
  const secret = new Secret({ size: 20 }).base32;
  await repositories.secondFactors.startTotpSetup(uid, secret);
  return { isExists: false, existsAuthenticatorType: null, otpAuth: totpFor(secret, accountLabel).toString() };
}

/** The step a code belongs to, or null; ±1 step of clock drift is allowed, and no step twice. */
function acceptedStep(secret: string, token: string, lastUsedStep: number, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(token)) return null;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    period: TOTP_PERIOD_S,
    window: TOTP_WINDOW,
    timestamp: now,
  });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
  return step > lastUsedStep ? step : null;
}

/** Confirms setup with a first code; answers the 5 backup codes and the recovery code, shown once. */
export async function confirmTotp(repositories: TotpRepositories, uid: number, clientOtp: string) {
  const row = await repositories.secondFactors.unconfirmedTotp(uid);
  if (!row) throw new DomainError('NOT_FOUND');
  const step = acceptedStep(row.secret, clientOtp, row.last_used_step);
  if (step === null) throw new DomainError('SECOND_FACTOR_INVALID');
  const backupCode = Array.from({ length: BACKUP_CODE_COUNT }, () => randomCode(6));
  const recoveryCode = randomCode(24);
  await repositories.secondFactors.confirmTotp(uid, {
    lastUsedStep: step,
    backupCodeHashes: backupCode.map((c) => hashCode(uid, c)),
    recoveryCodeHash: hashCode(uid, recoveryCode),
  });
  return { backupCode, recoveryCode };
}

type SecondFactorOutcome =
  | { ok: true; method: 'totp' | 'backup' | 'recovery' }
  | { ok: false; lockedForSeconds: number | null };

/**
 * Checks a login's second factor: a TOTP code, or a single-use backup code, or the recovery
 * code (which removes the authenticator). Five failures lock it for an hour. The transaction
 * returns the outcome, so a failure's count is committed before the error is raised.
 */
export async function verifySecondFactor(
  repositories: Pick<Repositories, 'transaction'>,
  uid: number,
  clientOtp: string,
): Promise<'totp' | 'backup' | 'recovery'> {
  const outcome = await repositories.transaction(async ({ secondFactors }): Promise<SecondFactorOutcome> => {
    const row = await secondFactors.lockConfirmedTotp(uid);
    if (!row) return { ok: false, lockedForSeconds: null };
    if (row.locked_until && new Date(row.locked_until).getTime() > Date.now()) {
      return { ok: false, lockedForSeconds: Math.ceil((new Date(row.locked_until).getTime() - Date.now()) / 1000) };
    }
    const code = clientOtp.replace(/[\s-]/g, '').toUpperCase();
    const step = acceptedStep(row.secret, code, row.last_used_step);
    if (step !== null) {
      await secondFactors.recordTotpStep(uid, step);
      return { ok: true, method: 'totp' };
    }
    const hashed = hashCode(uid, code);
    const backupIndex = row.backup_code_hashes.findIndex((h) => sameHash(h, hashed));
    if (backupIndex >= 0) {
      await secondFactors.keepBackupCodes(
        uid,
        row.backup_code_hashes.filter((_, i) => i !== backupIndex),
      );
      return { ok: true, method: 'backup' };
    }
    if (row.recovery_code_hash && sameHash(row.recovery_code_hash, hashed)) {
      await secondFactors.deleteTotp(uid);
      return { ok: true, method: 'recovery' };
    }
    const locks = row.failed_attempts + 1 >= TOTP_MAX_FAILURES;
    await secondFactors.recordTotpFailure(
      uid,
      locks ? 0 : row.failed_attempts + 1,
      locks ? new Date(Date.now() + TOTP_LOCK_MS) : row.locked_until,
    );
    return { ok: false, lockedForSeconds: locks ? TOTP_LOCK_MS / 1000 : null };
  });
  if (outcome.ok) return outcome.method;
  if (outcome.lockedForSeconds)
    throw new DomainError('SECOND_FACTOR_LOCKED', { retryAfterSeconds: outcome.lockedForSeconds });
  throw new DomainError('SECOND_FACTOR_INVALID');
}

export async function deleteTotp(repositories: TotpRepositories, uid: number): Promise<void> {
  await repositories.secondFactors.deleteTotp(uid);
}
