/**
 * Uploaded files (the rows `media`): what the catalogue reads of them, and every change of their
 * state, made here once for the video, audio and photo pipelines that move them along:
 * uploaded → probed (or rejected) → transcoding → playable → ready (or failed).
 */
import { sql, type Kysely, type Updateable } from 'kysely';
import type { Database, MediaTable, UploadKind } from '../db/schema.ts';
import { enqueueJob } from './job-queue.repository.ts';

/** What a probe (or a later pass) learned of a file. */
export type MediaFacts = Pick<
  Updateable<MediaTable>,
  'duration_ms' | 'width' | 'height' | 'video_codec' | 'audio_codec' | 'frame_rate'
>;
/** What a finished transcode made: a video's storyboard, or a track's streams, waveform, loudness and cover. */
export type MediaMade = Pick<
  Updateable<MediaTable>,
  'storyboard' | 'renditions' | 'waveform' | 'loudness_lufs' | 'true_peak_db' | 'cover_file'
>;

export function createMediaRepository(db: Kysely<Database>) {
  const change = (mediaId: string, values: Updateable<MediaTable>) =>
    db
      .updateTable('media')
      .set({ ...values, updated_at: new Date() })
      .where('media_id', '=', mediaId)
      .execute();

  return {
    byId(mediaId: string) {
      return db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
    },

    /** Owner, kind, state, refusal reason and duration of these files. */
    async byIds(mediaIds: readonly string[]) {
      if (!mediaIds.length) return [];
      return db
        .selectFrom('media')
        .select(['media_id', 'uid', 'kind', 'status', 'reason', 'duration_ms'])
        .where('media_id', 'in', [...mediaIds])
        .execute();
    },

    /** A finished upload becomes a media item of its kind, and its kind's probe is queued with it (one transaction). */
    async register(input: {
      mediaId: string;
      uploadId: string;
      uid: number;
      kind: UploadKind;
      probeJob: string;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('media')
          .values({ media_id: input.mediaId, upload_id: input.uploadId, uid: input.uid, kind: input.kind })
          .execute();
        await enqueueJob(trx, input.probeJob, { mediaId: input.mediaId });
      });
    },

    /** A file's state with its upload and that upload's duration limit (what a probe starts from). */
    toProbe(mediaId: string) {
      return db
        .selectFrom('media')
        .innerJoin('uploads', 'uploads.id', 'media.upload_id')
        .select(['media.status', 'uploads.id as uploadId', 'uploads.max_duration_seconds'])
        .where('media.media_id', '=', mediaId)
        .executeTakeFirst();
    },

    /**
     * The probe's verdict: probed with what it learned, or rejected with the reason the uploader
     * reads (the facts learned are kept either way). With `next`, that job is queued in the same
     * transaction when the file is accepted.
     */
    async recordProbe(
      mediaId: string,
      facts: MediaFacts,
      refusal: string | null,
      next?: { job: string; payload: Record<string, unknown> },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await createMediaRepository(trx).setFacts(mediaId, {
          ...facts,
          status: refusal ? 'rejected' : 'probed',
          reason: refusal,
        });
        if (next && !refusal) await enqueueJob(trx, next.job, next.payload);
      });
    },

    markTranscoding: (mediaId: string) => change(mediaId, { status: 'transcoding' }),
    /** Renditions published (the first with its poster set): the file plays. */
    markPlayable: (mediaId: string, renditions: number[], posterSet?: string) =>
      change(mediaId, { status: 'playable', renditions, ...(posterSet ? { poster_set: posterSet } : {}) }),
    markReady: (mediaId: string, made: MediaMade = {}) => change(mediaId, { ...made, status: 'ready' }),
    markFailed: (mediaId: string) => change(mediaId, { status: 'failed' }),
    /** A failed file waits again for its job retried by an administrator: back to `before`, the state that job starts from. */
    async retryFailed(mediaId: string, before: string): Promise<void> {
      await db
        .updateTable('media')
        .set({ status: before as never, updated_at: new Date() })
        .where('media_id', '=', mediaId)
        .where('status', '=', 'failed')
        .execute();
    },
    /** Facts learned later (a backfilled frame rate or poster set), or with a state change. */
    setFacts: (mediaId: string, values: Updateable<MediaTable>) => change(mediaId, values),

    /**
     * One `kind` job for each published video media whose `column` is still null and that never had
     * such a job queued (a media that failed all its attempts is not tried again at each start).
     * Audio media have renditions too but neither frames nor posters: they are left out.
     */
    async queueVideoBackfill(kind: string, column: 'frame_rate' | 'poster_set'): Promise<number> {
      const { rows } = await sql`INSERT INTO jobs (kind, payload)
        SELECT ${kind}::text, jsonb_build_object('mediaId', m.media_id) FROM media m
        WHERE m.kind = 'video' AND m.status IN ('playable', 'ready') AND ${sql.ref(`m.${column}`)} IS NULL AND cardinality(m.renditions) > 0
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = ${kind}::text AND j.payload->>'mediaId' = m.media_id)
        RETURNING id`.execute(db);
      return rows.length;
    },

    /** A file's uploader and the state of the video or track it is in (null: in none yet), for who may read its files. */
    accessState(mediaId: string) {
      return db
        .selectFrom('media as m')
        .leftJoin('video_parts as p', 'p.media_id', 'm.media_id')
        .leftJoin('videos as v', 'v.video_id', 'p.video_id')
        .leftJoin('audio_tracks as a', 'a.media_id', 'm.media_id')
        .select((eb) => ['m.uid', eb.fn.coalesce('v.status', 'a.status').as('status')])
        .where('m.media_id', '=', mediaId)
        .executeTakeFirst();
    },
  };
}
export type MediaRepository = ReturnType<typeof createMediaRepository>;
