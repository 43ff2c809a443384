import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, VerificationPurpose } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { AppError } from '../app/errors.ts';
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

/** Mails a fresh 6-digit code, respecting the 55 s cool-down and the daily cap. */
export async function sendVerificationCode(db: Kysely<Database>, mailer: Mailer, input: { email: string; purpose: VerificationPurpose; language: CatalogLocale }): Promise<void> {
  const { email, purpose, language } = input;
  const since = new Date(Date.now() - 24 * 60 * 60_000);
  const recent = await db
    .selectFrom('verification_codes')
    .select(['created_at'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('purpose', '=', purpose)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .execute();
  const last = recent[0]?.created_at;
  if (last && Date.now() - new Date(last).getTime() < CODE_COOLDOWN_MS) {
    const retryAfter = Math.ceil((CODE_COOLDOWN_MS - (Date.now() - new Date(last).getTime())) / 1000);
    throw new AppError('COOLING_DOWN', { headers: { 'Retry-After': String(retryAfter) }, extra: { isCoolingDown: true, retryAfterSeconds: retryAfter } });
  }
  if (recent.length >= DAILY_CAPS[purpose]) throw new AppError('DAILY_LIMIT', { extra: { isCoolingDown: true } });

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.insertInto('verification_codes').values({
    email, purpose, code_hash: codeHash(email, purpose, code).toString('hex'), expires_at: new Date(Date.now() + CODE_VALIDITY_MS),
  }).execute();
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
export async function checkVerificationCode(db: Kysely<Database>, input: { email: string; purpose: VerificationPurpose; code: string }): Promise<number> {
  const row = await db
    .selectFrom('verification_codes')
    .select(['id', 'code_hash', 'attempts'])
    .where(sql`lower(email)`, '=', input.email.toLowerCase())
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || row.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('VERIFICATION_CODE_INVALID');
  const matches = /^\d{6}$/.test(input.code) && timingSafeEqual(Buffer.from(row.code_hash, 'hex'), codeHash(input.email, input.purpose, input.code));
  if (!matches) {
    await db.updateTable('verification_codes').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', row.id).execute();
    throw new AppError('VERIFICATION_CODE_INVALID');
  }
  return row.id;
}

/** Marks a checked code used; false when another request used it first. */
export async function consumeVerificationCode(db: Kysely<Database>, id: number): Promise<void> {
  const result = await db.updateTable('verification_codes').set({ used_at: new Date() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('VERIFICATION_CODE_INVALID');
}
