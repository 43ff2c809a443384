/** Danmaku: the comments that fly over a video (or an audio track's waveform), each at its time. */
import { announceForgotten } from '../events/cache-invalidation.ts';
import type { RepositoryCaches } from './caches.ts';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import { notSentByBlockedOf } from './block-lists.sql.ts';
import { PREPARED } from '../db/prepared.ts';

/**
 * What every viewer receives of a danmaku. The send time comes as epoch milliseconds computed by
 * the database (microseconds dropped): parsing a timestamp into a Date per row was the largest
 * part of reading a busy segment, and every path (list, send, live) gets the same number. It is
 * the whole seconds since the epoch (exact in float8) and the milliseconds within the second,
 * the same number as `floor(extract(epoch FROM created_at) * 1000)` at a third of the cost:
 * `extract` works in numeric, 1.1-1.4 µs a row, the largest part of the statement's own time for
 * a busy segment (decision 0034's addendum).
 */
const COLUMNS = [
  'id',
  'time',
  'text',
  'color',
  'font_size',
  'mode',
  'rainbow',
  sql<number>`floor(date_part('epoch', created_at)) * 1000 + floor(date_part('milliseconds', created_at))::int % 1000`.as(
    'sent_ms',
  ),
] as const;

/** Seconds into the video, `from` included and `to` not. */
export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * Restricts a query over `danmaku` to one target's visible danmaku, to a time window when one is
 * given, and, with the target's pool size `cap`, to its pool: the newest `cap` of its danmaku (by
 * creation, then id, as sends trim it), so a viewer never gets more than the pool holds, whatever
 * was written another way (decision 0034). The pool's edge is the `cap`-th newest danmaku, found
 * by one walk of `danmaku_by_age` from the newest (index-only, at most `cap` entries; none when
 * the target holds fewer, and then every row is of the pool); the rows are the walk of
 * `danmaku_segment` over the window in the list's order, keeping those not older than the edge
 * (its entries carry `created_at`): no visit to the table and no sort (decision 0034's addendum).
 */
function ofTarget<O>(
  query: SelectQueryBuilder<Database, 'danmaku', O>,
  target: MediaTarget,
  window: TimeWindow | undefined,
  cap?: number,
) {
  let one = query
    .where('danmaku.video_id', '=', target.id)
    .where('danmaku.target_type', '=', target.type)
    .where('danmaku.hidden_at', 'is', null);
  if (window) one = one.where('danmaku.time', '>=', window.from).where('danmaku.time', '<', window.to);
  if (cap === undefined) return one;
  // `>= ALL` of no row is true: a target within its pool keeps every row.
  return one.where(sql<boolean>`(danmaku.created_at, danmaku.id) >= ALL (SELECT e.created_at, e.id FROM danmaku e
    WHERE e.video_id = ${target.id} AND e.target_type = ${target.type}
    ORDER BY e.created_at DESC, e.id DESC OFFSET ${cap - 1} LIMIT 1)`);
}

export function createDanmakuRepository(db: Kysely<Database>, caches: Pick<RepositoryCaches, 'notices'>) {
  return {
    /** Has the other server processes drop their cached danmaku answers of this video. */
    announceChanged(videoId: number): void {
      announceForgotten(caches.notices, { cache: 'danmaku', videoId });
    },
    /** A target's danmaku (of its pool of `cap`, with one) in time order (then id), within `window`, without the senders `blockedByUid` blocked. */
    listOf(target: MediaTarget, window: TimeWindow | undefined, blockedByUid: number | null, cap?: number) {
      // Prepared (decision 0035): a busy segment is read on every change of it, always with the same few texts and the same plan.
      let query = ofTarget(db.selectFrom('danmaku').modifyFront(PREPARED).select(COLUMNS), target, window, cap);
      if (blockedByUid !== null) query = query.where(notSentByBlockedOf('uid', blockedByUid));
      return query.orderBy('time').orderBy('id').execute();
    },

    /**
     * A video's danmaku sent after `afterId` (ids grow with each send), in the order sent, without
     * the senders `blockedByUid` blocked; at most `limit` (a live stream resuming). With the
     * sender's uid, for the stream's own block-list checks (it never leaves the server). With
     * `alsoSince`, those created since then too, whatever their id: ids are taken when a send
     * starts, so one may commit after a higher one was already seen.
     */
    newerThan(videoId: number, afterId: number, blockedByUid: number | null, limit: number, alsoSince?: Date) {
      let query = db
        .selectFrom('danmaku')
        .select([...COLUMNS, 'uid'])
        .where('video_id', '=', videoId)
        .where('target_type', '=', 'video')
        .where('hidden_at', 'is', null)
        .where((eb) =>
          alsoSince ? eb.or([eb('id', '>', afterId), eb('created_at', '>=', alsoSince)]) : eb('id', '>', afterId),
        );
      if (blockedByUid !== null) query = query.where(notSentByBlockedOf('uid', blockedByUid));
      return query.orderBy('id').limit(limit).execute();
    },

    /** How many danmaku a target has within `window` (of its pool of `cap`, with one), and the newest id among them. */
    async countAndNewest(
      target: MediaTarget,
      window: TimeWindow | undefined,
      cap?: number,
    ): Promise<{ count: number; newest: number | null }> {
      const { n, newest } = await ofTarget(db.selectFrom('danmaku').modifyFront(PREPARED), target, window, cap)
        .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.max('id').as('newest')])
        .executeTakeFirstOrThrow();
      return { count: Number(n), newest: newest === null ? null : Number(newest) };
    },

    insert(row: {
      video_id: number;
      target_type: MediaTarget['type'];
      uid: number;
      time: number;
      text: string;
      color: string;
      font_size: Database['danmaku']['font_size'];
      mode: Database['danmaku']['mode'];
      rainbow: boolean;
    }) {
      return db.insertInto('danmaku').values(row).returning(COLUMNS).executeTakeFirstOrThrow();
    },

    /** Danmaku brought in from a file, in one statement per thousand rows (marked imported). */
    async insertImported(
      rows: Array<{
        video_id: number;
        uid: number;
        time: number;
        text: string;
        color: string;
        font_size: Database['danmaku']['font_size'];
        mode: Database['danmaku']['mode'];
      }>,
    ): Promise<void> {
      for (let i = 0; i < rows.length; i += 1000) {
        await db
          .insertInto('danmaku')
          .values(
            rows
              .slice(i, i + 1000)
              .map((row) => ({ ...row, target_type: 'video' as const, rainbow: false, imported: true })),
          )
          .execute();
      }
    },

    /** One danmaku, hidden or not, with its target and sender (a report names it by id). */
    byId: (id: number) =>
      db
        .selectFrom('danmaku')
        .select(['id', 'video_id', 'target_type', 'uid', 'time', 'text', 'hidden_at'])
        .where('id', '=', id)
        .executeTakeFirst(),

    /** Takes a danmaku out of every list (kept for the record); false when there was none to hide. */
    async hide(id: number): Promise<boolean> {
      const result = await db
        .updateTable('danmaku')
        .set({ hidden_at: new Date() })
        .where('id', '=', id)
        .where('hidden_at', 'is', null)
        .executeTakeFirst();
      return !!result.numUpdatedRows;
    },

    async deleteOne(id: number): Promise<boolean> {
      const result = await db.deleteFrom('danmaku').where('id', '=', id).executeTakeFirst();
      return !!result.numDeletedRows;
    },

    /** Deletes a target's danmaku past its `keep` newest (by creation, then id). */
    async deleteAllButNewest(target: MediaTarget, keep: number): Promise<void> {
      await sql`DELETE FROM danmaku WHERE id IN (
        SELECT id FROM danmaku WHERE video_id = ${target.id} AND target_type = ${target.type}
        ORDER BY created_at DESC, id DESC OFFSET ${keep})`.execute(db);
    },
  };
}
export type DanmakuRepository = ReturnType<typeof createDanmakuRepository>;
