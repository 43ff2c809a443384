/**
 * Likes of videos, audio tracks and photo posts: one row per member and item, counted on sharded
 * counters (docs/decisions/0015) so that a hot item's likes do not queue on one row lock.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import { usersBlockedBy } from './block-lists.sql.ts';
import { PREPARED } from '../db/prepared.ts';

/** Counter rows per item: writers pick one at random, so 1000 likes/s spread over them. */
export const LIKE_COUNTER_SHARDS = 16;

export function createLikesRepository(db: Kysely<Database>) {
  const shardOf = () => Math.floor(Math.random() * LIKE_COUNTER_SHARDS);
  /** SQL: the item's count as this statement's snapshot saw it (its own change is added by the caller). */
  const countOf = (target: MediaTarget) =>
    sql<string>`(SELECT coalesce(sum(likes), 0) FROM like_counter_shards WHERE target_type = ${target.type} AND target_id = ${target.id})`;
  /**
   * SQL: this statement's own (implicit) transaction commits without waiting for its WAL to reach
   * the disk (docs/decisions/0038). A like's answer then never waits on a flush that other writers'
   * WAL (a bulk load, a forced checkpoint) made slow: PostgreSQL has one WAL, and a commit waits
   * for everything written before it. A crash of PostgreSQL may lose the last fraction of a second
   * of likes, each whole (its row and its +1 commit together, so the count still equals the rows).
   * Only in a statement run on its own: inside a transaction it would apply to all of it.
   */
  const commitWithoutFlush = sql`set_config('synchronous_commit', 'off', true)`;
  return {
    /**
     * Records the like and counts it on a random shard, in ONE statement (a hot item's likes are
     * one round trip each, not a transaction of four), unless the uploader blocked the member.
     * `added` is false when the like was there already; the count includes this like.
     */
    async like(
      uid: number,
      target: MediaTarget,
      uploaderUid: number,
    ): Promise<{ blocked: boolean; added: boolean; likeCount: number }> {
      // Prepared (a hot item's likes run it a thousand times a second): the shard is a parameter.
      const { rows } = await sql<{ blocked: boolean; added: boolean; like_count: string }>`${PREPARED}
        WITH blocked AS (
          SELECT ${uid}::bigint IN ${usersBlockedBy(uploaderUid)} AS yes
        ), added AS (
          INSERT INTO media_likes (target_type, target_id, uid)
          SELECT ${target.type}, ${target.id}, ${uid} WHERE NOT (SELECT yes FROM blocked)
          ON CONFLICT DO NOTHING RETURNING uid
        ), counted AS (
          INSERT INTO like_counter_shards (target_type, target_id, shard, likes)
          SELECT ${target.type}, ${target.id}, ${shardOf()}, 1 FROM added
          ON CONFLICT (target_type, target_id, shard) DO UPDATE SET likes = like_counter_shards.likes + 1
          RETURNING 1
        )
        SELECT (SELECT yes FROM blocked) AS blocked, EXISTS (SELECT 1 FROM counted) AS added,
          ${countOf(target)} + (SELECT count(*) FROM counted) AS like_count, ${commitWithoutFlush} AS commit_mode`.execute(
        db,
      );
      const row = rows[0];
      return { blocked: row.blocked, added: row.added, likeCount: Number(row.like_count) };
    },

    /** Removes the like and uncounts it, in one statement; `removed` is false when there was none. */
    async unlike(uid: number, target: MediaTarget): Promise<{ removed: boolean; likeCount: number }> {
      const { rows } = await sql<{ removed: boolean; like_count: string }>`${PREPARED}
        WITH removed AS (
          DELETE FROM media_likes WHERE target_type = ${target.type} AND target_id = ${target.id} AND uid = ${uid} RETURNING uid
        ), uncounted AS (
          INSERT INTO like_counter_shards (target_type, target_id, shard, likes)
          SELECT ${target.type}, ${target.id}, ${shardOf()}, -1 FROM removed
          ON CONFLICT (target_type, target_id, shard) DO UPDATE SET likes = like_counter_shards.likes - 1
          RETURNING 1
        )
        SELECT EXISTS (SELECT 1 FROM uncounted) AS removed, ${countOf(target)} - (SELECT count(*) FROM uncounted) AS like_count,
          ${commitWithoutFlush} AS commit_mode`.execute(db);
      const row = rows[0];
      return { removed: row.removed, likeCount: Number(row.like_count) };
    },

    /** The item's like count (the sum of its shards) and whether `uid` likes it, in one query. */
    async factsOf(target: MediaTarget, uid: number | null): Promise<{ likeCount: number; isLiked: boolean }> {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('like_counter_shards')
            .select(sql<string>`coalesce(sum(likes), 0)`.as('n'))
            .where('target_type', '=', target.type)
            .where('target_id', '=', target.id)
            .as('like_count'),
          eb
            .exists(
              eb
                .selectFrom('media_likes')
                .select('uid')
                .where('target_type', '=', target.type)
                .where('target_id', '=', target.id)
                .where('uid', '=', uid ?? -1),
            )
            .as('is_liked'),
        ])
        .executeTakeFirstOrThrow();
      return { likeCount: Number(row.like_count ?? 0), isLiked: !!row.is_liked };
    },
  };
}
export type LikesRepository = ReturnType<typeof createLikesRepository>;
