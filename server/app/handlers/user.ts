import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';
import { Conflict, NotFound } from '../../domain/errors.ts';
import { clearedSessionCookies, sessionCookies } from '../../auth/sessions.ts';
import { normalizeEmail } from '#lib/validation/account.ts';
import { requireValidEmail } from '#server/services/account-flows.ts';
import type { VerificationPurpose } from '../../db/schema.ts';
import type { CatalogLocale } from '#lib/i18n/locales.ts';

const CODE_SENT = { success: true, isCoolingDown: false } as const;

/** Mails a code, in the language the form asked for, else the caller's. */
async function mailCode(
  ctx: HandlerContext,
  email: string,
  purpose: VerificationPurpose,
  requested: CatalogLocale | undefined,
) {
  await ctx.services.verification.send({ email, purpose, language: requested ?? ctx.locale });
  return CODE_SENT;
}

/** A code to an address that must be new to the site (registration, a change of address). */
async function mailToNewAddress(
  ctx: HandlerContext,
  given: string,
  field: string,
  purpose: VerificationPurpose,
  requested: CatalogLocale | undefined,
) {
  requireValidEmail(given, field);
  const email = normalizeEmail(given);
  if (await ctx.services.accounts.emailExists(email)) throw new Conflict('EMAIL_TAKEN');
  return mailCode(ctx, email, purpose, requested);
}

/** A code for the e-mail second factor (to log in, or to turn it off): only accounts that have it. */
async function mailSecondFactorCode(
  ctx: HandlerContext,
  uid: number,
  purpose: VerificationPurpose,
  requested: CatalogLocale | undefined,
) {
  if ((await ctx.services.secondFactor.secondFactorStatus(uid)).type !== 'email') throw new NotFound();
  return mailCode(ctx, await ctx.services.credentials.ownEmail(uid), purpose, requested);
}

/** Sets the new session's cookies (registration, login, the first-run page) and answers its uid. */
export async function startSession(
  ctx: Pick<HandlerContext, 'header' | 'secure'>,
  session: Promise<{ uid: number; token: string }>,
) {
  const { uid, token } = await session;
  for (const cookie of sessionCookies(uid, token, ctx.secure)) ctx.header('Set-Cookie', cookie, true);
  return { success: true, uid } as const;
}

/** Clears the session's cookies once `work` (the session's revocation) is done. */
async function endSession(ctx: Pick<HandlerContext, 'header' | 'secure'>, work: Promise<void>) {
  await work;
  for (const cookie of clearedSessionCookies(ctx.secure)) ctx.header('Set-Cookie', cookie, true);
  return { success: true } as const;
}

