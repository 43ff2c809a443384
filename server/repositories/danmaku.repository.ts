/** Danmaku: the comments that fly over a video (or an audio track's waveform), each at its time. */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/constants.ts';
import { notSentByBlockedOf } from './block-lists.sql.ts';

const COLUMNS = ['id', 'time', 'text', 'color', 'font_size', 'mode', 'rainbow', 'created_at'] as const;

/** Seconds into the video, `from` included and `to` not. */
export interface TimeWindow { from: number; to: number }

/** Restricts a query over `danmaku` to one target, and to a time window when one is given. */
function ofTarget<O>(query: SelectQueryBuilder<Database, 'danmaku', O>, target: MediaTarget, window: TimeWindow | undefined) {
  const one = query.where('video_id', '=', target.id).where('target_type', '=', target.type);
  return window ? one.where('time', '>=', window.from).where('time', '<', window.to) : one;
}

export function createDanmakuRepository(db: Kysely<Database>) {
  return {
    /** A target's danmaku in time order (then id), within `window`, without the senders `blockedByUid` blocked. */
    listOf(target: MediaTarget, window: TimeWindow | undefined, blockedByUid: number | null) {
      let query = ofTarget(db.selectFrom('danmaku').select(COLUMNS), target, window);
      if (blockedByUid !== null) query = query.where(notSentByBlockedOf('uid', blockedByUid));
      return query.orderBy('time').orderBy('id').execute();
    },

    /** How many danmaku a target has within `window`, and the newest id among them. */
    async countAndNewest(target: MediaTarget, window: TimeWindow | undefined): Promise<{ count: number; newest: number | null }> {
      const { n, newest } = await ofTarget(db.selectFrom('danmaku'), target, window)
        .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.max('id').as('newest')]).executeTakeFirstOrThrow();
      return { count: Number(n), newest: newest === null ? null : Number(newest) };
    },

    insert(row: { video_id: number; target_type: MediaTarget['type']; uid: number; time: number; text: string; color: string; font_size: Database['danmaku']['font_size']; mode: Database['danmaku']['mode']; rainbow: boolean }) {
      return db.insertInto('danmaku').values(row).returning(COLUMNS).executeTakeFirstOrThrow();
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
