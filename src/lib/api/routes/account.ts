import { defineRoutes } from '../route.ts';
import * as C from '../contracts/account.ts';
import { codeSentResponse, selfResponse } from '../contracts/user.ts';
import { okResponse } from '../contracts/common.ts';
import { MAILING_ERRORS, perIp, type FamilyEntry } from './user.ts';

const own = <const D extends FamilyEntry>(summary: string, def: D) =>
  ({ tag: 'account', summary, permission: 'account.self', ...def }) as const;

/**
 * SPEC §7 "User", one's own account: its information and settings, invitation codes, the public
 * profile and avatar, credentials (each change proven by a mailed code) and the second factor.
 */
export const accountRoutes = defineRoutes({
  'POST user/self': own('The logged-in user’s own account, private fields included.', {
    response: selfResponse,
    cache: 'no-store',
  }),
  'POST user/settings': own('The member’s settings (theme, history recording), defaults until changed.', {
    response: C.userSettingsResponse,
    cache: 'no-store',
  }),
  'POST user/settings/update': own('Change one setting; answers all of them.', {
    body: C.userSettingsUpdateBody,
    response: C.userSettingsResponse,
  }),
  'POST user/createInvitationCode': {
    tag: 'account',
    summary: 'A new invitation code: one a week, from an account a week old (staff without limit).',
    permission: 'invitation.create',
    response: C.invitationCodeCreateResponse,
    errors: ['ACCOUNT_TOO_NEW', 'COOLING_DOWN'],
  },
  'GET user/myInvitationCode': own('The invitation codes the member created, newest first.', {
    response: C.invitationCodeListResponse,
  }),
  'POST user/update/info': {
    tag: 'account',
    summary: 'Change any part of the public profile; the profile goes back into the review queue.',
    permission: 'profile.update',
    body: C.updateInfoBody,
    response: okResponse,
    errors: ['USERNAME_TAKEN'],
    maxBodyBytes: 32 * 1024,
  },
  'GET user/avatar/preUpload': {
    tag: 'account',
    summary: 'A signed, expiring address of the image service for a new avatar.',
    permission: 'profile.update',
    response: C.preUploadResponse,
    cache: 'no-store',
  },
  'POST user/requestSendChangePasswordVerificationCode': own(
    'Mail a code to the account’s address to change the password.',
    { body: C.languageBody, response: codeSentResponse, rateLimits: perIp('codePerIp'), errors: MAILING_ERRORS },
  ),
  'POST user/update/password': own(
    'Change the password with the old one and a mailed code; other sessions are signed out.',
    {
      body: C.updatePasswordBody,
      response: okResponse,
      errors: ['INVALID_CREDENTIALS', 'WEAK_PASSWORD', 'VERIFICATION_CODE_INVALID'],
    },
  ),
  'POST user/requestSendChangeEmailVerificationCode': own('Mail a code to a new address, which has no account yet.', {
    body: C.changeEmailCodeBody,
    response: codeSentResponse,
    rateLimits: perIp('codePerIp'),
    errors: ['EMAIL_TAKEN', ...MAILING_ERRORS],
  }),
  'POST user/update/email': own('Change the address with the password and the code mailed to the new one.', {
    body: C.updateEmailBody,
    response: okResponse,
    errors: ['INVALID_CREDENTIALS', 'EMAIL_TAKEN', 'VERIFICATION_CODE_INVALID'],
  }),
  'GET user/checkUserHave2FAByUUID': own('Which second factor the account has.', { response: C.have2FAResponse }),
  'POST user/createTotpAuthenticator': own(
    'Start TOTP setup: a new secret as an otpauth:// URI (409 CONFLICT naming the factor the account has, if any).',
    { response: C.totpCreateResponse, cache: 'no-store', errors: ['CONFLICT'] },
  ),
  'POST user/confirmUserTotpAuthenticator': own(
    'Confirm TOTP setup with a first code; answers the backup and recovery codes, once.',
    { body: C.totpConfirmBody, response: C.totpConfirmResponse, cache: 'no-store', errors: ['SECOND_FACTOR_INVALID'] },
  ),
  'DELETE user/deleteTotpAuthenticatorByTotpVerificationCodeController': own(
    'Turn TOTP off with the password and a code.',
    {
      body: C.totpDeleteBody,
      response: okResponse,
      errors: ['INVALID_CREDENTIALS', 'SECOND_FACTOR_INVALID', 'SECOND_FACTOR_LOCKED'],
    },
  ),
  'POST user/createEmailAuthenticator': own(
    'Turn the e-mail second factor on (409 CONFLICT naming the factor the account has, if any).',
    { response: C.emailAuthenticatorCreateResponse, errors: ['CONFLICT'] },
  ),
  'POST user/sendDeleteUserEmailAuthenticator': own('Mail the code that turns the e-mail second factor off.', {
    body: C.languageBody,
    response: codeSentResponse,
    errors: MAILING_ERRORS,
  }),
  'DELETE user/deleteUserEmailAuthenticator': own(
    'Turn the e-mail second factor off with the password and the mailed code.',
    {
      body: C.deleteEmailAuthenticatorBody,
      response: okResponse,
      errors: ['INVALID_CREDENTIALS', 'VERIFICATION_CODE_INVALID'],
    },
  ),
});