/** SPEC §7 "User": accounts, sessions, profiles, credentials, second factors and the profile review. */
export const userHandlers: HandlerSet<'user/'> = {
  // ---- Guests: existence checks, registration, login, recovery ----
  'GET user/exists': async ({ uid }, { services }) => ({
    success: true,
    exists: await services.catalogue.userExists(uid),
  }),
  'GET user/existsCheck': async ({ email }, { services }) => ({
    success: true,
    exists: await services.accounts.emailExists(email),
  }),
  'GET user/checkUsername': async ({ username }, { services }) => ({
    success: true,
    isAvailableUsername: await services.accounts.usernameAvailable(username),
  }),
  'POST user/checkInvitationCode': async ({ invitationCode }, { services }) => ({
    success: true,
    isAvailableInvitationCode: await services.invitations.isInvitationCodeAvailable(invitationCode),
  }),
  'POST user/requestSendVerificationCode': async ({ email, clientLanguage }, ctx) =>
    mailToNewAddress(ctx, email, 'email', 'registration', clientLanguage),
  'POST user/registering': async (body, ctx) =>
    startSession(ctx, ctx.services.accountFlows.register({ ...body, language: body.clientLanguage ?? ctx.locale })),
  'POST user/login': async ({ email, password, clientOtp, verificationCode }, ctx) =>
    startSession(
      ctx,
      ctx.services.accountFlows.login(
        { email, password, clientOtp, verificationCode },
        { ip: ctx.ip, replacing: ctx.sessionToken },
      ),
    ),
  /** The login step: after a right password, mail the login code to an account with this authenticator. */
  'POST user/sendUserEmailAuthenticator': async ({ email, password, clientLanguage }, ctx) =>
    ctx.services.accountFlows
      .sendLoginCode({ email, password, language: clientLanguage ?? ctx.locale }, ctx.ip)
      .then(() => CODE_SENT),
  'GET user/checkUserHave2FAByEmail': async ({ email }, { services }) => ({
    success: true,
    ...(await services.accountFlows.secondFactorByEmail(email)),
  }),
  'POST user/logout': async (_input, ctx) => endSession(ctx, ctx.services.sessions.revokeSession(ctx.sessionToken)),
  'GET user/check': async (_input, { viewer }) => ({ success: true, userTokenOk: !!(await viewer()) }),
  // The same answer and the same queries whether or not the address has an account.
  'POST user/requestSendForgotPasswordVerificationCode': async ({ email, clientLanguage }, { services, locale }) =>
    services.accountFlows.sendResetCode(email, clientLanguage ?? locale).then(() => CODE_SENT),
  'POST user/forgot/password': async (body, { services }) => done(services.credentials.resetPassword(body)),
  'GET user/info': async ({ uid }, { services, viewer }) => ({
    success: true,
    ...(await services.forViewer.profile(uid, await viewer())),
  }),

  // ---- One's own account ----
  'POST user/self': async (_input, { services, actor }) => ({
    success: true,
    result: await services.accountFlows.self(actor.uid),
  }),
  'POST user/settings': async (_input, { services, actor }) => ({
    success: true,
    userSettings: await services.userSettings.getUserSettings(actor.uid),
  }),
  'POST user/settings/update': async (change, { services, actor }) => ({
    success: true,
    userSettings: await services.userSettings.updateUserSetting(actor.uid, change),
  }),
  'POST user/createInvitationCode': async (_input, { services, actor }) => ({
    success: true,
    isCoolingDown: false,
    invitationCodeResult: await services.invitations.createInvitationCode(actor),
  }),
  'GET user/myInvitationCode': async (_input, { services, actor }) => ({
    success: true,
    invitationCodeResult: await services.invitations.listInvitationCodes(actor.uid),
  }),
  'POST user/update/info': async (body, { services, actor }) => done(services.profiles.updateProfile(actor.uid, body)),
  'GET user/avatar/preUpload': async (_input, { services, actor, origin, apiPrefix }) => ({
    success: true,
    result: services.images.grant(origin, apiPrefix, 'avatar', actor.uid),
  }),

  // ---- Credentials: each change is proven by a mailed code ----
  'POST user/requestSendChangePasswordVerificationCode': async ({ clientLanguage }, ctx) =>
    mailCode(ctx, await ctx.services.credentials.ownEmail(ctx.actor.uid), 'change-password', clientLanguage),
  'POST user/update/password': async (body, { services, actor, sessionToken }) =>
    done(services.credentials.changePassword(actor.uid, sessionToken, body)),
  'POST user/requestSendChangeEmailVerificationCode': async ({ newEmail, clientLanguage }, ctx) =>
    mailToNewAddress(ctx, newEmail, 'newEmail', 'change-email', clientLanguage),
  'POST user/update/email': async (body, { services, actor }) =>
    done(services.credentials.changeEmail(actor.uid, body)),

  // ---- Second factors: TOTP or e-mail, one at a time ----
  'GET user/checkUserHave2FAByUUID': async (_input, { services, actor }) => ({
    success: true,
    ...(await services.secondFactor.secondFactorStatus(actor.uid)),
  }),
  'POST user/createTotpAuthenticator': async (_input, { services, actor }) => ({
    success: true,
    ...(await services.accountFlows.createTotp(actor.uid)),
  }),
  'POST user/confirmUserTotpAuthenticator': async ({ clientOtp }, { services, actor }) => ({
    success: true,
    result: await services.totp.confirmTotp(actor.uid, clientOtp),
  }),
  'DELETE user/deleteTotpAuthenticatorByTotpVerificationCodeController': async (
    { clientOtp, password },
    { services, actor },
  ) => done(services.accountFlows.deleteTotp(actor.uid, password, clientOtp)),
  'POST user/createEmailAuthenticator': async (_input, { services, actor }) => ({
    success: true,
    ...(await services.accountFlows.createEmailAuthenticator(actor.uid)),
  }),
  'POST user/sendDeleteUserEmailAuthenticator': async ({ clientLanguage }, ctx) =>
    mailSecondFactorCode(ctx, ctx.actor.uid, 'disable-2fa', clientLanguage),
  'DELETE user/deleteUserEmailAuthenticator': async ({ password, verificationCode }, { services, actor }) =>
    done(services.accountFlows.deleteEmailAuthenticator(actor.uid, password, verificationCode)),

  // ---- The administrators' profile review and the banned ----
  'GET user/adminGetUserInfo': async (query, { services }) => ({
    success: true,
    ...(await services.profiles.reviewQueue({ ...query, onlyUpdated: query.isOnlyShowUserInfoUpdatedAfterReview })),
  }),
  'POST user/approveUserInfo': async ({ uid }, { services, actor }) =>
    done(services.profiles.approveProfile(uid, actor.uid)),
  'POST user/adminClearUserInfo': async ({ uid }, { services, actor }) =>
    done(services.profiles.clearProfile(uid, actor.uid)),
  'GET user/blocked/info': async ({ page, pageSize }, { services }) => ({
    success: true,
    ...(await services.accounts.blockedUsers(page, pageSize)),
  }),
};
