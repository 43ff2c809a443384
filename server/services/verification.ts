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
  registration: 5,
  'change-email': 10,
  'change-password': 3,
  'forgot-password': 3,
  login: 10,
  'disable-2fa': 3,
};
const PURPOSE_KEY: Record<VerificationPurpose, string> = {
  registration: 'registration',
  'change-email': 'changeEmail',
  'change-password': 'changePassword',
  'forgot-password': 'forgotPassword',
  login: 'login',
  'disable-2fa': 'disable2fa',
};

const codeHash = (email: string, purpose: string, code: string) =>
  createHash('sha256').update(`${purpose}\n${email.toLowerCase()}\n${code}`).digest();

type CodeRepositories = Pick<Repositories, 'verificationCodes'>;

/**
 * The limits of an address for a purpose: COOLING_DOWN within 55 s of the last code (with
 * Retry-After), DAILY_LIMIT past the daily cap, else null (a code may go).
 */
async function mailingLimit(
  repositories: CodeRepositories,
  email: string,
  purpose: VerificationPurpose,
): Promise<DomainError | null> {
  const since = new Date(Date.now() - 24 * 60 * 60_000);
  const recent = await repositories.verificationCodes.sentSince(email, purpose, since);
  const last = recent[0];
  if (last && Date.now() - last.getTime() < CODE_COOLDOWN_MS) {
    const retryAfter = Math.ceil((CODE_COOLDOWN_MS - (Date.now() - last.getTime())) / 1000);
    return new DomainError('COOLING_DOWN', {
      retryAfterSeconds: retryAfter,
      extra: { isCoolingDown: true, retryAfterSeconds: retryAfter },
    });
  }
  if (recent.length >= DAILY_CAPS[purpose]) {
    // The cap counts the last 24 hours: the oldest of the codes counted leaves the window first.
    const oldest = recent[DAILY_CAPS[purpose] - 1] ?? recent.at(-1)!;
    const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + 24 * 60 * 60_000 - Date.now()) / 1000));
    return new DomainError('DAILY_LIMIT', { retryAfterSeconds: retryAfter, extra: { isCoolingDown: true } });
  }
  return null;
}

/** A fresh 6-digit code, stored (as its hash) for the address and purpose; the mail that carries it. */
async function newCode(
  repositories: CodeRepositories,
  input: { email: string; purpose: VerificationPurpose; language: CatalogLocale },
) {
  const { email, purpose, language } = input;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repositories.verificationCodes.insert({
    email,
    purpose,
    code_hash: codeHash(email, purpose, code).toString('hex'),
    expires_at: new Date(Date.now() + CODE_VALIDITY_MS),
  });
  const { t } = translatorFor(language);
  return (to: string) => ({
    to,
    subject: t('mail.codeSubject', { code }),
    text: t('mail.codeBody', { code, purpose: t(`mail.purpose.${PURPOSE_KEY[purpose]}`) }),
  });
}

/** Mails a fresh 6-digit code, respecting the 55 s cool-down and the daily cap. */
export async function sendVerificationCode(
  repositories: CodeRepositories,
  mailer: Mailer,
  input: { email: string; purpose: VerificationPurpose; language: CatalogLocale },
): Promise<void> {
  const limit = await mailingLimit(repositories, input.email, input.purpose);
  if (limit) throw limit;
  const mail = await newCode(repositories, input);
  await mailer.send(mail(input.email));
}

/**
 * A password reset code, asked for an address that may or may not have an account: the answer
 * and the work before it are the same for both, so neither the status, the body nor the time
 * tells them apart. The 55 s cool-down holds for the address either way (a code is recorded for
 * an address without an account too, which nobody can know), so asking again soon is answered
 * 429 COOLING_DOWN for both: the person who asked is told truthfully to wait, and that the code
 * already sent still holds, rather than told "sent" with no mail coming. The daily cap is
 * silent: past it the answer is the same success and no mail goes, so nobody can flood an
 * inbox. The mail itself goes after the answer (its SMTP round trip would tell); a failure is
 * reported to `onMailFailed`.
 */
export async function sendResetCode(
  repositories: CodeRepositories,
  mailer: Mailer,
  input: { email: string; accountEmail: string | null; language: CatalogLocale },
  onMailFailed: (error: unknown) => void,
): Promise<void> {
  const limit = await mailingLimit(repositories, input.email, 'forgot-password');
  if (limit?.code === 'COOLING_DOWN') throw limit;
  if (limit) return;
  const mail = await newCode(repositories, {
    email: input.email,
    purpose: 'forgot-password',
    language: input.language,
  });
  if (input.accountEmail) void mailer.send(mail(input.accountEmail)).catch(onMailFailed);
}

/**
 * Checks the newest live code for an address and purpose. A wrong guess counts against the
 * code (five and it is spent); the right one is returned for consumption with the change it
 * authorises, so a failure after this point leaves it usable.
 */
export async function checkVerificationCode(
  repositories: CodeRepositories,
  input: { email: string; purpose: VerificationPurpose; code: string },
): Promise<number> {
  const row = await repositories.verificationCodes.newestLive(input.email, input.purpose);
  if (!row || row.attempts >= CODE_MAX_ATTEMPTS) throw new DomainError('VERIFICATION_CODE_INVALID');
  const matches =
    /^\d{6}$/.test(input.code) &&
    timingSafeEqual(Buffer.from(row.code_hash, 'hex'), codeHash(input.email, input.purpose, input.code));
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
