import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import type { videoUploadBody } from '../../src/lib/api/contract.ts';
import type { z } from 'zod';
import { normalizeForSearch } from './search-text.ts';
import { forgetVideoBasics } from './catalogue.ts';
import { isStaff } from '../auth/roles.ts';
import type { Viewer } from './sessions.ts';

type Commit = z.output<typeof videoUploadBody>;

/** Covers come from our image service only, and only the committer's own. */
const coverPattern = (uid: number) => new RegExp(`^/media/images/covers/${uid}-[\\w-]+\\.webp$`);

/** What keyword search matches: the title on the first line, the description after it. */
export const searchTextOf = (title: string, description: string) => `${normalizeForSearch(title)}\n${normalizeForSearch(description)}`;

/** The write side of the catalogue: commits, review, soft deletion and watch counting. */
export function createVideoService(db: Kysely<Database>, options: { mediaDir: string }) {
  return {
    /**
     * video/upload: the media must be the caller's, checked by the pipeline (not refused) and
     * not used by another video; the duration is the sum of the parts' ffprobe durations.
     */
    async commit(uid: number, body: Commit): Promise<number> {
      const mediaIds = body.videoPart.map((p) => p.mediaId);
      const media = await db.selectFrom('media').select(['media_id', 'uid', 'status', 'reason', 'duration_ms']).where('media_id', 'in', mediaIds).execute();
      const byId = new Map(media.map((m) => [m.media_id, m]));
      for (const [index, mediaId] of mediaIds.entries()) {
        const item = byId.get(mediaId);
        if (!item) throw new AppError('NOT_FOUND', { issues: [{ path: `videoPart.${index}.mediaId`, message: 'no such upload' }] });
        if (item.uid !== uid) throw new AppError('FORBIDDEN');
        if (item.status === 'rejected' || item.status === 'failed') throw new AppError('MEDIA_REJECTED', { extra: { mediaId, reason: item.reason ?? 'CORRUPT' } });
        if (item.status === 'uploaded' || item.duration_ms === null) throw new AppError('MEDIA_NOT_READY', { extra: { mediaId } });
      }
      const image = body.image || null;
      if (image) {
        const ours = coverPattern(uid).test(image) && (await access(join(options.mediaDir, image.slice('/media/'.length))).then(() => true, () => false));
        if (!ours) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'image', message: 'is not a cover uploaded through video/cover/preUpload' }] });
      }
      const tagIds = [...new Set(body.videoTagList)];
      if (tagIds.length) {
        const found = await db.selectFrom('tags').select('tag_id').where('tag_id', 'in', tagIds).execute();
        if (found.length !== tagIds.length) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'videoTagList', message: 'contains a tag that does not exist' }] });
      }
      const duration = mediaIds.reduce((sum, id) => sum + (byId.get(id)!.duration_ms ?? 0), 0);
      try {
        return await db.transaction().execute(async (trx) => {
          const { video_id } = await trx.insertInto('videos').values({
            uploader_uid: uid, title: body.title, description: body.description, category: body.videoCategory, copyright: body.copyright,
            original_author: body.copyright === 'original' ? null : body.originalAuthor || null,
            original_link: body.copyright === 'original' ? null : body.originalLink || null,
            push_to_feed: body.pushToFeed, ensure_original: body.ensureOriginal, cover: image, duration_ms: duration,
            search_text: searchTextOf(body.title, body.description),
          }).returning('video_id').executeTakeFirstOrThrow();
          await trx.insertInto('video_parts').values(body.videoPart.map((p, part_index) => ({ video_id, part_index, title: p.videoPartTitle, media_id: p.mediaId }))).execute();
          if (tagIds.length) await trx.insertInto('video_tags').values(tagIds.map((tag_id, position) => ({ video_id, tag_id, position }))).execute();
          return video_id;
        });
      } catch (error) {
        // A media item belongs to one video only (unique constraint on video_parts.media_id).
        if ((error as { code?: string }).code === '23505') throw new AppError('CONFLICT', { cause: error });
        throw error;
      }
    },

    /** video/pending/approved: a pending video becomes public; the reviewer is recorded. */
    async approve(videoId: number, reviewerUid: number): Promise<void> {
      const refused = await db.selectFrom('video_parts as p').innerJoin('media as m', 'm.media_id', 'p.media_id').select('m.media_id')
        .where('p.video_id', '=', videoId).where('m.status', 'in', ['rejected', 'failed']).executeTakeFirst();
      if (refused) throw new AppError('MEDIA_REJECTED', { extra: { mediaId: refused.media_id } });
      const result = await db.updateTable('videos').set({ status: 'approved', reviewed_by: reviewerUid, reviewed_at: new Date() })
        .where('video_id', '=', videoId).where('status', '=', 'pending').executeTakeFirst();
      forgetVideoBasics(db, videoId);
      if (!result.numUpdatedRows) throw new AppError('NOT_FOUND');
    },

    /** video/delete: staff, or the uploader for their own video; a soft delete that records who. */
    async remove(videoId: number, viewer: Viewer): Promise<void> {
      const video = await db.selectFrom('videos').select(['uploader_uid', 'status']).where('video_id', '=', videoId).executeTakeFirst();
      if (!video || video.status === 'deleted') throw new AppError('NOT_FOUND');
      if (video.uploader_uid !== viewer.uid && !isStaff(viewer.roles)) throw new AppError('FORBIDDEN');
      await db.updateTable('videos').set({ status: 'deleted', deleted_by: viewer.uid, deleted_at: new Date() })
        .where('video_id', '=', videoId).where('status', '!=', 'deleted').execute();
      forgetVideoBasics(db, videoId);
    },

    /**
     * Counts a view: once per viewer (a member, or a guest's hashed address and browser) per
     * video per hour. Only approved videos are counted.
     */
    async watch(videoId: number, viewer: { uid: number } | null, guest: { ip: string; userAgent: string }): Promise<{ counted: boolean; watchedCount: number }> {
      const viewerKey = viewer ? `u:${viewer.uid}` : `g:${createHash('sha256').update(`${guest.ip}\n${guest.userAgent}`).digest('base64url').slice(0, 22)}`;
      return db.transaction().execute(async (trx) => {
        const video = await trx.selectFrom('videos').select('watched_count').where('video_id', '=', videoId).where('status', '=', 'approved').executeTakeFirst();
        if (!video) throw new AppError('NOT_FOUND');
        const inserted = await trx.insertInto('video_views').values({ video_id: videoId, viewer_key: viewerKey, hour: sql<Date>`date_trunc('hour', now())` })
          .onConflict((oc) => oc.doNothing()).returning('video_id').executeTakeFirst();
        if (!inserted) return { counted: false, watchedCount: video.watched_count };
        const updated = await trx.updateTable('videos').set((eb) => ({ watched_count: eb('watched_count', '+', 1) }))
          .where('video_id', '=', videoId).returning('watched_count').executeTakeFirstOrThrow();
        return { counted: true, watchedCount: updated.watched_count };
      });
    },

    /** Views older than the counting window are no longer needed. */
    async pruneViews(): Promise<void> {
      await db.deleteFrom('video_views').where('hour', '<', sql<Date>`now() - interval '2 hours'`).execute();
    },
  };
}
export type VideoService = ReturnType<typeof createVideoService>;
