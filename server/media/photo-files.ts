import { join } from 'node:path';
import type { MediaStore } from './media-store.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from '../jobs/queue.ts';
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

export function createPhotoFiles(options: { uploads: Pick<UploadStore, 'withLocalFile'>; onQueued?: () => void }): PhotoFiles {
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
export function photoProbeJob(options: { db: Kysely<Database>; uploads: Pick<UploadStore, 'withLocalFile'> }): JobHandler {
  const { db } = options;
  return async (payload) => {
    const mediaId = String(payload.mediaId);
    const media = await db.selectFrom('media').select(['upload_id', 'status']).where('media_id', '=', mediaId).executeTakeFirst();
    if (!media || media.status !== 'uploaded') return;
    const verdict = await options.uploads.withLocalFile(media.upload_id, inspectPhoto);
    await db.updateTable('media').set(verdict.ok
      ? { status: 'probed', width: verdict.width, height: verdict.height, updated_at: new Date() }
      : { status: 'rejected', reason: verdict.reason, updated_at: new Date() }).where('media_id', '=', mediaId).execute();
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
export function photoRenderJob(options: { db: Kysely<Database>; uploads: Pick<UploadStore, 'withLocalFile'>; media: MediaStore; logger: Logger }): JobHandler {
  const { db, media, logger } = options;
  const fail = (photoId: number, failure: string) =>
    db.updateTable('photos').set({ status: 'failed', failure }).where('photo_id', '=', photoId).where('status', '=', 'processing').execute();

  return async (payload, run) => {
    const photoId = Number(payload.photoId);
    const post = await db.selectFrom('photos').select(['status', 'keep_camera_data']).where('photo_id', '=', photoId).executeTakeFirst();
    if (!post || post.status !== 'processing') return; // deleted meanwhile, or a retried job already done
    const images = await db.selectFrom('photo_images as i').innerJoin('media as m', 'm.media_id', 'i.media_id')
      .select(['i.image_id', 'i.widths', 'm.upload_id']).where('i.photo_id', '=', photoId).orderBy('i.position').execute();
    for (const image of images) {
      if (image.widths.length) continue; // rendered by an earlier attempt
      const outcome = await options.uploads.withLocalFile(image.upload_id, async (path) => {
        const inspection = await inspectPhoto(path);
        if (!inspection.ok) return { refused: inspection.reason };
        const folder = `${photoPath(photoId)}/${image.image_id}`;
        try {
          const rendered = await renderPhoto(path, inspection, (width, format, bytes) => media.put(`${folder}/${width}.${format}`, bytes));
          const camera = post.keep_camera_data ? await readCameraData(path) : null;
          return { rendered, camera };
        } catch (error) {
          if (run.isLastAttempt) return { refused: 'CORRUPT' };
          throw error;
        }
      });
      if ('refused' in outcome) {
        await fail(photoId, outcome.refused ?? 'CORRUPT');
        await removePhotoFiles(media, photoId);
        logger.info('photo refused', { photoId, imageId: image.image_id, reason: outcome.refused });
        return;
      }
      const { rendered, camera } = outcome;
      await db.updateTable('photo_images').set({
        width: rendered.width, height: rendered.height, widths: rendered.widths, animated: rendered.animated,
        placeholder: rendered.placeholder, camera: camera ? JSON.stringify(camera) : null,
      }).where('image_id', '=', image.image_id).execute();
    }
    // The demo catalogue's posts (server/demo/seed.ts) are public once rendered; members' wait for review.
    const rendered = payload.approveWhenRendered === true ? { status: 'approved' as const, reviewed_at: new Date() } : { status: 'pending' as const };
    await db.updateTable('photos').set(rendered).where('photo_id', '=', photoId).where('status', '=', 'processing').execute();
    logger.info('photo rendered', { photoId, images: images.length });
  };
}
