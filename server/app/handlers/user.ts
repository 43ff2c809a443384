import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';
import { Conflict, DomainError, Invalid, NotFound } from '../../domain/errors.ts';
import { clearedSessionCookies, sessionCookies } from '../../auth/sessions.ts';
import { isValidEmail, normalizeEmail } from '#lib/validation/account.ts';
import type { AuthenticatorExistsAnswer } from '#lib/api/contracts/account.ts';
import type { VerificationPurpose } from '../../db/schema.ts';
import type { CatalogLocale } from '#lib/i18n/locales.ts';

const OK = { success: true } as const;
const CODE_SENT = { success: true, isCoolingDown: false } as const;
const NO_SECOND_FACTOR = { have2FA: false, type: 'none', totpCreationDateTime: null } as const;

/** Mails a code, in the language the form asked for, else the caller's. */
async function mailCode(ctx: HandlerContext, email: string, purpose: VerificationPurpose, requested: CatalogLocale | undefined) {
  await ctx.services.verification.send({ email, purpose, language: requested ?? ctx.locale });
  return CODE_SENT;
}

/** The schema bounds an address's length; its form is the account rules' (also the browser's). */
function requireValidEmail(given: string, field: string) {
  if (!isValidEmail(given)) throw new Invalid([{ path: field, message: 'invalid' }]);
}

/** A code to an address that must be new to the site (registration, a change of address). */
async function mailToNewAddress(ctx: HandlerContext, given: string, field: string, purpose: VerificationPurpose, requested: CatalogLocale | undefined) {
  requireValidEmail(given, field);
  const email = normalizeEmail(given);
  if (await ctx.services.accounts.emailExists(email)) throw new Conflict('EMAIL_TAKEN');
  return mailCode(ctx, email, purpose, requested);
}

/** A code for the e-mail second factor (to log in, or to turn it off): only accounts that have it. */
async function mailSecondFactorCode(ctx: HandlerContext, uid: number, purpose: VerificationPurpose, requested: CatalogLocale | undefined) {
  if ((await ctx.services.secondFactor.secondFactorStatus(uid)).type !== 'email') throw new NotFound();
  return mailCode(ctx, await ctx.services.credentials.ownEmail(uid), purpose, requested);
}

/**
 * Every password check also counts per account from this address (the per-address limit is the
 * table's): guessing from one address is slowed, and never stops the owner at another.
 */
const countLoginAttempt = (ctx: HandlerContext, email: string) => ctx.services.rateLimits.hit('loginPerAccountIp', `${normalizeEmail(email).toLowerCase()}|${ctx.ip}`);

async function requirePassword(ctx: HandlerContext, password: string) {
  if (!(await ctx.services.accounts.passwordMatches(ctx.actor.uid, password))) throw new DomainError('INVALID_CREDENTIALS');
}

/** Sets the new session's cookies (registration, login, the first-run page) and answers its uid. */
export function startSession(ctx: HandlerContext, { uid, token }: { uid: number; token: string }) {
  for (const cookie of sessionCookies(uid, token, ctx.secure)) ctx.header('Set-Cookie', cookie, true);
  return { success: true, uid } as const;
}

/** A second factor's creation when the account has one (one at a time): 409 CONFLICT naming it. */
const alreadyOn = (existsAuthenticatorType: AuthenticatorExistsAnswer['existsAuthenticatorType']) =>
  new Conflict('CONFLICT', { isExists: true, existsAuthenticatorType, result: null } satisfies Partial<AuthenticatorExistsAnswer>);

