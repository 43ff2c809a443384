/** Uploaded files as the catalogue reads them (the pipeline in server/media writes them). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export function createMediaRepository(db: Kysely<Database>) {
  return {
    byId(mediaId: string) {
      return db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
    },

    /** Owner, kind, state, refusal reason and duration of these files. */
    async byIds(mediaIds: readonly string[]) {
      if (!mediaIds.length) return [];
      return db.selectFrom('media').select(['media_id', 'uid', 'kind', 'status', 'reason', 'duration_ms']).where('media_id', 'in', [...mediaIds]).execute();
    },
  };
}
export type MediaRepository = ReturnType<typeof createMediaRepository>;
