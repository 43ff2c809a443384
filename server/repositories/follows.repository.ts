/** Who follows whom: one row per pair, newest first both ways (the feed reads it through the videos repository). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { microsOf, olderThan, type KeysetPosition } from './keyset.sql.ts';

export function createFollowsRepository(db: Kysely<Database>) {
  /** One page of the people on one side of `uid`'s follows, newest follow first, with their names and avatars. */
  function people(side: 'followers' | 'followings', uid: number, after: KeysetPosition | null, limit: number) {
    const [mine, theirs] =
      side === 'followers'
        ? (['f.followed_uid', 'f.follower_uid'] as const)
        : (['f.follower_uid', 'f.followed_uid'] as const);
    let query = db
      .selectFrom('follows as f')
      .innerJoin('users as u', 'u.uid', theirs)
      .select([
        'u.uid',
        'u.username',
        'u.user_nickname',
        'u.avatar',
        'u.signature',
        'f.created_at',
        microsOf('f.created_at').as('created_micros'),
      ])
      .where(mine, '=', uid);
    if (after) query = query.where(olderThan('f.created_at', theirs, after));
    return query.orderBy('f.created_at', 'desc').orderBy(theirs, 'desc').limit(limit).execute();
  }

  return {
    /** Adds the follow; false when it was there already. */
    async insert(followerUid: number, followedUid: number): Promise<boolean> {
      const row = await db
        .insertInto('follows')
        .values({ follower_uid: followerUid, followed_uid: followedUid })
        .onConflict((oc) => oc.doNothing())
        .returning('follower_uid')
        .executeTakeFirst();
      return !!row;
    },

    /** Removes the follow; false when there was none. */
    async delete(followerUid: number, followedUid: number): Promise<boolean> {
      const result = await db
        .deleteFrom('follows')
        .where('follower_uid', '=', followerUid)
        .where('followed_uid', '=', followedUid)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Removes the follows between two members, both ways (a block ends them). */
    async deleteBetween(a: number, b: number): Promise<void> {
      await db
        .deleteFrom('follows')
        .where((eb) =>
          eb.or([
            eb.and([eb('follower_uid', '=', a), eb('followed_uid', '=', b)]),
            eb.and([eb('follower_uid', '=', b), eb('followed_uid', '=', a)]),
          ]),
        )
        .execute();
    },

    async exists(followerUid: number, followedUid: number): Promise<boolean> {
      return !!(await db
        .selectFrom('follows')
        .select('follower_uid')
        .where('follower_uid', '=', followerUid)
        .where('followed_uid', '=', followedUid)
        .executeTakeFirst());
    },

    /** Which of `uids` the member follows. */
    async followedAmong(followerUid: number, uids: readonly number[]): Promise<Set<number>> {
      if (!uids.length) return new Set();
      const rows = await db
        .selectFrom('follows')
        .select('followed_uid')
        .where('follower_uid', '=', followerUid)
        .where('followed_uid', 'in', [...uids])
        .execute();
      return new Set(rows.map((r) => r.followed_uid));
    },

    /** How many follow `uid`, and how many `uid` follows. */
    async counts(uid: number): Promise<{ followers: number; following: number }> {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('follows')
            .select(eb.fn.countAll<number>().as('n'))
            .where('followed_uid', '=', uid)
            .as('followers'),
          eb
            .selectFrom('follows')
            .select(eb.fn.countAll<number>().as('n'))
            .where('follower_uid', '=', uid)
            .as('following'),
        ])
        .executeTakeFirstOrThrow();
      return { followers: Number(row.followers), following: Number(row.following) };
    },

    followersPage: (uid: number, after: KeysetPosition | null, limit: number) => people('followers', uid, after, limit),
    followingsPage: (uid: number, after: KeysetPosition | null, limit: number) =>
      people('followings', uid, after, limit),
  };
}
export type FollowsRepository = ReturnType<typeof createFollowsRepository>;
export type FollowPersonRow = Awaited<ReturnType<FollowsRepository['followersPage']>>[number];
