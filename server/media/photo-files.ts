import type { MediaStore } from './media-store.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { Repositories } from '../repositories/index.ts';
import type { UploadStore } from './upload-store.ts';
import { photoPath } from './paths.ts';
import { inspectPhoto, readCameraData, renderPhoto, type PhotoInspection } from './photo-pipeline.ts';

export const PHOTO_JOB = 'photo.render';
export const PHOTO_PROBE_JOB = 'photo.probe';

/**
 * The one place that reads uploaded photos and writes their rendered files (under
 * MEDIA_DIR/photos/, served under /media/photos/): what the photo service and the render job use.
 */
export interface PhotoFiles {
  /** The upload's header verdict (format, size, pixels), before a post is accepted. */
  inspect(uploadId: string): Promise<PhotoInspection>;
  /** Wakes the job worker after a post's render job is queued. */
  queued(): void;
}

export function createPhotoFiles(options: {
  uploads: Pick<UploadStore, 'withLocalFile'>;
  onQueued?: () => void;
}): PhotoFiles {
  return {
    inspect: (uploadId) => options.uploads.withLocalFile(uploadId, inspectPhoto),
    queued: () => options.onQueued?.(),
  };
}

/**
 * The probe of a finished photo upload (queued by the tus endpoint): its header verdict, kept on
 * the media item (probed with its size, or rejected with the reason) so the uploader hears at
 * once (video/media/status) that an image will be refused, before the post is committed.
 */
export function photoProbeJob(options: {
  repositories: Pick<Repositories, 'media'>;
  uploads: Pick<UploadStore, 'withLocalFile'>;
}): JobHandler {
  const mediaRows = options.repositories.media;
  return async (payload) => {
    const mediaId = String(payload.mediaId);
    const media = await mediaRows.toProbe(mediaId);
    if (!media || media.status !== 'uploaded') return;
    const verdict = await options.uploads.withLocalFile(media.uploadId, inspectPhoto);
    await (verdict.ok
      ? mediaRows.recordProbe(mediaId, { width: verdict.width, height: verdict.height }, null)
      : mediaRows.recordProbe(mediaId, {}, verdict.reason));
  };
}

/** Removes a post's rendered files (a post that failed, or was deleted for good). */
export async function removePhotoFiles(media: MediaStore, photoId: number): Promise<void> {
  await media.removeAll(photoPath(photoId));
}

/**
 * The render job of one post: each image not yet rendered is decoded and written in every
 * width and format; then the post waits for review. An image the pipeline refuses (or that
 * cannot be decoded on the last attempt) fails the post with the reason, which the uploader sees.
 */
export function photoRenderJob(options: {
  repositories: Pick<Repositories, 'photos'>;
  uploads: Pick<UploadStore, 'withLocalFile'>;
  media: MediaStore;
  logger: Logger;
}): JobHandler {
  const { media, logger } = options;
  const photos = options.repositories.photos;

  return async (payload, run) => {
    const photoId = Number(payload.photoId);
    const post = await photos.toRender(photoId);
    if (!post || post.status !== 'processing') return; // deleted meanwhile, or a retried job already done
    const images = await photos.imagesToRender(photoId);
    for (const image of images) {
      if (image.widths.length) continue; // rendered by an earlier attempt
      const outcome = await options.uploads.withLocalFile(image.upload_id, async (path) => {
        const inspection = await inspectPhoto(path);
        if (!inspection.ok) return { refused: inspection.reason };
        const folder = `${photoPath(photoId)}/${image.image_id}`;
        try {
          const rendered = await renderPhoto(path, inspection, (width, format, bytes) =>
            media.put(`${folder}/${width}.${format}`, bytes),
          );
          const camera = post.keep_camera_data ? await readCameraData(path) : null;
          return { rendered, camera };
        } catch (error) {
          if (run.isLastAttempt) return { refused: 'CORRUPT' };
          throw error;
        }
      });
      if ('refused' in outcome) {
        await photos.failRender(photoId, outcome.refused ?? 'CORRUPT');
        await removePhotoFiles(media, photoId);
        logger.info('photo refused', { photoId, imageId: image.image_id, reason: outcome.refused });
        return;
      }
      const { rendered, camera } = outcome;
      await photos.recordRenderedImage(image.image_id, rendered, camera);
    }
    // The demo catalogue's posts (server/demo/seed.ts) are public once rendered; members' wait for review.
    await photos.finishRender(photoId, payload.approveWhenRendered === true);
    logger.info('photo rendered', { photoId, images: images.length });
  };
}
