import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { VerificationPurpose } from '../db/schema.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import { DomainError } from '../domain/errors.ts';
import { translatorFor } from '../../src/lib/i18n/catalogs.ts';
import type { CatalogLocale } from '../../src/lib/i18n/locales.ts';

export const CODE_VALIDITY_MS = 30 * 60_000;
export const CODE_COOLDOWN_MS = 55_000;
export const CODE_MAX_ATTEMPTS = 5;
/** Codes one address may receive per purpose in 24 hours (API-NOTES). */
export const DAILY_CAPS: Record<VerificationPurpose, number> = {
  registration: 5, 'change-email': 10, 'change-password': 3, 'forgot-password': 3, login: 10, 'disable-2fa': 3,
};
const PURPOSE_KEY: Record<VerificationPurpose, string> = {
  registration: 'registration', 'change-email': 'changeEmail', 'change-password': 'changePassword', 'forgot-password': 'forgotPassword', login: 'login', 'disable-2fa': 'disable2fa',
};

const codeHash = (email: string, purpose: string, code: string) =>
  createHash('sha256').update(`${purpose}\n${email.toLowerCase()}\n${code}`).digest();

type CodeRepositories = Pick<Repositories, 'verificationCodes'>;

/** Mails a fresh 6-digit code, respecting the 55 s cool-down and the daily cap. */
export async function sendVerificationCode(repositories: CodeRepositories, mailer: Mailer, input: { email: string; purpose: VerificationPurpose; language: CatalogLocale }): Promise<void> {
  const { email, purpose, language } = input;
  const since = new Date(Date.now() - 24 * 60 * 60_000);
  const recent = await repositories.verificationCodes.sentSince(email, purpose, since);
  const last = recent[0];
  if (last && Date.now() - last.getTime() < CODE_COOLDOWN_MS) {
    const retryAfter = Math.ceil((CODE_COOLDOWN_MS - (Date.now() - last.getTime())) / 1000);
    throw new DomainError('COOLING_DOWN', { retryAfterSeconds: retryAfter, extra: { isCoolingDown: true, retryAfterSeconds: retryAfter } });
  }
  if (recent.length >= DAILY_CAPS[purpose]) {
    // The cap counts the last 24 hours: the oldest of the codes counted leaves the window first.
    const oldest = recent[DAILY_CAPS[purpose] - 1] ?? recent.at(-1)!;
    const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + 24 * 60 * 60_000 - Date.now()) / 1000));
    throw new DomainError('DAILY_LIMIT', { retryAfterSeconds: retryAfter, extra: { isCoolingDown: true } });
  }

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repositories.verificationCodes.insert({
    email, purpose, code_hash: codeHash(email, purpose, code).toString('hex'), expires_at: new Date(Date.now() + CODE_VALIDITY_MS),
  });
  const { t } = translatorFor(language);
  await mailer.send({
    to: email,
    subject: t('mail.codeSubject', { code }),
    text: t('mail.codeBody', { code, purpose: t(`mail.purpose.${PURPOSE_KEY[purpose]}`) }),
  });
}

/**
 * Checks the newest live code for an address and purpose. A wrong guess counts against the
 * code (five and it is spent); the right one is returned for consumption with the change it
 * authorises, so a failure after this point leaves it usable.
 */
export async function checkVerificationCode(repositories: CodeRepositories, input: { email: string; purpose: VerificationPurpose; code: string }): Promise<number> {
  const row = await repositories.verificationCodes.newestLive(input.email, input.purpose);
  if (!row || row.attempts >= CODE_MAX_ATTEMPTS) throw new DomainError('VERIFICATION_CODE_INVALID');
  const matches = /^\d{6}$/.test(input.code) && timingSafeEqual(Buffer.from(row.code_hash, 'hex'), codeHash(input.email, input.purpose, input.code));
  if (!matches) {
    await repositories.verificationCodes.countWrongGuess(row.id);
    throw new DomainError('VERIFICATION_CODE_INVALID');
  }
  return row.id;
}

/** Marks a checked code used; VERIFICATION_CODE_INVALID when another request used it first. */
export async function consumeVerificationCode(repositories: CodeRepositories, id: number): Promise<void> {
  if (!(await repositories.verificationCodes.markUsed(id))) throw new DomainError('VERIFICATION_CODE_INVALID');
}
