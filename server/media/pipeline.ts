import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { probeFrameRate, probeVideo } from './ffmpeg.ts';
import { enqueueJob, type JobHandler } from '../jobs/queue.ts';
import { ladderFor, makePoster, makeStoryboard, rungsOf, transcodeRung, writeMaster, type Rung } from './hls.ts';
import type { UploadStore } from './upload-store.ts';
import { makePosterSet } from './poster-set.ts';

export const PROBE_JOB = 'media.probe';
export const TRANSCODE_JOB = 'media.transcode';
export const FRAME_RATE_JOB = 'media.frame-rate';
export const POSTER_SET_JOB = 'media.poster-set';

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
export function probeJob(options: { db: Kysely<Database>; uploads: UploadStore; logger: Logger }) {
  return async (payload: Record<string, unknown>) => {
    const { db } = options;
    const mediaId = String(payload.mediaId);
    const media = await db.selectFrom('media').innerJoin('uploads', 'uploads.id', 'media.upload_id')
      .select(['media.media_id', 'media.status', 'uploads.id as uploadId', 'uploads.max_duration_seconds'])
      .where('media.media_id', '=', mediaId).executeTakeFirst();
    if (!media || media.status !== 'uploaded') return; // already decided (a retried job)
    const probe = await options.uploads.withLocalFile(media.uploadId, probeVideo);
    const now = new Date();
    if (!probe.ok) {
      await db.updateTable('media').set({ status: 'rejected', reason: probe.reason, updated_at: now }).where('media_id', '=', mediaId).execute();
      return;
    }
    const { durationMs, width, height, videoCodec, audioCodec, frameRate } = probe.result;
    const tooLong = durationMs > media.max_duration_seconds * 1000;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('media').set({
        status: tooLong ? 'rejected' : 'probed', reason: tooLong ? 'TOO_LONG' : null,
        duration_ms: durationMs, width, height, video_codec: videoCodec, audio_codec: audioCodec, frame_rate: frameRate, updated_at: now,
      }).where('media_id', '=', mediaId).execute();
      if (!tooLong) await enqueueJob(trx, TRANSCODE_JOB, { mediaId });
    });
    options.logger.info('media probed', { mediaId, durationMs, width, height, tooLong });
  };
}

/** Where a media item's HLS renditions, poster and storyboard live (under the media folder). */
export { hlsPath } from './paths.ts';
import { hlsPath } from './paths.ts';

/**
 * The transcode step: the lowest rung first, published at once with its master playlist and
 * the poster (status playable), then the higher rungs and the storyboard (status ready).
 * A retry goes on from the rungs an earlier attempt published, and the video stays playable
 * meanwhile; if the last attempt fails, a video with a rung published is finished as it is
 * (ready, without the rungs or storyboard that failed), and only one with none is failed.
 */
export function transcodeJob(options: { db: Kysely<Database>; uploads: UploadStore; mediaDir: string; logger: Logger }): JobHandler {
  return async (payload, run) => {
    const mediaId = String(payload.mediaId);
    try {
      await transcode(mediaId);
    } catch (error) {
      // Retried with back-off until the last attempt; then the uploader is told, not left waiting.
      if (run.isLastAttempt) {
        const published = await options.db.selectFrom('media').select('renditions').where('media_id', '=', mediaId).executeTakeFirst();
        await options.db.updateTable('media').set({ status: published?.renditions.length ? 'ready' : 'failed', updated_at: new Date() })
          .where('media_id', '=', mediaId).execute();
      }
      throw error;
    }
  };

  async function transcode(mediaId: string) {
    const { db } = options;
    const media = await db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
    if (!media || !['probed', 'transcoding', 'playable'].includes(media.status)) return;
    const outDir = join(options.mediaDir, hlsPath(mediaId));
    const hasAudio = media.audio_codec !== null;
    const width = media.width!;
    const height = media.height!;
    if (media.status !== 'playable') await db.updateTable('media').set({ status: 'transcoding', updated_at: new Date() }).where('media_id', '=', mediaId).execute();
    const storyboard = await options.uploads.withLocalFile(media.upload_id, async (input) => {
      const done: Rung[] = rungsOf(media.renditions);
      for (const rung of ladderFor(height)) {
        if (done.some((r) => r.height === rung.height)) continue; // published by an earlier attempt
        const started = performance.now();
        await transcodeRung(input, outDir, rung, hasAudio);
        done.push(rung);
        await writeMaster(outDir, done, { width, height, hasAudio, frameRate: media.frame_rate });
        let posterSet: string | undefined;
        if (done.length === 1) {
          await makePoster(input, outDir, media.duration_ms!);
          posterSet = await makePosterSet(outDir);
        }
        await db.updateTable('media').set({ status: 'playable', renditions: done.map((r) => r.height), ...(posterSet ? { poster_set: posterSet } : {}), updated_at: new Date() })
          .where('media_id', '=', mediaId).execute();
        options.logger.info('rendition published', { mediaId, height: rung.height, ms: Math.round(performance.now() - started) });
      }
      return makeStoryboard(input, outDir, media.duration_ms!, width, height);
    });
    await db.updateTable('media').set({ status: 'ready', storyboard: JSON.stringify(storyboard), updated_at: new Date() })
      .where('media_id', '=', mediaId).execute();
  }
}