/** SPEC §7 "User": accounts, sessions, profiles, credentials, second factors and the profile review. */
export const userHandlers: HandlerSet<'user/'> = {
  // ---- Guests: existence checks, registration, login, recovery ----
  'GET user/exists': async ({ uid }, { services }) => ({ success: true, exists: await services.catalogue.userExists(uid) }),
  'GET user/existsCheck': async ({ email }, { services }) => ({ success: true, exists: await services.accounts.emailExists(email) }),
  'GET user/checkUsername': async ({ username }, { services }) => ({ success: true, isAvailableUsername: await services.accounts.usernameAvailable(username) }),
  'POST user/checkInvitationCode': async ({ invitationCode }, { services }) =>
    ({ success: true, isAvailableInvitationCode: await services.invitations.isInvitationCodeAvailable(invitationCode) }),
  'POST user/requestSendVerificationCode': async ({ email, clientLanguage }, ctx) => mailToNewAddress(ctx, email, 'email', 'registration', clientLanguage),
  'POST user/registering': async (body, ctx) => {
    requireValidEmail(body.email, 'email');
    return startSession(ctx, await ctx.services.accounts.register({ ...body, language: body.clientLanguage ?? ctx.locale }));
  },
  'POST user/login': async (body, ctx) => {
    await countLoginAttempt(ctx, body.email);
    const session = await ctx.services.accounts.login(body.email, body.password, body);
    // A new session at every login; the one this browser held before is revoked, only once the
    // login succeeded: a wrong password (or anyone's forged form) leaves it signed in.
    await ctx.services.sessions.revokeSession(ctx.sessionToken);
    return startSession(ctx, session);
  },
  /** The login step: after a right password, mail the login code to an account with this authenticator. */
  'POST user/sendUserEmailAuthenticator': async ({ email, password, clientLanguage }, ctx) => {
    await countLoginAttempt(ctx, email);
    await ctx.services.accounts.sendLoginCode({ email, password, language: clientLanguage ?? ctx.locale });
    return { success: true, isCoolingDown: false };
  },
  'GET user/checkUserHave2FAByEmail': async ({ email }, { services }) => {
    const uid = await services.accounts.uidByEmail(email);
    return { success: true, ...(uid ? await services.secondFactor.secondFactorStatus(uid) : NO_SECOND_FACTOR) };
  },
  'POST user/logout': async (_input, ctx) => {
    await ctx.services.sessions.revokeSession(ctx.sessionToken);
    for (const cookie of clearedSessionCookies(ctx.secure)) ctx.header('Set-Cookie', cookie, true);
    return OK;
  },
  'GET user/check': async (_input, { viewer }) => ({ success: true, userTokenOk: !!(await viewer()) }),
  'POST user/requestSendForgotPasswordVerificationCode': async ({ email, clientLanguage }, { services, locale }) => {
    // The answer, its cool-down and the queries before it are the same whether or not the
    // address has an account (verification.ts sendResetCode): the account's address is looked
    // up for an unknown one too (uid 0 has none).
    const uid = await services.accounts.uidByEmail(email);
    const accountEmail = await services.credentials.emailOf(uid ?? 0);
    await services.verification.sendReset({ email: normalizeEmail(email), accountEmail: uid === null ? null : accountEmail, language: clientLanguage ?? locale });
    return CODE_SENT;
  },
  'POST user/forgot/password': async (body, { services }) => {
    await services.credentials.resetPassword(body);
    return OK;
  },
  'GET user/info': async ({ uid }, { services, viewer }) => ({ success: true, ...(await services.forViewer.profile(uid, await viewer())) }),

  // ---- One's own account ----
  'POST user/self': async (_input, { services, actor }) => {
    const result = await services.accounts.selfInfo(actor.uid);
    if (!result) throw new DomainError('UNAUTHORIZED');
    return { success: true, result };
  },
  'POST user/settings': async (_input, { services, actor }) => ({ success: true, userSettings: await services.userSettings.getUserSettings(actor.uid) }),
  'POST user/settings/update': async (change, { services, actor }) => ({ success: true, userSettings: await services.userSettings.updateUserSetting(actor.uid, change) }),
  'POST user/createInvitationCode': async (_input, { services, actor }) =>
    ({ success: true, isCoolingDown: false, invitationCodeResult: await services.invitations.createInvitationCode(actor) }),
  'GET user/myInvitationCode': async (_input, { services, actor }) => ({ success: true, invitationCodeResult: await services.invitations.listInvitationCodes(actor.uid) }),
  'POST user/update/info': async (body, { services, actor }) => {
    await services.profiles.updateProfile(actor.uid, body);
    return OK;
  },
  'GET user/avatar/preUpload': async (_input, { services, actor, origin, apiPrefix }) =>
    ({ success: true, result: services.images.grant(origin, apiPrefix, 'avatar', actor.uid) }),

  // ---- Credentials: each change is proven by a mailed code ----
  'POST user/requestSendChangePasswordVerificationCode': async ({ clientLanguage }, ctx) =>
    mailCode(ctx, await ctx.services.credentials.ownEmail(ctx.actor.uid), 'change-password', clientLanguage),
  'POST user/update/password': async (body, { services, actor, sessionToken }) => {
    await services.credentials.changePassword(actor.uid, sessionToken, body);
    return OK;
  },
  'POST user/requestSendChangeEmailVerificationCode': async ({ newEmail, clientLanguage }, ctx) => mailToNewAddress(ctx, newEmail, 'newEmail', 'change-email', clientLanguage),
  'POST user/update/email': async (body, { services, actor }) => {
    await services.credentials.changeEmail(actor.uid, body);
    return OK;
  },

  // ---- Second factors: TOTP or e-mail, one at a time ----
  'GET user/checkUserHave2FAByUUID': async (_input, { services, actor }) => ({ success: true, ...(await services.secondFactor.secondFactorStatus(actor.uid)) }),
  'POST user/createTotpAuthenticator': async (_input, { services, actor }) => {
    if ((await services.secondFactor.secondFactorStatus(actor.uid)).type === 'email') throw alreadyOn('email');
    const self = await services.accounts.selfInfo(actor.uid);
    const { otpAuth } = await services.totp.createTotp(actor.uid, self?.email ?? self?.username ?? String(actor.uid));
    if (!otpAuth) throw alreadyOn('totp');
    return { success: true, isExists: false, existsAuthenticatorType: null, result: { otpAuth } };
  },
  'POST user/confirmUserTotpAuthenticator': async ({ clientOtp }, { services, actor }) => ({ success: true, result: await services.totp.confirmTotp(actor.uid, clientOtp) }),
  'DELETE user/deleteTotpAuthenticatorByTotpVerificationCodeController': async ({ clientOtp, password }, ctx) => {
    await requirePassword(ctx, password);
    await ctx.services.totp.verifySecondFactor(ctx.actor.uid, clientOtp);
    await ctx.services.totp.deleteTotp(ctx.actor.uid);
    return OK;
  },
  'POST user/createEmailAuthenticator': async (_input, { services, actor }) => {
    const created = await services.secondFactor.createEmailAuthenticator(actor.uid);
    if (created.isExists) throw alreadyOn(created.existsAuthenticatorType);
    return { success: true, ...created };
  },
  'POST user/sendDeleteUserEmailAuthenticator': async ({ clientLanguage }, ctx) => mailSecondFactorCode(ctx, ctx.actor.uid, 'disable-2fa', clientLanguage),
  'DELETE user/deleteUserEmailAuthenticator': async ({ password, verificationCode }, ctx) => {
    await requirePassword(ctx, password);
    await ctx.services.secondFactor.deleteEmailAuthenticator(ctx.actor.uid, await ctx.services.credentials.ownEmail(ctx.actor.uid), verificationCode);
    return OK;
  },

  // ---- The administrators' profile review and the banned ----
  'GET user/adminGetUserInfo': async (query, { services }) =>
    ({ success: true, ...(await services.profiles.reviewQueue({ ...query, onlyUpdated: query.isOnlyShowUserInfoUpdatedAfterReview })) }),
  'POST user/approveUserInfo': async ({ uid }, { services, actor }) => done(services.profiles.approveProfile(uid, actor.uid)),
  'POST user/adminClearUserInfo': async ({ uid }, { services, actor }) => done(services.profiles.clearProfile(uid, actor.uid)),
  'GET user/blocked/info': async ({ page, pageSize }, { services }) => ({ success: true, ...(await services.accounts.blockedUsers(page, pageSize)) }),
};
