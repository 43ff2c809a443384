import type { Logger } from '../logger.ts';
import type { BackgroundWork } from '../jobs/queue.ts';
import type { MediaStore } from './media-store.ts';
import type { UploadStore } from './upload-store.ts';
import { AUDIO_TRANSCODE_JOB } from './audio-pipeline.ts';
import { TRANSCODE_JOB, hlsPath } from './paths.ts';
import { unpublishedWork } from '../repositories/uploads.repository.ts';
import type { Repositories } from '../repositories/index.ts';

/**
 * The job worker's background work: transcoding an upload that nobody has published yet. The
 * probe still runs at once when the last byte arrives (the form shows the length and refuses a
 * bad file, and publishing needs only that), and a transcode starts as soon as the worker has
 * nothing else to do, so a video published soon after its upload is usually playable at once;
 * but an upload left unpublished never holds up the probe or transcode of one that was, and
 * a running one gives way when such work arrives (server/jobs/queue.ts).
 */
export const unpublishedTranscode: BackgroundWork = unpublishedWork([TRANSCODE_JOB, AUDIO_TRANSCODE_JOB]);

/**
 * Removes the uploads finished more than `olderThanMs` ago and never published: their rows
 * (upload, media, jobs), the uploaded file (file or S3 store) and whatever was made of it (HLS
 * renditions, poster, storyboard, waveform cover). One whose job is running now is left for the
 * next sweep. Answers the media ids removed.
 */
export async function removeAbandonedUploads(options: {
  repositories: Pick<Repositories, 'uploads'>;
  uploads: UploadStore;
  media: MediaStore;
  logger: Logger;
  olderThanMs: number;
}): Promise<string[]> {
  const { logger } = options;
  const before = new Date(Date.now() - options.olderThanMs);
  const uploads = options.repositories.uploads;
  const candidates = await uploads.abandonedSince(before);
  const removed: string[] = [];
  for (const { media_id: mediaId, upload_id: uploadId } of candidates) {
    const gone = await uploads.removeAbandoned(mediaId, uploadId);
    if (!gone) continue;
    await options.uploads.datastore
      .remove(uploadId)
      .catch((error) => logger.warn("an abandoned upload's file could not be removed", { uploadId, err: error }));
    await options.media
      .removeAll(hlsPath(mediaId))
      .catch((error) => logger.warn("an abandoned upload's renditions could not be removed", { mediaId, err: error }));
    removed.push(mediaId);
  }
  if (removed.length) logger.info('abandoned uploads removed', { count: removed.length, mediaIds: removed });
  return removed;
}

/**
 * Unfinished uploads are removed after their expiry, and (by the worker) finished ones never
 * published after UPLOAD_ABANDONED_AFTER_MS, with what was made of them: now (awaited), then every
 * `everyMs`. Returns the stop.
 */
export async function startUploadSweep(options: {
  repositories: Pick<Repositories, 'uploads'>;
  uploads: UploadStore;
  media: MediaStore;
  logger: Logger;
  tus: { cleanExpired(): Promise<unknown> };
  worker: boolean;
  abandonedAfterMs: number;
  everyMs: number;
}): Promise<() => void> {
  const { repositories, uploads, media, logger } = options;
  const sweep = async () => {
    await options.tus.cleanExpired();
    if (options.worker)
      await removeAbandonedUploads({ repositories, uploads, media, logger, olderThanMs: options.abandonedAfterMs });
  };
  await sweep();
  const timer = setInterval(() => {
    sweep().catch((error) => logger.warn('cleaning expired uploads failed', { err: error }));
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
