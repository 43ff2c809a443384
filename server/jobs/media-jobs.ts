/**
 * The media jobs a worker runs, by name, and the backfills queued at start: the list the
 * composition root hands to startJobWorker (queue.ts), kept beside the queue.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { MediaStore } from '../media/media-store.ts';
import type { UploadStore } from '../media/upload-store.ts';
import { FRAME_RATE_JOB, POSTER_SET_JOB, PROBE_JOB, TRANSCODE_JOB, frameRateJob, posterSetJob, probeJob, queueFrameRateBackfill, queuePosterSetBackfill, transcodeJob } from '../media/pipeline.ts';
import { AUDIO_PROBE_JOB, AUDIO_TRANSCODE_JOB, audioProbeJob, audioTranscodeJob } from '../media/audio-pipeline.ts';
import { PHOTO_JOB, PHOTO_PROBE_JOB, photoProbeJob, photoRenderJob } from '../media/photo-files.ts';
import type { JobHandler } from './queue.ts';
import type { RepositoryCaches } from '../repositories/caches.ts';

export interface MediaJobDeps { db: Kysely<Database>; caches: RepositoryCaches; uploads: UploadStore; media: MediaStore; logger: Logger }

/** Every media job by its name: video, audio and photo processing and the video backfills. */
export function mediaJobHandlers({ db, caches, uploads, media, logger }: MediaJobDeps): Record<string, JobHandler> {
  return {
    [PROBE_JOB]: probeJob({ db, uploads, logger }),
    [TRANSCODE_JOB]: transcodeJob({ db, uploads, media, logger }),
    [FRAME_RATE_JOB]: frameRateJob({ db, media, logger }),
    [AUDIO_PROBE_JOB]: audioProbeJob({ db, uploads, logger }),
    [AUDIO_TRANSCODE_JOB]: audioTranscodeJob({ db, uploads, media, logger }),
    [PHOTO_PROBE_JOB]: photoProbeJob({ db, uploads }),
    [PHOTO_JOB]: photoRenderJob({ db, caches, uploads, media, logger }),
    [POSTER_SET_JOB]: posterSetJob({ db, media, logger }),
  };
}

/**
 * Media from before frame rates (migration 0013) or poster sets (0020) get theirs as jobs: worked
 * one at a time with the queue's bounded retries, never delaying the start (not awaited).
 */
export function queueMediaBackfills(options: { db: Kysely<Database>; logger: Logger; onQueued: () => void }): void {
  for (const [what, queue] of [['frame rates', queueFrameRateBackfill], ['poster sets', queuePosterSetBackfill]] as const) {
    queue(options.db)
      .then((queued) => {
        if (!queued) return;
        options.logger.info(`${what} to backfill`, { queued });
        options.onQueued();
      })
      .catch((error) => options.logger.warn(`queueing the ${what} backfill failed`, { err: error }));
  }
}
