import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import * as C from '../../../src/lib/api/contract.ts';
import { validate } from '../validate.ts';
import { AppError } from '../errors.ts';
import { clientIp, getViewer, isSecureRequest, publicOrigin, requireMember, requireStaff, requireViewer, sessionToken } from '../auth.ts';
import { requestLocale } from '../request-locale.ts';
import { hitRateLimit, LIMITS } from '../../services/rate-limit.ts';
import { sendVerificationCode } from '../../services/verification.ts';
import * as accounts from '../../services/accounts.ts';
import * as invitations from '../../services/invitations.ts';
import * as totp from '../../auth/totp.ts';
import * as secondFactor from '../../auth/second-factor.ts';
import * as profiles from '../../services/profiles.ts';
import * as credentials from '../../services/credentials.ts';
import { getUserSettings, updateUserSetting } from '../../services/user-settings.ts';
import { grantUpload } from '../../media/image-service.ts';
import { apiBasePath } from '../create-app.ts';
import { clearedSessionCookies, revokeSession, sessionCookies } from '../../auth/sessions.ts';
import { isValidEmail, normalizeEmail, checkName } from '../../../src/lib/validation/account.ts';
import type { CatalogLocale } from '../../../src/lib/i18n/locales.ts';
import { createBlockListService } from '../../services/block-lists.ts';

