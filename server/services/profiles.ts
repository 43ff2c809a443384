import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, UsersTable } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import type { PublicProfile, ReviewItem, UpdateInfoBody } from '../../src/lib/api/contract.ts';
import { checkName, normalizeName } from '../../src/lib/validation/account.ts';
import { usernameTaken } from './accounts.ts';

const PROFILE_COLUMNS = ['uid', 'username', 'user_nickname', 'avatar', 'signature', 'gender', 'user_birthday', 'labels', 'website_name', 'website_url', 'roles', 'created_at', 'updated_at', 'is_updated_after_review'] as const;
type ProfileRow = Pick<Selectable<UsersTable>, (typeof PROFILE_COLUMNS)[number]>;

function publicFields(u: ProfileRow) {
  return {
    uid: u.uid, username: u.username, userNickname: u.user_nickname, avatar: u.avatar, signature: u.signature, gender: u.gender,
    userBirthday: u.user_birthday, label: u.labels.map((labelName, id) => ({ id, labelName })),
    userWebsite: { websiteName: u.website_name, websiteUrl: u.website_url }, userCreateDateTime: new Date(u.created_at).getTime(), roles: u.roles,
  };
}

/** Public profile (user/info): never the e-mail address, hashes or tokens. */
export async function publicProfile(db: Kysely<Database>, uid: number, viewerUid: number | null): Promise<PublicProfile | null> {
  const u = await db.selectFrom('users').select(PROFILE_COLUMNS).where('uid', '=', uid).executeTakeFirst();
  return u ? { ...publicFields(u), userBannerImage: '', isFollowing: false, isSelf: viewerUid === u.uid } : null;
}

/** user/update/info: any subset of the profile; a change goes back into the review queue. */
export async function updateProfile(db: Kysely<Database>, uid: number, input: UpdateInfoBody): Promise<void> {
  const set: Partial<Record<string, unknown>> = {};
  const issues: Array<{ path: string; message: string }> = [];
  if (input.username !== undefined) {
    const username = normalizeName(input.username);
    const problem = checkName(username);
    if (problem) issues.push({ path: 'username', message: problem });
    else {
      const current = await db.selectFrom('users').select('username').where('uid', '=', uid).executeTakeFirstOrThrow();
      if (current.username.toLowerCase() !== username.toLowerCase() && (await usernameTaken(db, username))) throw new AppError('USERNAME_TAKEN');
      set.username = username;
    }
  }
  if (input.userNickname !== undefined) {
    const nickname = normalizeName(input.userNickname);
    const problem = nickname ? checkName(nickname) : null;
    if (problem) issues.push({ path: 'userNickname', message: problem });
    else set.user_nickname = nickname || null;
  }
  if (issues.length) throw new AppError('VALIDATION_FAILED', { issues });
  if (input.signature !== undefined) set.signature = input.signature.normalize('NFC').trim();
  if (input.gender !== undefined) set.gender = input.gender;
  if (input.userBirthday !== undefined) set.user_birthday = input.userBirthday;
  if (input.label !== undefined) set.labels = [...new Set(input.label.map((l) => l.labelName.normalize('NFC')))];
  if (input.userWebsite !== undefined) {
    set.website_name = input.userWebsite.websiteName.trim();
    set.website_url = input.userWebsite.websiteUrl;
  }
  if (!Object.keys(set).length) return;
  try {
    await db.updateTable('users').set({ ...set, is_updated_after_review: true, updated_at: new Date() }).where('uid', '=', uid).execute();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new AppError('USERNAME_TAKEN');
    throw error;
  }
}

/** The administrators' review queue (user/adminGetUserInfo). */
export async function reviewQueue(db: Kysely<Database>, q: { onlyUpdated: boolean; page: number; pageSize: number; sortBy: string; sortOrder: 'ascend' | 'descend' }) {
  const column = { createDateTime: 'created_at', editDateTime: 'updated_at', username: 'username', uid: 'uid' }[q.sortBy] as 'created_at';
  let base = db.selectFrom('users');
  if (q.onlyUpdated) base = base.where('is_updated_after_review', '=', true);
  const [rows, total] = await Promise.all([
    base.select(PROFILE_COLUMNS).orderBy(column, q.sortOrder === 'ascend' ? 'asc' : 'desc').orderBy('uid', 'asc')
      .limit(q.pageSize).offset((q.page - 1) * q.pageSize).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const result: ReviewItem[] = rows.map((u) => ({ ...publicFields(u), editDateTime: new Date(u.updated_at).getTime(), isUpdatedAfterReview: u.is_updated_after_review }));
  return { result, totalCount: Number(total.n) };
}

export async function approveProfile(db: Kysely<Database>, uid: number): Promise<void> {
  const done = await db.updateTable('users').set({ is_updated_after_review: false }).where('uid', '=', uid).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new AppError('NOT_FOUND');
}

/** adminClearUserInfo: resets the profile to neutral values (the username stays: it identifies the account). */
export async function clearProfile(db: Kysely<Database>, uid: number): Promise<void> {
  const done = await db.updateTable('users').set({
    user_nickname: null, avatar: '', signature: '', gender: '', user_birthday: '', labels: sql`ARRAY[]::text[]` as never,
    website_name: '', website_url: '', is_updated_after_review: false, updated_at: new Date(),
  }).where('uid', '=', uid).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new AppError('NOT_FOUND');
}
