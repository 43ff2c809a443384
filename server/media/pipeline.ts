import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { probeVideo } from './ffmpeg.ts';
import { enqueueJob } from '../jobs/queue.ts';

export const PROBE_JOB = 'media.probe';

/** A finished upload becomes a media item, and its probe is queued in the same database. */
export async function registerUploadedMedia(db: Kysely<Database>, input: { mediaId: string; uploadId: string; uid: number }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('media').values({ media_id: input.mediaId, upload_id: input.uploadId, uid: input.uid }).execute();
    await enqueueJob(trx, PROBE_JOB, { mediaId: input.mediaId });
  });
}

/**
 * The probe step: the file must be a real video no longer than the upload's limit (at most
 * 1800 s); otherwise the media is rejected with a reason the uploader can read.
 */
export function probeJob(options: { db: Kysely<Database>; uploadDir: string; logger: Logger }) {
  return async (payload: Record<string, unknown>) => {
    const { db } = options;
    const mediaId = String(payload.mediaId);
    const media = await db.selectFrom('media').innerJoin('uploads', 'uploads.id', 'media.upload_id')
      .select(['media.media_id', 'media.status', 'uploads.id as uploadId', 'uploads.max_duration_seconds'])
      .where('media.media_id', '=', mediaId).executeTakeFirst();
    if (!media || media.status !== 'uploaded') return; // already decided (a retried job)
    const probe = await probeVideo(join(options.uploadDir, media.uploadId));
    const now = new Date();
    if (!probe.ok) {
      await db.updateTable('media').set({ status: 'rejected', reason: probe.reason, updated_at: now }).where('media_id', '=', mediaId).execute();
      return;
    }
    const { durationMs, width, height, videoCodec, audioCodec } = probe.result;
    const tooLong = durationMs > media.max_duration_seconds * 1000;
    await db.updateTable('media').set({
      status: tooLong ? 'rejected' : 'probed', reason: tooLong ? 'TOO_LONG' : null,
      duration_ms: durationMs, width, height, video_codec: videoCodec, audio_codec: audioCodec, updated_at: now,
    }).where('media_id', '=', mediaId).execute();
    options.logger.info('media probed', { mediaId, durationMs, width, height, tooLong });
  };
}
