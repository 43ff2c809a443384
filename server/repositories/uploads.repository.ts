/**
 * Uploads (the rows `uploads`, tus's files as members send them) and what becomes of the ones
 * never published: their count per member, their owner, their end, and their removal.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, UploadKind } from '../db/schema.ts';

/**
 * Whether a media item (by id, a SQL text) is published: part of a video, a track or a photo
 * post. Until then its upload is only a file someone sent and may still abandon.
 */
const published = (mediaId: RawBuilder<unknown>) => sql<boolean>`(
  EXISTS (SELECT 1 FROM video_parts p WHERE p.media_id = ${mediaId})
  OR EXISTS (SELECT 1 FROM audio_tracks a WHERE a.media_id = ${mediaId})
  OR EXISTS (SELECT 1 FROM photo_images i WHERE i.media_id = ${mediaId}))`;

/** The job queue's condition (on the row `jobs`) for a job of these kinds on an upload nobody has published. */
export const unpublishedWork = (kinds: readonly string[]): RawBuilder<boolean> =>
  sql<boolean>`(jobs.kind IN (${sql.join(kinds)}) AND NOT ${published(sql`jobs.payload->>'mediaId'`)})`;

export function createUploadsRepository(db: Kysely<Database>) {
  return {
    /** A new upload (unfinished until its last byte). */
    async create(upload: {
      id: string;
      uid: number;
      fileName: string;
      size: number;
      maxDurationSeconds: number;
      kind: UploadKind;
      expiresAt: Date;
    }) {
      await db
        .insertInto('uploads')
        .values({
          id: upload.id,
          uid: upload.uid,
          file_name: upload.fileName,
          size: upload.size,
          max_duration_seconds: upload.maxDurationSeconds,
          kind: upload.kind,
          expires_at: upload.expiresAt,
        })
        .execute();
    },

    /** A member's unfinished, unexpired uploads. */
    async openCount(uid: number): Promise<number> {
      const open = await db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('uid', '=', uid)
        .where('finished_at', 'is', null)
        .where('expires_at', '>', new Date())
        .executeTakeFirstOrThrow();
      return Number(open.n);
    },

    async remove(id: string) {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
    },

    /** An upload cancelled before its end (finished ones stay: their media may be published). */
    async removeUnfinished(id: string) {
      await db.deleteFrom('uploads').where('id', '=', id).where('finished_at', 'is', null).execute();
    },

    /** Unfinished uploads past their expiry. */
    async removeExpired() {
      await db.deleteFrom('uploads').where('finished_at', 'is', null).where('expires_at', '<', new Date()).execute();
    },

    ownerOf: (id: string) => db.selectFrom('uploads').select('uid').where('id', '=', id).executeTakeFirst(),

    /** The last byte arrived: the upload gets its media id; answers its owner and kind. */
    finish: (id: string, mediaId: string) =>
      db
        .updateTable('uploads')
        .set({ finished_at: new Date(), media_id: mediaId })
        .where('id', '=', id)
        .returning(['uid', 'kind'])
        .executeTakeFirstOrThrow(),

    /** Uploads finished before `before` whose media nobody published. */
    abandonedSince: (before: Date) =>
      db
        .selectFrom('media as m')
        .innerJoin('uploads as u', 'u.id', 'm.upload_id')
        .select(['m.media_id', 'u.id as upload_id'])
        .where('u.finished_at', '<', before)
        .where(sql<boolean>`NOT ${published(sql`m.media_id`)}`)
        .execute(),

    /**
     * Removes an abandoned upload with its media row (ON DELETE CASCADE) and jobs, unless it was
     * published meanwhile or a job works on it now (checked again in the transaction). Answers whether it did.
     */
    removeAbandoned: (mediaId: string, uploadId: string) =>
      db.transaction().execute(async (trx) => {
        const busy = await trx
          .selectFrom('jobs')
          .select('id')
          .where(sql<string>`payload->>'mediaId'`, '=', mediaId)
          .where('status', '=', 'running')
          .where('locked_until', '>', sql<Date>`now()`)
          .executeTakeFirst();
        if (busy) return false;
        await trx.deleteFrom('jobs').where(sql<string>`payload->>'mediaId'`, '=', mediaId).execute();
        const { numDeletedRows } = await trx
          .deleteFrom('uploads')
          .where('id', '=', uploadId)
          .where(sql<boolean>`NOT ${published(sql`${mediaId}::text`)}`)
          .executeTakeFirst();
        return numDeletedRows > 0n;
      }),
  };
}
export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
