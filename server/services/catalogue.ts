import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Read-side queries about videos and users that pages and API calls share. */
export function createCatalogue(db: Kysely<Database>) {
  return {
    /** Whether a video can be opened by the public (approved and not deleted). */
    async videoExists(videoId: number): Promise<boolean> {
      const row = await db.selectFrom('videos').select('video_id').where('video_id', '=', videoId).where('status', '=', 'approved').executeTakeFirst();
      return !!row;
    },
    async userExists(uid: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('uid').where('uid', '=', uid).executeTakeFirst();
      return !!row;
    },
  };
}
export type Catalogue = ReturnType<typeof createCatalogue>;
