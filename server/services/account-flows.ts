/**
 * The account calls of several steps, each one method so its handler is one expression that only
 * sets or clears the session's cookies (the HTTP edge, server/app/handlers/user.ts): a login
 * counted per account from its address, a reset code that costs the same whether or not the
 * address has an account, a second factor added or removed after the password is proven.
 */
import { Conflict, DomainError, Invalid } from '../domain/errors.ts';
import { isValidEmail, normalizeEmail } from '#lib/validation/account.ts';
import type { AuthenticatorExistsAnswer } from '#lib/api/contracts/account.ts';
import type { CatalogLocale } from '#lib/i18n/locales.ts';
import type { LoginCodes } from '../auth/second-factor.ts';
import type { NewAccount } from './accounts.ts';

const NO_SECOND_FACTOR = { have2FA: false, type: 'none', totpCreationDateTime: null } as const;

/** A second factor's creation when the account has one (one at a time): 409 CONFLICT naming it. */
const alreadyOn = (existsAuthenticatorType: AuthenticatorExistsAnswer['existsAuthenticatorType']) =>
  new Conflict('CONFLICT', {
    isExists: true,
    existsAuthenticatorType,
    result: null,
  } satisfies Partial<AuthenticatorExistsAnswer>);

/** The schema bounds an address's length; its form is the account rules' (also the browser's). */
export function requireValidEmail(given: string, field: string) {
  if (!isValidEmail(given)) throw new Invalid([{ path: field, message: 'invalid' }]);
}

type Bound<F> = F extends (repositories: never, ...rest: infer A) => infer R ? (...args: A) => R : never;
interface Parts {
  accounts: {
    register: (
      input: NewAccount & { verificationCode: string; invitationCode: string },
    ) => Promise<{ uid: number; token: string }>;
    login: (email: string, password: string, codes?: LoginCodes) => Promise<{ uid: number; token: string }>;
    sendLoginCode: (input: { email: string; password: string; language: CatalogLocale }) => Promise<void>;
    uidByEmail: (email: string) => Promise<number | null>;
    passwordMatches: (uid: number, password: string) => Promise<boolean>;
    selfInfo: Bound<typeof import('./accounts.ts').selfInfo>;
  };
  credentials: { emailOf: (uid: number) => Promise<string | null>; ownEmail: (uid: number) => Promise<string> };
  secondFactor: {
    secondFactorStatus: Bound<typeof import('../auth/second-factor.ts').secondFactorStatus>;
    createEmailAuthenticator: Bound<typeof import('../auth/second-factor.ts').createEmailAuthenticator>;
    deleteEmailAuthenticator: Bound<typeof import('../auth/second-factor.ts').deleteEmailAuthenticator>;
  };
  totp: {
    createTotp: Bound<typeof import('../auth/totp.ts').createTotp>;
    verifySecondFactor: Bound<typeof import('../auth/totp.ts').verifySecondFactor>;
    deleteTotp: Bound<typeof import('../auth/totp.ts').deleteTotp>;
  };
  sessions: { revokeSession: (token: string | undefined) => Promise<void> };
  verification: {
    sendReset: (input: { email: string; accountEmail: string | null; language: CatalogLocale }) => Promise<void>;
  };
  rateLimits: { hit: (limit: 'loginPerAccountIp', key: string) => Promise<unknown> };
}

export function createAccountFlows({
  accounts,
  credentials,
  secondFactor,
  totp,
  sessions,
  verification,
  rateLimits,
}: Parts) {
  /**
   * Every password check also counts per account from this address (the per-address limit is the
   * table's): guessing from one address is slowed, and never stops the owner at another.
   */
  const countLoginAttempt = (email: string, ip: string) =>
    rateLimits.hit('loginPerAccountIp', `${normalizeEmail(email).toLowerCase()}|${ip}`);
  const requirePassword = async (uid: number, password: string) => {
    if (!(await accounts.passwordMatches(uid, password))) throw new DomainError('INVALID_CREDENTIALS');
  };

  return {
    register(input: NewAccount & { verificationCode: string; invitationCode: string }) {
      requireValidEmail(input.email, 'email');
      return accounts.register(input);
    },

    /**
     * A new session at every login; the one this browser held before (`replacing`) is revoked only
     * once the login succeeded: a wrong password (or anyone's forged form) leaves it signed in.
     */
    async login(
      { email, password, ...codes }: { email: string; password: string } & LoginCodes,
      { ip, replacing }: { ip: string; replacing: string | undefined },
    ) {
      await countLoginAttempt(email, ip);
      const session = await accounts.login(email, password, codes);
      await sessions.revokeSession(replacing);
      return session;
    },

    /** The login step: after a right password, mail the login code to an account with this authenticator. */
    async sendLoginCode(input: { email: string; password: string; language: CatalogLocale }, ip: string) {
      await countLoginAttempt(input.email, ip);
      await accounts.sendLoginCode(input);
    },

    /** One's own account (a session whose account is gone is told to log in again). */
    async self(uid: number) {
      const result = await accounts.selfInfo(uid);
      if (!result) throw new DomainError('UNAUTHORIZED');
      return result;
    },

    async secondFactorByEmail(email: string) {
      const uid = await accounts.uidByEmail(email);
      return uid ? secondFactor.secondFactorStatus(uid) : NO_SECOND_FACTOR;
    },

    /**
     * The answer, its cool-down and the queries before it are the same whether or not the address
     * has an account (verification.ts sendResetCode): the account's address is looked up for an
     * unknown one too (uid 0 has none).
     */
    async sendResetCode(email: string, language: CatalogLocale) {
      const uid = await accounts.uidByEmail(email);
      const accountEmail = await credentials.emailOf(uid ?? 0);
      await verification.sendReset({
        email: normalizeEmail(email),
        accountEmail: uid === null ? null : accountEmail,
        language,
      });
    },

    /** A TOTP authenticator, unless the account has a second factor already (409 naming it). */
    async createTotp(uid: number) {
      if ((await secondFactor.secondFactorStatus(uid)).type === 'email') throw alreadyOn('email');
      const self = await accounts.selfInfo(uid);
      const { otpAuth } = await totp.createTotp(uid, self?.email ?? self?.username ?? String(uid));
      if (!otpAuth) throw alreadyOn('totp');
      return { isExists: false as const, existsAuthenticatorType: null, result: { otpAuth } };
    },

    async createEmailAuthenticator(uid: number) {
      const created = await secondFactor.createEmailAuthenticator(uid);
      if (created.isExists) throw alreadyOn(created.existsAuthenticatorType);
      return created;
    },

    /** Turning TOTP off takes the password and a code of the authenticator (or a backup code). */
    async deleteTotp(uid: number, password: string, clientOtp: string) {
      await requirePassword(uid, password);
      await totp.verifySecondFactor(uid, clientOtp);
      await totp.deleteTotp(uid);
    },

    /** Turning the e-mail authenticator off takes the password and the code mailed for it. */
    async deleteEmailAuthenticator(uid: number, password: string, verificationCode: string) {
      await requirePassword(uid, password);
      await secondFactor.deleteEmailAuthenticator(uid, await credentials.ownEmail(uid), verificationCode);
    },
  };
}