/** SPEC §7 "User": accounts, sessions, existence checks and invitation codes. */
export function userRoutes() {
  const app = new Hono<AppEnv>();
  const json = async (c: { req: { json: () => Promise<unknown> } }) => c.req.json().catch(() => ({}));
  /** A mail's language: the one the form asked for, else the caller's. */
  const language = (c: { req: { raw: Request } }, requested?: string) => (requested ?? requestLocale(c.req.raw.headers)) as CatalogLocale;

  app.get('/exists', async (c) => {
    const { uid } = validate(C.userExistsQuery, c.req.query());
    const body: C.UserExistsResponse = { success: true, exists: await c.get('catalogue').userExists(uid) };
    return c.json(body);
  });

  app.get('/existsCheck', async (c) => {
    const { db } = c.get('deps');
    await hitRateLimit(db, `lookup:${clientIp(c)}`, LIMITS.lookupPerIp);
    const { email } = validate(C.emailQuery, c.req.query());
    return c.json({ success: true, exists: await accounts.emailExists(db, email) });
  });

  app.get('/checkUsername', async (c) => {
    const { db } = c.get('deps');
    await hitRateLimit(db, `lookup:${clientIp(c)}`, LIMITS.lookupPerIp);
    const { username } = validate(C.usernameQuery, c.req.query());
    const available = checkName(username) === null && !(await accounts.usernameTaken(db, username));
    return c.json({ success: true, isAvailableUsername: available });
  });

  app.post('/requestSendVerificationCode', async (c) => {
    const { db, mailer } = c.get('deps');
    const body = validate(C.requestCodeBody, await json(c));
    if (!isValidEmail(body.email)) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'email', message: 'invalid' }] });
    await hitRateLimit(db, `code:${clientIp(c)}`, LIMITS.codePerIp);
    const email = normalizeEmail(body.email);
    if (await accounts.emailExists(db, email)) throw new AppError('EMAIL_TAKEN');
    await sendVerificationCode(db, mailer, { email, purpose: 'registration', language: language(c, body.clientLanguage) });
    return c.json({ success: true, isCoolingDown: false });
  });

  app.post('/registering', async (c) => {
    const { db } = c.get('deps');
    await hitRateLimit(db, `register:${clientIp(c)}`, LIMITS.registerPerIp);
    const body = validate(C.registerBody, await json(c));
    if (!isValidEmail(body.email)) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'email', message: 'invalid' }] });
    const { uid, token } = await accounts.register(db, { ...body, language: language(c, body.clientLanguage) });
    for (const cookie of sessionCookies(uid, token, isSecureRequest(c))) c.header('Set-Cookie', cookie, { append: true });
    return c.json({ success: true, uid });
  });

  app.post('/login', async (c) => {
    const { db } = c.get('deps');
    const body = validate(C.loginBody, await json(c));
    await hitRateLimit(db, `login-ip:${clientIp(c)}`, LIMITS.loginPerIp);
    await hitRateLimit(db, `login-account:${normalizeEmail(body.email).toLowerCase()}`, LIMITS.loginPerAccount);
    // A new session at every login; the one this browser held before is revoked.
    await revokeSession(db, sessionToken(c));
    const { uid, token } = await accounts.login(db, body.email, body.password, body);
    for (const cookie of sessionCookies(uid, token, isSecureRequest(c))) c.header('Set-Cookie', cookie, { append: true });
    const body_: C.LoginResponse = { success: true, uid };
    return c.json(body_);
  });

  app.get('/logout', async (c) => {
    await revokeSession(c.get('deps').db, sessionToken(c));
    for (const cookie of clearedSessionCookies(isSecureRequest(c))) c.header('Set-Cookie', cookie, { append: true });
    return c.json({ success: true });
  });

  app.get('/check', async (c) => {
    const body: C.CheckResponse = { success: true, userTokenOk: !!(await getViewer(c)) };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });

  app.post('/self', async (c) => {
    const viewer = await requireViewer(c);
    const result = await accounts.selfInfo(c.get('deps').db, viewer.uid);
    if (!result) throw new AppError('UNAUTHORIZED');
    c.header('Cache-Control', 'no-store');
    const body: C.SelfResponse = { success: true, result };
    return c.json(body);
  });

  app.get('/info', async (c) => {
    const { uid } = validate(C.uidQuery, c.req.query());
    const viewer = await getViewer(c);
    const result = await profiles.publicProfile(c.get('deps').db, uid, viewer?.uid ?? null);
    if (!result) throw new AppError('NOT_FOUND');
    return c.json({ success: true, result, ...(await createBlockListService(c.get('deps').db).flags(viewer?.uid ?? null, uid)) });
  });

  app.post('/checkInvitationCode', async (c) => {
    const { db } = c.get('deps');
    await hitRateLimit(db, `lookup:${clientIp(c)}`, LIMITS.lookupPerIp);
    const { invitationCode } = validate(C.invitationCodeBody, await json(c));
    return c.json({ success: true, isAvailableInvitationCode: await invitations.isInvitationCodeAvailable(db, invitationCode) });
  });

  app.post('/createInvitationCode', async (c) => {
    const viewer = await requireMember(c);
    const invitationCodeResult = await invitations.createInvitationCode(c.get('deps').db, viewer);
    return c.json({ success: true, isCoolingDown: false, invitationCodeResult });
  });

  app.get('/myInvitationCode', async (c) => {
    const viewer = await requireViewer(c);
    return c.json({ success: true, invitationCodeResult: await invitations.listInvitationCodes(c.get('deps').db, viewer.uid) });
  });

  app.get('/blocked/info', async (c) => {
    await requireStaff(c);
    const { page, pageSize } = validate(C.pageQuery, c.req.query());
    return c.json({ success: true, ...(await accounts.blockedUsers(c.get('deps').db, page, pageSize)) });
  });

  // ---- Avatar: a signed, expiring upload URL of the site's own image service ----
  app.get('/avatar/preUpload', async (c) => {
    const viewer = await requireMember(c);
    const { signingSecret, config } = c.get('deps');
    const result = grantUpload(signingSecret, publicOrigin(c), apiBasePath(config.runtime.apiBase), 'avatar', viewer.uid);
    c.header('Cache-Control', 'no-store');
    const body: C.PreUploadResponse = { success: true, result };
    return c.json(body);
  });

  // ---- Settings (server copy for theme sync) ----
  app.post('/settings', async (c) => {
    const viewer = await requireViewer(c);
    c.header('Cache-Control', 'no-store');
    return c.json({ success: true, userSettings: await getUserSettings(c.get('deps').db, viewer.uid) });
  });

  app.post('/settings/update', async (c) => {
    const viewer = await requireViewer(c);
    const change = validate(C.userSettingsUpdateBody, await json(c));
    return c.json({ success: true, userSettings: await updateUserSetting(c.get('deps').db, viewer.uid, change) });
  });

  // ---- Credentials: each change is proven by a mailed code ----
  app.post('/requestSendChangePasswordVerificationCode', async (c) => {
    const viewer = await requireViewer(c);
    const { db, mailer } = c.get('deps');
    await hitRateLimit(db, `code:${clientIp(c)}`, LIMITS.codePerIp);
    const { clientLanguage } = validate(C.languageBody, await json(c));
    await sendVerificationCode(db, mailer, { email: await credentials.ownEmail(db, viewer.uid), purpose: 'change-password', language: language(c, clientLanguage) });
    return c.json({ success: true, isCoolingDown: false });
  });

  app.post('/update/password', async (c) => {
    const viewer = await requireViewer(c);
    await credentials.changePassword(c.get('deps').db, viewer.uid, sessionToken(c), validate(C.updatePasswordBody, await json(c)));
    return c.json({ success: true });
  });

  app.post('/requestSendForgotPasswordVerificationCode', async (c) => {
    const { db, mailer } = c.get('deps');
    await hitRateLimit(db, `code:${clientIp(c)}`, LIMITS.codePerIp);
    const body = validate(C.requestCodeBody, await json(c));
    // The answer is the same whether or not the address has an account.
    if (await accounts.emailExists(db, body.email)) {
      const email = await credentials.ownEmail(db, (await accounts.uidByEmail(db, body.email))!);
      await sendVerificationCode(db, mailer, { email, purpose: 'forgot-password', language: language(c, body.clientLanguage) });
    }
    return c.json({ success: true, isCoolingDown: false });
  });

  app.post('/forgot/password', async (c) => {
    const { db } = c.get('deps');
    await hitRateLimit(db, `register:${clientIp(c)}`, LIMITS.registerPerIp);
    await credentials.resetPassword(db, validate(C.forgotPasswordBody, await json(c)));
    return c.json({ success: true });
  });

  app.post('/requestSendChangeEmailVerificationCode', async (c) => {
    await requireViewer(c);
    const { db, mailer } = c.get('deps');
    await hitRateLimit(db, `code:${clientIp(c)}`, LIMITS.codePerIp);
    const body = validate(C.changeEmailCodeBody, await json(c));
    if (!isValidEmail(body.newEmail)) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'newEmail', message: 'invalid' }] });
    if (await accounts.emailExists(db, body.newEmail)) throw new AppError('EMAIL_TAKEN');
    await sendVerificationCode(db, mailer, { email: normalizeEmail(body.newEmail), purpose: 'change-email', language: language(c, body.clientLanguage) });
    return c.json({ success: true, isCoolingDown: false });
  });

  app.post('/update/email', async (c) => {
    const viewer = await requireViewer(c);
    await credentials.changeEmail(c.get('deps').db, viewer.uid, validate(C.updateEmailBody, await json(c)));
    return c.json({ success: true });
  });

  // ---- Profile and the administrators' review ----
  app.post('/update/info', async (c) => {
    const viewer = await requireMember(c);
    await profiles.updateProfile(c.get('deps').db, viewer.uid, validate(C.updateInfoBody, await json(c)));
    return c.json({ success: true });
  });

  app.get('/adminGetUserInfo', async (c) => {
    await requireStaff(c);
    const q = validate(C.reviewQuery, c.req.query());
    const page = await profiles.reviewQueue(c.get('deps').db, { ...q, onlyUpdated: q.isOnlyShowUserInfoUpdatedAfterReview });
    c.header('Cache-Control', 'no-store');
    return c.json({ success: true, ...page });
  });

  app.post('/approveUserInfo', async (c) => {
    await requireStaff(c);
    await profiles.approveProfile(c.get('deps').db, validate(C.uidBody, await json(c)).uid);
    return c.json({ success: true });
  });

  app.post('/adminClearUserInfo', async (c) => {
    await requireStaff(c);
    await profiles.clearProfile(c.get('deps').db, validate(C.uidBody, await json(c)).uid);
    return c.json({ success: true });
  });

  // ---- Two-factor authentication (TOTP) ----
  app.post('/createTotpAuthenticator', async (c) => {
    const viewer = await requireViewer(c);
    const { db } = c.get('deps');
    // One second factor at a time.
    if ((await secondFactor.secondFactorStatus(db, viewer.uid)).type === 'email') {
      return c.json({ success: false, isExists: true, existsAuthenticatorType: 'email', result: null }, 409);
    }
    const self = await accounts.selfInfo(db, viewer.uid);
    const created = await totp.createTotp(db, viewer.uid, self?.email ?? self?.username ?? String(viewer.uid));
    const body: C.TotpCreateResponse = {
      success: !created.isExists, isExists: created.isExists, existsAuthenticatorType: created.existsAuthenticatorType,
      result: created.otpAuth ? { otpAuth: created.otpAuth } : null,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body, created.isExists ? 409 : 200);
  });

  app.post('/confirmUserTotpAuthenticator', async (c) => {
    const viewer = await requireViewer(c);
    const { clientOtp } = validate(C.totpConfirmBody, await json(c));
    const body: C.TotpConfirmResponse = { success: true, result: await totp.confirmTotp(c.get('deps').db, viewer.uid, clientOtp) };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });

  app.delete('/deleteTotpAuthenticatorByTotpVerificationCodeController', async (c) => {
    const viewer = await requireViewer(c);
    const { db } = c.get('deps');
    const { clientOtp, password } = validate(C.totpDeleteBody, await json(c));
    if (!(await accounts.passwordMatches(db, viewer.uid, password))) throw new AppError('INVALID_CREDENTIALS');
    await totp.verifySecondFactor(db, viewer.uid, clientOtp);
    await totp.deleteTotp(db, viewer.uid);
    return c.json({ success: true });
  });

  app.get('/checkUserHave2FAByUUID', async (c) => {
    const viewer = await requireViewer(c);
    const body: C.Have2FAResponse = { success: true, ...(await secondFactor.secondFactorStatus(c.get('deps').db, viewer.uid)) };
    return c.json(body);
  });

  app.get('/checkUserHave2FAByEmail', async (c) => {
    const { db } = c.get('deps');
    await hitRateLimit(db, `lookup:${clientIp(c)}`, LIMITS.lookupPerIp);
    const { email } = validate(C.emailQuery, c.req.query());
    const uid = await accounts.uidByEmail(db, email);
    const status = uid ? await secondFactor.secondFactorStatus(db, uid) : { have2FA: false, type: 'none' as const, totpCreationDateTime: null };
    const body: C.Have2FAResponse = { success: true, ...status };
    return c.json(body);
  });

  // ---- Two-factor authentication by e-mail ----
  app.post('/createEmailAuthenticator', async (c) => {
    const viewer = await requireViewer(c);
    const created = await secondFactor.createEmailAuthenticator(c.get('deps').db, viewer.uid);
    return c.json({ success: !created.isExists, ...created }, created.isExists ? 409 : 200);
  });

  /** The login step: after a right password, mail the login code to an account with this authenticator. */
  app.post('/sendUserEmailAuthenticator', async (c) => {
    const { db, mailer } = c.get('deps');
    const body = validate(C.sendLoginCodeBody, await json(c));
    await hitRateLimit(db, `login-ip:${clientIp(c)}`, LIMITS.loginPerIp);
    await hitRateLimit(db, `login-account:${normalizeEmail(body.email).toLowerCase()}`, LIMITS.loginPerAccount);
    const uid = await accounts.uidByEmail(db, body.email);
    if (uid === null || !(await accounts.passwordMatches(db, uid, body.password))) throw new AppError('INVALID_CREDENTIALS');
    if ((await secondFactor.secondFactorStatus(db, uid)).type !== 'email') throw new AppError('NOT_FOUND');
    await sendVerificationCode(db, mailer, { email: await credentials.ownEmail(db, uid), purpose: 'login', language: language(c, body.clientLanguage) });
    return c.json({ success: true, isCoolingDown: false });
  });

  app.post('/sendDeleteUserEmailAuthenticator', async (c) => {
    const viewer = await requireViewer(c);
    const { db, mailer } = c.get('deps');
    const { clientLanguage } = validate(C.languageBody, await json(c));
    if ((await secondFactor.secondFactorStatus(db, viewer.uid)).type !== 'email') throw new AppError('NOT_FOUND');
    await sendVerificationCode(db, mailer, { email: await credentials.ownEmail(db, viewer.uid), purpose: 'disable-2fa', language: language(c, clientLanguage) });
    return c.json({ success: true, isCoolingDown: false });
  });

  app.delete('/deleteUserEmailAuthenticator', async (c) => {
    const viewer = await requireViewer(c);
    const { db } = c.get('deps');
    const { password, verificationCode } = validate(C.deleteEmailAuthenticatorBody, await json(c));
    if (!(await accounts.passwordMatches(db, viewer.uid, password))) throw new AppError('INVALID_CREDENTIALS');
    await secondFactor.deleteEmailAuthenticator(db, viewer.uid, await credentials.ownEmail(db, viewer.uid), verificationCode);
    return c.json({ success: true });
  });

  return app;
}
