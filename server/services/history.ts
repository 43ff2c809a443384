import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Watch history: the last position per video, kept only while the member has it turned on. */
export function createHistoryService(db: Kysely<Database>) {
  return {
    /** Records a view and its position; nothing when the member turned history off. */
    async record(uid: number, videoId: number, anchor: number): Promise<boolean> {
      const settings = await db.selectFrom('user_settings').select('history_enabled').where('uid', '=', uid).executeTakeFirst();
      if (settings && !settings.history_enabled) return false;
      const now = new Date();
      await db.insertInto('watch_history').values({ uid, video_id: videoId, anchor, updated_at: now })
        .onConflict((oc) => oc.columns(['uid', 'video_id']).doUpdateSet({ anchor, updated_at: now })).execute();
      return true;
    },
    /** The position to resume at, if the member watched this video before. */
    async anchorOf(uid: number, videoId: number): Promise<number | null> {
      const row = await db.selectFrom('watch_history').select('anchor').where('uid', '=', uid).where('video_id', '=', videoId).executeTakeFirst();
      return row?.anchor ?? null;
    },
    async clear(uid: number): Promise<void> {
      await db.deleteFrom('watch_history').where('uid', '=', uid).execute();
    },
  };
}
