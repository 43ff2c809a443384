/**
 * Likes of videos, audio tracks and photo posts: one row per member and item, counted on sharded
 * counters (docs/decisions/0015) so that a hot item's likes do not queue on one row lock, an item's likes
 * and unlikes of the moment written together in one statement (docs/decisions/0040).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import { usersBlockedBy } from './block-lists.sql.ts';
import { PREPARED } from '../db/prepared.ts';
import { batched } from '../db/batches.ts';

/** Counter rows per item: writers pick one at random, so 1000 likes/s spread over them. */
export const LIKE_COUNTER_SHARDS = 16;
/** At most this many likes and unlikes in one statement (its arrays' size); more wait for the next. */
const LIKES_PER_BATCH = 500;

/** A like (with the uploader whose block list it is checked against) or an unlike, waiting for its batch. */
type LikeChange = { target: MediaTarget; uid: number; liking: boolean; uploaderUid: number | null };
type LikeOutcome = { blocked: boolean; changed: boolean; likeCount: number };

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
  /**
   * An item's likes and unlikes of the moment written in ONE statement (server/db/batches.ts,
   * docs/decisions/0040): the likes' rows (the uploader's block checked for each member), the
   * unlikes' deletions, and their sum on one random shard (0015's shards still spread the writers
   * of several processes). A member is at most once in a batch (their next like or unlike goes to
   * the following one), so each member's requests are written in the order they came; each is
   * answered with its own outcome once its batch's statement has returned.
   */
  const write = batched<LikeChange, LikeOutcome>({
    max: LIKES_PER_BATCH,
    joins: (batch, change) =>
      batch.every(
        (other) =>
          other.uid !== change.uid &&
          (other.uploaderUid === null || change.uploaderUid === null || other.uploaderUid === change.uploaderUid),
      ),
    run: async (changes) => {
      const { target } = changes[0];
      const uploaderUid = changes.find((change) => change.uploaderUid !== null)?.uploaderUid ?? 0;
      // Sorted by member: two processes' batches on the same rows take their row locks in one order.
      const sorted = [...changes].sort((x, y) => x.uid - y.uid);
      // Prepared (a hot item's batches run it many times a second): members, kinds and shard are parameters.
      // The DELETE is bounded by the lowest and highest unliker (plain range conditions, which any
      // plan on the key's index takes as its index condition; none when the batch has no unlike, so
      // nothing is read): as `uid IN (SELECT …)` alone, the generic plan read every like of the item
      // and matched each against the batch, a cost that grew with the item's likes times the batch's
      // size (docs/decisions/0040, addendum). Several unlikers far apart still read the likes between them.
      const { rows } = await sql<{
        uid: string | number;
        blocked: boolean;
        changed: boolean;
        like_count: string;
      }>`${PREPARED}
        WITH input AS (
          SELECT uid, liking, n FROM unnest(${sql.val(sorted.map((c) => c.uid))}::bigint[], ${sql.val(sorted.map((c) => c.liking))}::boolean[])
            WITH ORDINALITY AS i(uid, liking, n)
        ), blocked AS (
          SELECT uid FROM input WHERE liking AND uid IN ${usersBlockedBy(uploaderUid)}
        ), added AS (
          INSERT INTO media_likes (target_type, target_id, uid)
          SELECT ${target.type}, ${target.id}, uid FROM input WHERE liking AND uid NOT IN (SELECT uid FROM blocked) ORDER BY n
          ON CONFLICT DO NOTHING RETURNING uid
        ), removed AS (
          DELETE FROM media_likes WHERE target_type = ${target.type} AND target_id = ${target.id}
            AND uid >= (SELECT min(uid) FROM input WHERE NOT liking) AND uid <= (SELECT max(uid) FROM input WHERE NOT liking)
            AND uid = ANY (ARRAY(SELECT uid FROM input WHERE NOT liking)) RETURNING uid
        ), delta AS (
          SELECT (SELECT count(*) FROM added) - (SELECT count(*) FROM removed) AS n
        ), counted AS (
          INSERT INTO like_counter_shards (target_type, target_id, shard, likes)
          SELECT ${target.type}, ${target.id}, ${shardOf()}, n FROM delta WHERE n <> 0
          ON CONFLICT (target_type, target_id, shard) DO UPDATE SET likes = like_counter_shards.likes + excluded.likes
          RETURNING 1
        )
        SELECT i.uid, i.uid IN (SELECT uid FROM blocked) AS blocked,
          CASE WHEN i.liking THEN i.uid IN (SELECT uid FROM added) ELSE i.uid IN (SELECT uid FROM removed) END AS changed,
          ${countOf(target)} + (SELECT n FROM delta) AS like_count, ${commitWithoutFlush} AS commit_mode
        FROM input i`.execute(db);
      const outcomes = new Map(rows.map((row) => [Number(row.uid), row]));
      return changes.map((change) => {
        const row = outcomes.get(change.uid)!;
        return { blocked: row.blocked, changed: row.changed, likeCount: Number(row.like_count) };
      });
    },
  });
  const change = (target: MediaTarget, uid: number, liking: boolean, uploaderUid: number | null) =>
    write(`${target.type}:${target.id}`, { target: { type: target.type, id: target.id }, uid, liking, uploaderUid });
  return {
    /**
     * Records the like and counts it, unless the uploader blocked the member: written with the
     * item's other likes and unlikes of the moment in one statement (see `write`).
     * `added` is false when the like was there already; the count includes this like.
     */
    async like(
      uid: number,
      target: MediaTarget,
      uploaderUid: number,
    ): Promise<{ blocked: boolean; added: boolean; likeCount: number }> {
      const { blocked, changed, likeCount } = await change(target, uid, true, uploaderUid);
      return { blocked, added: changed, likeCount };
    },

    /** Removes the like and uncounts it (batched as likes are); `removed` is false when there was none. */
    async unlike(uid: number, target: MediaTarget): Promise<{ removed: boolean; likeCount: number }> {
      const { changed, likeCount } = await change(target, uid, false, null);
      return { removed: changed, likeCount };
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
