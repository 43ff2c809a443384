import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import { hashPassword, verifyPassword, COMMON_PASSWORDS } from '../auth/passwords.ts';
import { createSession } from '../auth/sessions.ts';
import { normalizeRoles, canChangeRoles } from '../auth/roles.ts';
import { checkVerificationCode, consumeVerificationCode } from './verification.ts';
import { claimInvitationCode } from './invitations.ts';
import { checkLoginSecondFactor, secondFactorStatus } from '../auth/second-factor.ts';
import { checkName, checkPassword, normalizeEmail, normalizeName } from '../../src/lib/validation/account.ts';
import type { CatalogLocale } from '../../src/lib/i18n/locales.ts';

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === UNIQUE_VIOLATION;

export async function emailExists(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await uidByEmail(db, email)) !== null;
}

/** Exact, case-insensitive comparison of the normalised name (never a pattern match). */
export async function usernameTaken(db: Kysely<Database>, username: string): Promise<boolean> {
  return !!(await db.selectFrom('users').select('uid').where(sql`lower(username)`, '=', normalizeName(username).toLowerCase()).executeTakeFirst());
}

export interface NewAccount {
  email: string;
  password: string;
  username: string;
  userNickname?: string;
  roles?: string[];
  language?: CatalogLocale;
}

/** Validates and inserts a user (used by registration and by the CLI). */
export async function insertAccount(db: Kysely<Database>, input: NewAccount): Promise<number> {
  const email = normalizeEmail(input.email);
  const username = normalizeName(input.username);
  const nickname = input.userNickname ? normalizeName(input.userNickname) : null;
  const issues: Array<{ path: string; message: string }> = [];
  const nameProblem = checkName(username);
  if (nameProblem) issues.push({ path: 'username', message: nameProblem });
  const nickProblem = nickname === null ? null : checkName(nickname);
  if (nickProblem) issues.push({ path: 'userNickname', message: nickProblem });
  if (issues.length) throw new AppError('VALIDATION_FAILED', { issues });
  const passwordProblem = checkPassword(input.password, COMMON_PASSWORDS, [email.split('@')[0], username]);
  if (passwordProblem) throw new AppError('WEAK_PASSWORD', { issues: [{ path: 'password', message: passwordProblem }] });
  if (await emailExists(db, email)) throw new AppError('EMAIL_TAKEN');
  if (await usernameTaken(db, username)) throw new AppError('USERNAME_TAKEN');
  try {
    const row = await db.insertInto('users').values({
      email, username, user_nickname: nickname, password_hash: await hashPassword(input.password),
      roles: normalizeRoles(input.roles ?? ['user']), interface_language: input.language ?? 'zhs',
    }).returning('uid').executeTakeFirstOrThrow();
    return row.uid;
  } catch (error) {
    // Two registrations racing for one name or address: the unique index decides.
    if (isUniqueViolation(error)) throw new AppError(String((error as { constraint?: string }).constraint ?? '').includes('email') ? 'EMAIL_TAKEN' : 'USERNAME_TAKEN');
    throw error;
  }
}

/** Registration: the mailed code and the invitation code are both spent only if the account is made. */
export async function register(db: Kysely<Database>, input: NewAccount & { verificationCode: string; invitationCode: string }) {
  const codeId = await checkVerificationCode(db, { email: normalizeEmail(input.email), purpose: 'registration', code: input.verificationCode });
  return db.transaction().execute(async (trx) => {
    const uid = await insertAccount(trx, { ...input, roles: ['user'] });
    await claimInvitationCode(trx, input.invitationCode, uid);
    await consumeVerificationCode(trx, codeId);
    return { uid, token: await createSession(trx, uid) };
  });
}

/**
 * Login by e-mail and password, then the second factor when the account has one. The same
 * answer whether the address or the password is wrong; the second factor is asked for only
 * after the password is right.
 */
export async function login(db: Kysely<Database>, email: string, password: string, secondFactor: { clientOtp?: string; verificationCode?: string } = {}) {
  const uid = await uidByEmail(db, email);
  const user = uid === null ? undefined : await db.selectFrom('users').select(['uid', 'password_hash', 'email']).where('uid', '=', uid).executeTakeFirst();
  if (!(await verifyPassword(user?.password_hash, password)) || !user) throw new AppError('INVALID_CREDENTIALS');
  await checkLoginSecondFactor(db, user.uid, user.email!, secondFactor);
  return { uid: user.uid, token: await createSession(db, user.uid) };
}

/** The logged-in user's own account (user/self): private fields only for the owner. */
export async function selfInfo(db: Kysely<Database>, uid: number) {
  const u = await db.selectFrom('users')
    .select(['uid', 'email', 'roles', 'username', 'user_nickname', 'avatar', 'signature', 'gender', 'created_at'])
    .where('uid', '=', uid).executeTakeFirst();
  if (!u) return null;
  const { type } = await secondFactorStatus(db, uid);
  return {
    uid: u.uid, email: u.email, roles: u.roles, authenticatorType: type,
    userCreateDateTime: new Date(u.created_at).getTime(), username: u.username, userNickname: u.user_nickname,
    avatar: u.avatar, signature: u.signature, gender: u.gender,
  };
}

/** rbac/adminUpdateUserRole with its rules; nobody removes the last root. */
export async function updateUserRoles(db: Kysely<Database>, actor: { uid: number; roles: string[] }, uid: number, requested: string[]) {
  const next = normalizeRoles(requested);
  return db.transaction().execute(async (trx) => {
    // Lock the root accounts so two demotions cannot both pass the last-root check.
    const roots = await trx.selectFrom('users').select('uid').where(sql<boolean>`'root' = ANY(roles)`).forUpdate().execute();
    const target = await trx.selectFrom('users').select(['uid', 'roles']).where('uid', '=', uid).forUpdate().executeTakeFirst();
    if (!target) throw new AppError('NOT_FOUND');
    if (!canChangeRoles(actor.roles, target.roles, next)) throw new AppError('FORBIDDEN');
    if (target.roles.includes('root') && !next.includes('root') && roots.length <= 1) throw new AppError('LAST_ROOT');
    await trx.updateTable('users').set({ roles: next, updated_at: new Date() }).where('uid', '=', uid).execute();
    return next;
  });
}

export async function blockedUsers(db: Kysely<Database>, page: number, pageSize: number) {
  const where = sql<boolean>`'blocked' = ANY(roles)`;
  const [rows, total] = await Promise.all([
    db.selectFrom('users').select(['uid', 'username', 'user_nickname', 'avatar', 'updated_at']).where(where)
      .orderBy('updated_at', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
    db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow(),
  ]);
  return {
    totalCount: Number(total.n),
    result: rows.map((r) => ({ uid: r.uid, username: r.username, userNickname: r.user_nickname, avatar: r.avatar ?? '', editDateTime: new Date(r.updated_at).getTime() })),
  };
}

export async function uidByEmail(db: Kysely<Database>, email: string): Promise<number | null> {
  const row = await db.selectFrom('users').select('uid').where(sql`lower(email)`, '=', normalizeEmail(email).toLowerCase()).executeTakeFirst();
  return row?.uid ?? null;
}

export async function passwordMatches(db: Kysely<Database>, uid: number, password: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('password_hash').where('uid', '=', uid).executeTakeFirst();
  return verifyPassword(row?.password_hash, password);
}
