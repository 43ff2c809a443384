/** Watch history: one row per member and target (video or audio track), with the last position. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';

export function createHistoryRepository(db: Kysely<Database>) {
  return {
    /** The member's history setting; undefined when they never saved settings. */
    async enabledFor(uid: number): Promise<boolean | undefined> {
      const row = await db
        .selectFrom('user_settings')
        .select('history_enabled')
        .where('uid', '=', uid)
        .executeTakeFirst();
      return row?.history_enabled;
    },

    /** Sets the position of this member's entry for the target, adding the entry if needed. */
    async upsert(uid: number, target: MediaTarget, anchor: number, at: Date): Promise<void> {
      await db
        .insertInto('watch_history')
        .values({ uid, video_id: target.id, target_type: target.type, anchor, updated_at: at })
        .onConflict((oc) => oc.columns(['uid', 'target_type', 'video_id']).doUpdateSet({ anchor, updated_at: at }))
        .execute();
    },

    async anchorOf(uid: number, target: MediaTarget): Promise<number | undefined> {
      const row = await db
        .selectFrom('watch_history')
        .select('anchor')
        .where('uid', '=', uid)
        .where('video_id', '=', target.id)
        .where('target_type', '=', target.type)
        .executeTakeFirst();
      return row?.anchor;
    },

    async clear(uid: number): Promise<void> {
      await db.deleteFrom('watch_history').where('uid', '=', uid).execute();
    },
  };
}
export type HistoryRepository = ReturnType<typeof createHistoryRepository>;
