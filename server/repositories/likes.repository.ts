/**
 * Likes of videos, audio tracks and photo posts: one row per member and item, counted on sharded
 * counters (docs/decisions/0015) so that a hot item's likes do not queue on one row lock.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';

/** Counter rows per item: writers pick one at random, so 1000 likes/s spread over them. */
export const LIKE_COUNTER_SHARDS = 16;

export function createLikesRepository(db: Kysely<Database>) {
  /** Adds `delta` to one random shard of the item's counter (created at its first like). */
  async function count(target: MediaTarget, delta: 1 | -1) {
    const shard = Math.floor(Math.random() * LIKE_COUNTER_SHARDS);
    await db.insertInto('like_counter_shards').values({ target_type: target.type, target_id: target.id, shard, likes: delta })
      .onConflict((oc) => oc.columns(['target_type', 'target_id', 'shard']).doUpdateSet((eb) => ({ likes: eb('like_counter_shards.likes', '+', delta) })))
      .execute();
  }
  return {
    /** Records the like and counts it, in the caller's transaction; false when it was there already. */
    async insert(uid: number, target: MediaTarget): Promise<boolean> {
      const row = await db.insertInto('media_likes').values({ target_type: target.type, target_id: target.id, uid })
        .onConflict((oc) => oc.doNothing()).returning('uid').executeTakeFirst();
      if (row) await count(target, 1);
      return !!row;
    },

    /** Removes the like and uncounts it, in the caller's transaction; false when there was none. */
    async delete(uid: number, target: MediaTarget): Promise<boolean> {
      const row = await db.deleteFrom('media_likes').where('target_type', '=', target.type).where('target_id', '=', target.id).where('uid', '=', uid)
        .returning('uid').executeTakeFirst();
      if (row) await count(target, -1);
      return !!row;
    },

    /** The item's like count (the sum of its shards) and whether `uid` likes it, in one query. */
    async factsOf(target: MediaTarget, uid: number | null): Promise<{ likeCount: number; isLiked: boolean }> {
      const row = await db.selectNoFrom((eb) => [
        eb.selectFrom('like_counter_shards').select(sql<string>`coalesce(sum(likes), 0)`.as('n'))
          .where('target_type', '=', target.type).where('target_id', '=', target.id).as('like_count'),
        eb.exists(eb.selectFrom('media_likes').select('uid').where('target_type', '=', target.type).where('target_id', '=', target.id)
          .where('uid', '=', uid ?? -1)).as('is_liked'),
      ]).executeTakeFirstOrThrow();
      return { likeCount: Number(row.like_count ?? 0), isLiked: !!row.is_liked };
    },
  };
}
export type LikesRepository = ReturnType<typeof createLikesRepository>;
