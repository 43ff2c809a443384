/**
 * The media jobs a worker runs, by name, and the backfills queued at start: the list the
 * composition root hands to startJobWorker (queue.ts), kept beside the queue.
 */
import type { Logger } from '../logger.ts';
import type { MediaStore } from '../media/media-store.ts';
import type { UploadStore } from '../media/upload-store.ts';
import {
  FRAME_RATE_JOB,
  POSTER_SET_JOB,
  PROBE_JOB,
  TRANSCODE_JOB,
  frameRateJob,
  posterSetJob,
  probeJob,
  queueFrameRateBackfill,
  queuePosterSetBackfill,
  transcodeJob,
} from '../media/pipeline.ts';
import { AUDIO_PROBE_JOB, AUDIO_TRANSCODE_JOB, audioProbeJob, audioTranscodeJob } from '../media/audio-pipeline.ts';
import { PHOTO_JOB, PHOTO_PROBE_JOB, photoProbeJob, photoRenderJob } from '../media/photo-files.ts';
import type { JobHandler } from './queue.ts';
import type { Repositories } from '../repositories/index.ts';

/** The repositories are the root's one set: the jobs share its caches with the API and the media server. */
export interface MediaJobDeps {
  repositories: Repositories;
  uploads: UploadStore;
  media: MediaStore;
  logger: Logger;
}

/** Every media job by its name: video, audio and photo processing and the video backfills. */
export function mediaJobHandlers({ repositories, uploads, media, logger }: MediaJobDeps): Record<string, JobHandler> {
  return {
    [PROBE_JOB]: probeJob({ repositories, uploads, logger }),
    [TRANSCODE_JOB]: transcodeJob({ repositories, uploads, media, logger }),
    [FRAME_RATE_JOB]: frameRateJob({ repositories, media, logger }),
    [AUDIO_PROBE_JOB]: audioProbeJob({ repositories, uploads, logger }),
    [AUDIO_TRANSCODE_JOB]: audioTranscodeJob({ repositories, uploads, media, logger }),
    [PHOTO_PROBE_JOB]: photoProbeJob({ repositories, uploads }),
    [PHOTO_JOB]: photoRenderJob({ repositories, uploads, media, logger }),
    [POSTER_SET_JOB]: posterSetJob({ repositories, media, logger }),
  };
}

/**
 * Media from before frame rates (migration 0013) or poster sets (0020) get theirs as jobs: worked
 * one at a time with the queue's bounded retries, never delaying the start (not awaited).
 */
export function queueMediaBackfills(options: {
  repositories: Pick<Repositories, 'media'>;
  logger: Logger;
  onQueued: () => void;
}): void {
  for (const [what, queue] of [
    ['frame rates', queueFrameRateBackfill],
    ['poster sets', queuePosterSetBackfill],
  ] as const) {
    queue(options.repositories.media)
      .then((queued) => {
        if (!queued) return;
        options.logger.info(`${what} to backfill`, { queued });
        options.onQueued();
      })
      .catch((error) => options.logger.warn(`queueing the ${what} backfill failed`, { err: error }));
  }
}
