import type { Repositories } from '../repositories/index.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import { hashPassword, verifyPassword, COMMON_PASSWORDS } from '../auth/passwords.ts';
import { createSession } from '../auth/sessions.ts';
import { can, normalizeRoles, refusal, type Actor } from '../../src/lib/policy/policy.ts';
import { checkVerificationCode, consumeVerificationCode, sendVerificationCode } from './verification.ts';
import { claimInvitationCode } from './invitations.ts';
import { recordStaffAction } from './moderation-log.ts';
import {
  checkLoginSecondFactor,
  loginCode,
  loginSecondFactor,
  secondFactorStatus,
  type LoginCodes,
} from '../auth/second-factor.ts';
import { countHit, limitReached, LIMITS } from './rate-limit.ts';
import type { Mailer } from '../mail/mailer.ts';
import { checkName, checkPassword, normalizeEmail, normalizeName } from '../../src/lib/validation/account.ts';
import type { CatalogLocale } from '../../src/lib/i18n/locales.ts';

type UserRepositories = Pick<Repositories, 'users'>;

export async function emailExists(repositories: UserRepositories, email: string): Promise<boolean> {
  return (await uidByEmail(repositories, email)) !== null;
}

/** Exact, case-insensitive comparison of the normalised name (never a pattern match). */
export function usernameTaken(repositories: UserRepositories, username: string): Promise<boolean> {
  return repositories.users.usernameExists(normalizeName(username));
}

/** user/checkUsername: a well-formed name nobody has. */
export async function usernameAvailable(repositories: UserRepositories, username: string): Promise<boolean> {
  return checkName(username) === null && !(await usernameTaken(repositories, username));
}

export interface NewAccount {
  email: string;
  password: string;
  username: string;
  userNickname?: string;
  roles?: string[];
  language?: CatalogLocale;
  /**
   * Whether the profile starts out reviewed (out of the profile review queue): accounts the
   * operator made (the CLI, the demo uploaders) and staff accounts do; a registration does not.
   */
  reviewed?: boolean;
}

/** Validates and inserts a user (used by registration and by the CLI). */
export async function insertAccount(repositories: UserRepositories, input: NewAccount): Promise<number> {
  const email = normalizeEmail(input.email);
  const username = normalizeName(input.username);
  const nickname = input.userNickname ? normalizeName(input.userNickname) : null;
  const issues: Array<{ path: string; message: string }> = [];
  const nameProblem = checkName(username);
  if (nameProblem) issues.push({ path: 'username', message: nameProblem });
  const nickProblem = nickname === null ? null : checkName(nickname);
  if (nickProblem) issues.push({ path: 'userNickname', message: nickProblem });
  if (issues.length) throw new DomainError('VALIDATION_FAILED', { issues });
  const passwordProblem = checkPassword(input.password, COMMON_PASSWORDS, [email.split('@')[0], username]);
  if (passwordProblem)
    throw new DomainError('WEAK_PASSWORD', { issues: [{ path: 'password', message: passwordProblem }] });
  if (await emailExists(repositories, email)) throw new DomainError('EMAIL_TAKEN');
  if (await usernameTaken(repositories, username)) throw new DomainError('USERNAME_TAKEN');
  const roles = normalizeRoles(input.roles ?? ['user']);
  const created = await repositories.users.insert({
    email,
    username,
    user_nickname: nickname,
    password_hash: await hashPassword(input.password),
    roles,
    interface_language: input.language ?? 'zhs',
    is_updated_after_review: !(input.reviewed ?? can({ uid: 0, roles }, 'user.review')),
  });
  // Two registrations racing for one name or address: the unique index decides.
  if ('taken' in created) throw new DomainError(created.taken === 'email' ? 'EMAIL_TAKEN' : 'USERNAME_TAKEN');
  return created.uid;
}

/** Registration: the mailed code and the invitation code are both spent only if the account is made. */
export async function register(
  repositories: Repositories,
  input: NewAccount & { verificationCode: string; invitationCode: string },
) {
  const codeId = await checkVerificationCode(repositories, {
    email: normalizeEmail(input.email),
    purpose: 'registration',
    code: input.verificationCode,
  });
  return repositories.transaction(async (r) => {
    const uid = await insertAccount(r, { ...input, roles: ['user'] });
    await claimInvitationCode(r, input.invitationCode, uid);
    await consumeVerificationCode(r, codeId);
    return { uid, token: await createSession(r, uid) };
  });
}

const accountKey = (email: string) => normalizeEmail(email).toLowerCase();
const failuresKey = (email: string) => `login-failures:${accountKey(email)}`;

/** An account whose password was guessed wrong too often today, from anywhere (LIMITS.loginFailuresPerAccount). */
const underAttack = (repositories: Repositories, email: string) =>
  limitReached(repositories, failuresKey(email), LIMITS.loginFailuresPerAccount);
const countWrongPassword = (repositories: Repositories, email: string) =>
  countHit(repositories, failuresKey(email), LIMITS.loginFailuresPerAccount);

/**
 * The second factor's refusals that a login under attack answers as it does a wrong password
 * (PASSWORD_OR_CODE_INVALID), a TOTP lock included: otherwise they would tell the password was right.
 */
const SECOND_FACTOR_FAILURES = new Set(['SECOND_FACTOR_INVALID', 'SECOND_FACTOR_LOCKED', 'VERIFICATION_CODE_INVALID']);

async function accountByEmail(repositories: UserRepositories, email: string) {
  const uid = await uidByEmail(repositories, email);
  return uid === null ? undefined : repositories.users.credentials(uid);
}

