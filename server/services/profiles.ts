import type { Repositories } from '../repositories/index.ts';
import type { ProfileChanges, ProfileRow } from '../repositories/users.repository.ts';
import { DomainError } from '../domain/errors.ts';
import type { PublicProfile } from '../../src/lib/api/contracts/user.ts';
import type { ReviewItem } from '../../src/lib/api/contracts/admin.ts';
import type { UpdateInfoBody } from '../../src/lib/api/contracts/account.ts';
import { checkName, normalizeName } from '../../src/lib/validation/account.ts';
import { usernameTaken } from './accounts.ts';
import { recordStaffAction } from './moderation-log.ts';

type UserRepositories = Pick<Repositories, 'users'>;

/** Writes profile changes; a name another account took in the meantime is USERNAME_TAKEN. */
async function writeProfile(repositories: UserRepositories, uid: number, changes: ProfileChanges): Promise<void> {
  const written = await repositories.users.updateProfile(uid, changes);
  if (written === false) throw new DomainError('NOT_FOUND');
  if (written !== true) throw new DomainError('USERNAME_TAKEN');
}

function publicFields(u: ProfileRow) {
  return {
    uid: u.uid,
    username: u.username,
    userNickname: u.user_nickname,
    avatar: u.avatar,
    signature: u.signature,
    gender: u.gender,
    userBirthday: u.user_birthday,
    label: u.labels.map((labelName, id) => ({ id, labelName })),
    userWebsite: { websiteName: u.website_name, websiteUrl: u.website_url },
    userCreateDateTime: new Date(u.created_at).getTime(),
    roles: u.roles,
  };
}

/** Public profile (user/info): never the e-mail address, hashes or tokens. */
export async function publicProfile(
  repositories: Pick<Repositories, 'users' | 'follows'>,
  uid: number,
  viewerUid: number | null,
): Promise<PublicProfile | null> {
  const isSelf = viewerUid === uid;
  const [u, counts, isFollowing] = await Promise.all([
    repositories.users.profile(uid),
    repositories.follows.counts(uid),
    viewerUid !== null && !isSelf ? repositories.follows.exists(viewerUid, uid) : false,
  ]);
  return u
    ? {
        ...publicFields(u),
        userBannerImage: '',
        isFollowing,
        isSelf,
        followerCount: counts.followers,
        followingCount: counts.following,
      }
    : null;
}

/** user/update/info: any subset of the profile; a change goes back into the review queue. */
export async function updateProfile(repositories: UserRepositories, uid: number, input: UpdateInfoBody): Promise<void> {
  const set: ProfileChanges = {};
  const issues: Array<{ path: string; message: string }> = [];
  if (input.username !== undefined) {
    const username = normalizeName(input.username);
    const problem = checkName(username);
    if (problem) issues.push({ path: 'username', message: problem });
    else {
      const current = await repositories.users.profile(uid);
      if (!current) throw new DomainError('NOT_FOUND');
      if (current.username.toLowerCase() !== username.toLowerCase() && (await usernameTaken(repositories, username)))
        throw new DomainError('USERNAME_TAKEN');
      set.username = username;
    }
  }
  if (input.userNickname !== undefined) {
    const nickname = normalizeName(input.userNickname);
    const problem = nickname ? checkName(nickname) : null;
    if (problem) issues.push({ path: 'userNickname', message: problem });
    else set.user_nickname = nickname || null;
  }
  if (issues.length) throw new DomainError('VALIDATION_FAILED', { issues });
  if (input.signature !== undefined) set.signature = input.signature.normalize('NFC').trim();
  if (input.gender !== undefined) set.gender = input.gender;
  if (input.userBirthday !== undefined) set.user_birthday = input.userBirthday;
  if (input.label !== undefined) set.labels = [...new Set(input.label.map((l) => l.labelName.normalize('NFC')))];
  if (input.userWebsite !== undefined) {
    set.website_name = input.userWebsite.websiteName.trim();
    set.website_url = input.userWebsite.websiteUrl;
  }
  if (!Object.keys(set).length) return;
  await writeProfile(repositories, uid, { ...set, is_updated_after_review: true });
}

/** The administrators' review queue (user/adminGetUserInfo). */
export async function reviewQueue(
  repositories: UserRepositories,
  q: {
    onlyUpdated: boolean;
    page: number;
    pageSize: number;
    sortBy: 'createDateTime' | 'editDateTime' | 'username' | 'uid';
    sortOrder: 'ascend' | 'descend';
  },
) {
  const orderBy = (
    { createDateTime: 'created_at', editDateTime: 'updated_at', username: 'username', uid: 'uid' } as const
  )[q.sortBy];
  const { rows, total } = await repositories.users.profilePage({
    onlyUpdated: q.onlyUpdated,
    orderBy,
    direction: q.sortOrder === 'ascend' ? 'asc' : 'desc',
    limit: q.pageSize,
    offset: (q.page - 1) * q.pageSize,
  });
  const result: ReviewItem[] = rows.map((u) => ({
    ...publicFields(u),
    editDateTime: new Date(u.updated_at).getTime(),
    isUpdatedAfterReview: u.is_updated_after_review,
  }));
  return { result, totalCount: total };
}

export async function approveProfile(
  repositories: UserRepositories & Pick<Repositories, 'moderationLog'>,
  uid: number,
  actorUid: number,
): Promise<void> {
  if (!(await repositories.users.markReviewed(uid))) throw new DomainError('NOT_FOUND');
  await recordStaffAction(repositories, { actorUid, action: 'profile.approve', targetType: 'user', targetId: uid });
}

/** adminClearUserInfo: resets the profile to neutral values (the username stays: it identifies the account). */
export async function clearProfile(
  repositories: UserRepositories & Pick<Repositories, 'moderationLog'>,
  uid: number,
  actorUid: number,
): Promise<void> {
  await writeProfile(repositories, uid, {
    user_nickname: null,
    avatar: '',
    signature: '',
    gender: '',
    user_birthday: '',
    labels: [],
    website_name: '',
    website_url: '',
    is_updated_after_review: false,
  });
  await recordStaffAction(repositories, { actorUid, action: 'profile.clear', targetType: 'user', targetId: uid });
}

/** A new avatar is public at once, and puts the profile back in the review queue. */
export async function setAvatar(repositories: UserRepositories, uid: number, url: string): Promise<void> {
  await writeProfile(repositories, uid, { avatar: url, is_updated_after_review: true });
}