/**
 * Media transcoded before frame rates were recorded (migration 0013) have none, and their master
 * playlist no FRAME-RATE. Run at every start: queues a FRAME_RATE_JOB for each such published
 * media that never had one, so a media whose rendition gives no rate (or that failed all its
 * attempts) is not probed again at each start. Answers how many were queued.
 */
export async function queueFrameRateBackfill(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql`INSERT INTO jobs (kind, payload)
    SELECT ${FRAME_RATE_JOB}::text, jsonb_build_object('mediaId', m.media_id) FROM media m
    WHERE m.status IN ('playable', 'ready') AND m.frame_rate IS NULL AND cardinality(m.renditions) > 0
      AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = ${FRAME_RATE_JOB}::text AND j.payload->>'mediaId' = m.media_id)
    RETURNING id`.execute(db);
  return rows.length;
}

/**
 * The frame-rate backfill: ffprobe reads the rate from the top published rendition (every rung
 * keeps the source's), then the master playlist is written again for the published rungs with
 * FRAME-RATE, and only then the rate stored (so a failure in between is retried from the start).
 */
export function frameRateJob(options: { db: Kysely<Database>; mediaDir: string; logger: Logger }): JobHandler {
  return async (payload) => {
    const { db } = options;
    const mediaId = String(payload.mediaId);
    const media = await db.selectFrom('media').select(['frame_rate', 'width', 'height', 'audio_codec', 'renditions'])
      .where('media_id', '=', mediaId).executeTakeFirst();
    if (!media || media.frame_rate !== null || !media.renditions.length) return;
    const outDir = join(options.mediaDir, hlsPath(mediaId));
    const frameRate = await probeFrameRate(join(outDir, `${Math.max(...media.renditions)}p`, 'index.m3u8'));
    if (!frameRate) {
      options.logger.warn('no frame rate in the rendition; the master playlist stays without FRAME-RATE', { mediaId });
      return;
    }
    await writeMaster(outDir, rungsOf(media.renditions), { width: media.width!, height: media.height!, hasAudio: media.audio_codec !== null, frameRate });
    await db.updateTable('media').set({ frame_rate: frameRate, updated_at: new Date() }).where('media_id', '=', mediaId).execute();
    options.logger.info('frame rate backfilled', { mediaId, frameRate });
  };
}

/**
 * Media transcoded before poster sets existed (migration 0022) have only poster.jpg. Run at every
 * start, like the frame-rate backfill: one POSTER_SET_JOB per published media without a set that
 * never had one queued. Answers how many were queued.
 */
export async function queuePosterSetBackfill(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql`INSERT INTO jobs (kind, payload)
    SELECT ${POSTER_SET_JOB}::text, jsonb_build_object('mediaId', m.media_id) FROM media m
    WHERE m.status IN ('playable', 'ready') AND m.poster_set IS NULL AND cardinality(m.renditions) > 0
      AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = ${POSTER_SET_JOB}::text AND j.payload->>'mediaId' = m.media_id)
    RETURNING id`.execute(db);
  return rows.length;
}

/** The poster-set backfill: the sizes and formats made from the poster.jpg already published. */
export function posterSetJob(options: { db: Kysely<Database>; mediaDir: string; logger: Logger }): JobHandler {
  return async (payload) => {
    const mediaId = String(payload.mediaId);
    const media = await options.db.selectFrom('media').select(['poster_set', 'renditions']).where('media_id', '=', mediaId).executeTakeFirst();
    if (!media || media.poster_set !== null || !media.renditions.length) return;
    const token = await makePosterSet(join(options.mediaDir, hlsPath(mediaId)));
    await options.db.updateTable('media').set({ poster_set: token, updated_at: new Date() }).where('media_id', '=', mediaId).execute();
    options.logger.info('poster set made', { mediaId, token });
  };
}
