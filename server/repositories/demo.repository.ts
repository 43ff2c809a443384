/**
 * The demo catalogue's rows (server/demo/seed.ts): finished uploads, videos with their first
 * viewers' danmaku and comments, tracks and photo posts, each written with its job as the real
 * pipelines would leave them, in one transaction per item.
 */
import type { Kysely } from 'kysely';
import type { Database, MediaTable } from '../db/schema.ts';
import type { VideoCategory } from '../../src/lib/api/contracts/video.constants.ts';
import { enqueueJob } from './job-queue.repository.ts';

type ProbedFacts = {
  durationMs: number;
  width?: number;
  height?: number;
  videoCodec?: string | null;
  audioCodec?: string | null;
};
export interface DemoUpload {
  uploadId: string;
  mediaId: string;
  uid: number;
  fileName: string;
  size: number;
  kind: 'video' | 'audio' | 'photo';
  maxDurationSeconds: number;
}
export interface DemoVideoRows {
  title: string;
  description: string;
  category: VideoCategory;
  searchText: string;
  tagIds: number[];
  danmaku: Array<{
    uid: number;
    time: number;
    text: string;
    mode: string;
    color: string;
    fontSize: string;
    rainbow: boolean;
  }>;
  comments: Array<{ uid: number; text: string }>;
}

export function createDemoRepository(db: Kysely<Database>) {
  /** A finished upload stored as one sent through tus. */
  const insertUpload = (trx: Kysely<Database>, upload: DemoUpload, now: Date) =>
    trx
      .insertInto('uploads')
      .values({
        id: upload.uploadId,
        uid: upload.uid,
        file_name: upload.fileName,
        size: upload.size,
        max_duration_seconds: upload.maxDurationSeconds,
        kind: upload.kind,
        expires_at: now,
        finished_at: now,
        media_id: upload.mediaId,
      })
      .execute();
  const insertProbedMedia = (trx: Kysely<Database>, upload: DemoUpload, facts: Partial<MediaTable> & object) =>
    trx
      .insertInto('media')
      .values({
        media_id: upload.mediaId,
        upload_id: upload.uploadId,
        uid: upload.uid,
        kind: upload.kind,
        status: 'probed',
        ...facts,
      } as never)
      .execute();

  return {
    /** Whether the site has no member yet (only a brand-new site gets demo content). */
    async isEmpty(): Promise<boolean> {
      return !(await db.selectFrom('users').select('uid').limit(1).executeTakeFirst());
    },

    async setSignature(uid: number, signature: string) {
      await db.updateTable('users').set({ signature }).where('uid', '=', uid).execute();
    },

    async insertUpload(upload: DemoUpload) {
      await insertUpload(db, upload, new Date());
    },

    /** An approved video of one probed part, with its tags, danmaku and comments, and its transcode job. */
    async insertVideo(upload: DemoUpload, probe: ProbedFacts, video: DemoVideoRows, transcodeJob: string) {
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        await insertUpload(trx, upload, now);
        await insertProbedMedia(trx, upload, {
          duration_ms: probe.durationMs,
          width: probe.width,
          height: probe.height,
          video_codec: probe.videoCodec,
          audio_codec: probe.audioCodec,
        });
        const { video_id } = await trx
          .insertInto('videos')
          .values({
            uploader_uid: upload.uid,
            title: video.title,
            description: video.description,
            category: video.category,
            copyright: 'original',
            ensure_original: true,
            duration_ms: probe.durationMs,
            status: 'approved',
            reviewed_at: now,
            search_text: video.searchText,
          })
          .returning('video_id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('video_parts')
          .values({ video_id, part_index: 0, title: '', media_id: upload.mediaId })
          .execute();
        await trx
          .insertInto('video_tags')
          .values(video.tagIds.map((tag_id, position) => ({ video_id, tag_id, position })))
          .execute();
        await trx
          .insertInto('danmaku')
          .values(
            video.danmaku.map((d) => ({
              video_id,
              uid: d.uid,
              time: d.time,
              text: d.text,
              mode: d.mode,
              color: d.color,
              font_size: d.fontSize,
              rainbow: d.rainbow,
            })) as never,
          )
          .execute();
        await trx
          .updateTable('videos')
          .set({ comment_floor: video.comments.length })
          .where('video_id', '=', video_id)
          .execute();
        await trx
          .insertInto('comments')
          .values(
            video.comments.map((comment, n) => ({ video_id, floor: n + 1, uid: comment.uid, text: comment.text })),
          )
          .execute();
        await enqueueJob(trx, transcodeJob, { mediaId: upload.mediaId });
      });
    },

    /** An approved track over a probed upload, with its tags and its transcode job. */
    async insertTrack(
      upload: DemoUpload,
      probe: ProbedFacts,
      track: { title: string; artist: string; description: string; searchText: string; tagIds: number[] },
      job: { kind: string; payload: Record<string, unknown> },
    ) {
      const now = new Date();
      await db.transaction().execute(async (trx) => {
        await insertProbedMedia(trx, upload, { duration_ms: probe.durationMs, audio_codec: probe.audioCodec });
        const { audio_id } = await trx
          .insertInto('audio_tracks')
          .values({
            uploader_uid: upload.uid,
            media_id: upload.mediaId,
            title: track.title,
            artist: track.artist,
            description: track.description,
            category: 'music',
            copyright: 'original',
            original_author: null,
            original_link: null,
            cover: null,
            duration_ms: probe.durationMs,
            search_text: track.searchText,
            status: 'approved',
            reviewed_at: now,
          })
          .returning('audio_id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('audio_tags')
          .values(track.tagIds.map((tag_id, position) => ({ audio_id, tag_id, position })))
          .execute();
        await enqueueJob(trx, job.kind, job.payload);
      });
    },

    /** A probed picture of a photo post to be. */
    async insertPhotoMedia(upload: DemoUpload, size: { width: number; height: number }) {
      await insertProbedMedia(db, upload, size);
    },

    /** A post of these images, processing, with its tags and the render job that makes it public. */
    async insertPost(
      uid: number,
      post: { title: string; description: string; searchText: string; tagIds: number[] },
      images: Array<{ mediaId: string; alt: string }>,
      renderJob: string,
    ) {
      await db.transaction().execute(async (trx) => {
        const { photo_id } = await trx
          .insertInto('photos')
          .values({
            uploader_uid: uid,
            title: post.title,
            description: post.description,
            copyright: 'original',
            status: 'processing',
            search_text: post.searchText,
          })
          .returning('photo_id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('photo_images')
          .values(images.map((image, position) => ({ photo_id, position, media_id: image.mediaId, alt: image.alt })))
          .execute();
        await trx
          .insertInto('photo_tags')
          .values(post.tagIds.map((tag_id, position) => ({ photo_id, tag_id, position })))
          .execute();
        await enqueueJob(trx, renderJob, { photoId: photo_id, approveWhenRendered: true });
      });
    },
  };
}
