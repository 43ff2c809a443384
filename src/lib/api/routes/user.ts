import { defineRoutes, type RateRule, type RouteDef } from '../route.ts';
import * as C from '../contracts/user.ts';
import { forgotPasswordBody, have2FAResponse } from '../contracts/account.ts';
import { okResponse } from '../contracts/common.ts';

/** What a mailed code may answer beside success (the address's cool-down, its daily cap). */
export const MAILING_ERRORS = ['COOLING_DOWN', 'DAILY_LIMIT'] as const;
export const perIp = (limit: RateRule['limit']) => [{ limit, by: 'ip' }] as const;
/** An entry of the user family with its tag and permission given. */
export type FamilyEntry = Omit<RouteDef, 'tag' | 'summary' | 'permission'>;
const guest = <const D extends FamilyEntry>(summary: string, def: D) =>
  ({ tag: 'user', summary, permission: 'account.guest', ...def }) as const;

/**
 * SPEC §7 "User", the calls a guest makes: existence checks, registration, login and logout,
 * password recovery, and public profiles. Each lookup and each mailed code is limited per address;
 * login is also limited per account (by the handler: the account is in the body).
 */
export const userRoutes = defineRoutes({
  'GET user/exists': guest('Whether a user with this uid exists.', {
    query: C.userExistsQuery,
    response: C.userExistsResponse,
  }),
  'GET user/existsCheck': guest('Whether an account has this e-mail address (registration form).', {
    query: C.emailQuery,
    response: C.emailExistsResponse,
    rateLimits: perIp('lookupPerIp'),
  }),
  'GET user/checkUsername': guest('Whether a username is well formed and free.', {
    query: C.usernameQuery,
    response: C.usernameAvailableResponse,
    rateLimits: perIp('lookupPerIp'),
  }),
  'POST user/checkInvitationCode': guest('Whether an invitation code can still be used.', {
    body: C.invitationCodeBody,
    response: C.invitationCodeAvailableResponse,
    rateLimits: perIp('lookupPerIp'),
  }),
  'POST user/requestSendVerificationCode': guest(
    'Mail a registration code to an address that has no account (in clientLanguage, else the caller’s).',
    {
      body: C.requestCodeBody,
      response: C.codeSentResponse,
      rateLimits: perIp('codePerIp'),
      errors: ['EMAIL_TAKEN', ...MAILING_ERRORS],
    },
  ),
  'POST user/registering': guest(
    'Create an account with a mailed code and an invitation code; logs it in (Set-Cookie).',
    {
      body: C.registerBody,
      response: C.loginResponse,
      rateLimits: perIp('registerPerIp'),
      errors: [
        'EMAIL_TAKEN',
        'USERNAME_TAKEN',
        'WEAK_PASSWORD',
        'VERIFICATION_CODE_INVALID',
        'INVITATION_CODE_INVALID',
      ],
    },
  ),
  'POST user/login': guest(
    'Log in with e-mail, password and the second factor if any; a new session replaces the browser’s (Set-Cookie).',
    {
      body: C.loginBody,
      response: C.loginResponse,
      rateLimits: perIp('loginPerIp'),
      errors: [
        'INVALID_CREDENTIALS',
        'SECOND_FACTOR_REQUIRED',
        'SECOND_FACTOR_INVALID',
        'SECOND_FACTOR_LOCKED',
        'VERIFICATION_CODE_INVALID',
      ],
    },
  ),
  'POST user/sendUserEmailAuthenticator': guest(
    'Login step of an account with the e-mail second factor: after the right password, mail the login code.',
    {
      body: C.sendLoginCodeBody,
      response: C.codeSentResponse,
      rateLimits: perIp('loginPerIp'),
      errors: ['INVALID_CREDENTIALS', ...MAILING_ERRORS],
    },
  ),
  'GET user/checkUserHave2FAByEmail': guest(
    'Which second factor the account of an address has (none for an unknown address).',
    { query: C.emailQuery, response: have2FAResponse, rateLimits: perIp('lookupPerIp') },
  ),
  'POST user/logout': guest(
    'End this browser’s session and clear its cookies (a POST, so that no link or image on another site can).',
    { response: okResponse },
  ),
  'GET user/check': guest('Whether the session cookies are valid.', { response: C.checkResponse, cache: 'no-store' }),
  'POST user/requestSendForgotPasswordVerificationCode': guest(
    'Mail a password reset code; the answer is the same whether or not the address has an account.',
    { body: C.requestCodeBody, response: C.codeSentResponse, rateLimits: perIp('codePerIp'), errors: MAILING_ERRORS },
  ),
  'POST user/forgot/password': guest('Set a new password with a mailed code; every session is signed out.', {
    body: forgotPasswordBody,
    response: okResponse,
    rateLimits: perIp('registerPerIp'),
    errors: ['VERIFICATION_CODE_INVALID', 'WEAK_PASSWORD'],
  }),
  'GET user/info': {
    tag: 'user',
    summary: 'A user’s public profile, with the block flags between the viewer and them.',
    permission: 'catalogue.read',
    query: C.uidQuery,
    response: C.userInfoResponse,
  },
});