/**
 * Login by e-mail and password, then the second factor when the account has one. The same
 * answer whether the address or the password is wrong; the second factor is asked for only
 * after the password is right.
 *
 * An account under attack (wrong passwords from many addresses) is not locked, which would lock
 * its owner out too: it asks every login for a second factor first, the mailed login code for an
 * account without one, and says nothing of the password until one comes with it; then a wrong
 * password and a wrong code answer alike, so guessing learns nothing there.
 */
export async function login(repositories: Repositories, email: string, password: string, codes: LoginCodes = {}) {
  const user = await accountByEmail(repositories, email);
  const attacked = await underAttack(repositories, email);
  const type = await loginSecondFactor(repositories, user?.uid ?? null, attacked);
  if (attacked) loginCode(type!, codes);
  if (!(await verifyPassword(user?.password_hash, password)) || !user) {
    await countWrongPassword(repositories, email);
    throw new DomainError(attacked ? 'PASSWORD_OR_CODE_INVALID' : 'INVALID_CREDENTIALS');
  }
  try {
    await checkLoginSecondFactor(repositories, user.uid, user.email!, type, codes);
  } catch (error) {
    if (attacked && error instanceof DomainError && SECOND_FACTOR_FAILURES.has(error.code))
      throw new DomainError('PASSWORD_OR_CODE_INVALID', { cause: error });
    throw error;
  }
  return { uid: user.uid, token: await createSession(repositories, user.uid) };
}

/**
 * user/sendUserEmailAuthenticator: after the right password, mails the login code to an account
 * with the e-mail authenticator, or to any account under attack (see login). Under attack the
 * answer is the same whatever happened, so it tells nothing of the password either.
 */
export async function sendLoginCode(
  repositories: Repositories,
  mailer: Mailer,
  input: { email: string; password: string; language: CatalogLocale },
): Promise<void> {
  const user = await accountByEmail(repositories, input.email);
  const attacked = await underAttack(repositories, input.email);
  if (!(await verifyPassword(user?.password_hash, input.password)) || !user) {
    await countWrongPassword(repositories, input.email);
    if (attacked) return;
    throw new DomainError('INVALID_CREDENTIALS');
  }
  if ((await loginSecondFactor(repositories, user.uid, attacked)) !== 'email' || !user.email) {
    if (attacked) return;
    throw new DomainError('NOT_FOUND');
  }
  try {
    await sendVerificationCode(repositories, mailer, { email: user.email, purpose: 'login', language: input.language });
  } catch (error) {
    // A cool-down would tell that the password was right: the owner resends after it anyway.
    if (attacked && error instanceof DomainError && (error.code === 'COOLING_DOWN' || error.code === 'DAILY_LIMIT'))
      return;
    throw error;
  }
}

/** The logged-in user's own account (user/self): private fields only for the owner. */
export async function selfInfo(repositories: Pick<Repositories, 'users' | 'secondFactors'>, uid: number) {
  const u = await repositories.users.self(uid);
  if (!u) return null;
  const { type } = await secondFactorStatus(repositories, uid);
  return {
    uid: u.uid,
    email: u.email,
    roles: u.roles,
    authenticatorType: type,
    userCreateDateTime: new Date(u.created_at).getTime(),
    username: u.username,
    userNickname: u.user_nickname,
    avatar: u.avatar,
    signature: u.signature,
    gender: u.gender,
  };
}

/**
 * rbac/adminUpdateUserRole (and a report's ban): the policy's roleChange rule (user.roles) sees
 * the target's roles now and next once the target is loaded and locked; nobody removes the last root.
 */
export async function updateUserRoles(
  repositories: Pick<Repositories, 'transaction' | 'sessions'>,
  actor: Actor,
  uid: number,
  requested: readonly string[],
) {
  const next = normalizeRoles(requested);
  const changed = await repositories.transaction(async (r) => {
    const { users } = r;
    // The root accounts stay locked till the end, so two demotions cannot both pass the last-root check.
    const { rootCount, roles } = await users.lockForRoleChange(uid);
    if (!roles) throw new NotFound();
    const refused = refusal(actor, 'user.roles', { currentRoles: roles, nextRoles: next });
    if (refused) throw new DomainError(refused);
    if (roles.includes('root') && !next.includes('root') && rootCount <= 1) throw new DomainError('LAST_ROOT');
    await users.setRoles(uid, next);
    const banned = next.includes('blocked') && !roles.includes('blocked');
    await recordStaffAction(r, {
      actorUid: actor.uid,
      action: banned ? 'user.ban' : 'user.roles',
      targetType: 'user',
      targetId: uid,
      details: { from: roles, to: next },
    });
    return next;
  });
  // Kept sessions carry the roles: a ban or a new role holds from the next request, in every process.
  repositories.sessions.forgetMember(uid);
  return changed;
}

export async function blockedUsers(repositories: UserRepositories, page: number, pageSize: number) {
  const { rows, total } = await repositories.users.blockedPage(pageSize, (page - 1) * pageSize);
  return {
    totalCount: total,
    result: rows.map((r) => ({
      uid: r.uid,
      username: r.username,
      userNickname: r.user_nickname,
      avatar: r.avatar ?? '',
      editDateTime: new Date(r.updated_at).getTime(),
    })),
  };
}

export function uidByEmail(repositories: UserRepositories, email: string): Promise<number | null> {
  return repositories.users.uidByEmail(normalizeEmail(email));
}

export async function passwordMatches(repositories: UserRepositories, uid: number, password: string): Promise<boolean> {
  return verifyPassword((await repositories.users.credentials(uid))?.password_hash, password);
}
