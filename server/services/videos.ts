import { createHash } from 'node:crypto';
import type { Repositories } from '../repositories/index.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import type { videoUploadBody } from '../../src/lib/api/contracts/upload.ts';
import type { videoUpdateBody } from '../../src/lib/api/contracts/video.ts';
import type { ReviewRejectionReason } from '../../src/lib/api/contracts/common.constants.ts';
import type { z } from 'zod';
import { normalizeForSearch } from './search-text.ts';
import type { MediaStore } from '../media/media-store.ts';
import { recordStaffAction } from './moderation-log.ts';
import { createCountWindow } from './write-window.ts';
import type { Logger } from '../logger.ts';

/**
 * How long counted views wait in memory before their videos' watch counts are written, once per
 * video (docs/decisions/0023): a video watched 1 000 times a second updates its row once a second.
 */
export const VIEW_COUNT_WINDOW_MS = 1000;

type Commit = z.output<typeof videoUploadBody>;
type Update = z.output<typeof videoUpdateBody>;

/**
 * Covers come from our image service only, and only the committer's own: a poster set's 640 px
 * JPEG (server/media/image-service.ts), or the single WebP that covers were before.
 */
const coverPattern = (uid: number) =>
  new RegExp(`^/media/images/covers/${uid}-[\\w-]+(\\.webp|/poster-[0-9a-f]{12}-640\\.jpg)$`);

/** Checks that a cover is one this member uploaded through our image service, and that it is still there. */
export async function checkOwnCover(media: MediaStore, uid: number, image: string): Promise<void> {
  const ours = coverPattern(uid).test(image) && (await media.exists(image.slice('/media/'.length)));
  if (!ours)
    throw new DomainError('VALIDATION_FAILED', {
      issues: [{ path: 'image', message: 'is not a cover uploaded through video/cover/preUpload' }],
    });
}

/** Who counts once per hour for views and plays: a member, or a guest's network (hashed). */
export const viewerKeyOf = (viewer: { uid: number } | null, guestAddress: string) =>
  viewer
    ? `u:${viewer.uid}`
    : `g:${createHash('sha256').update(addressNetwork(guestAddress)).digest('base64url').slice(0, 22)}`;

/** What keyword search matches: the title on the first line, the description after it. */
export const searchTextOf = (title: string, description: string) =>
  `${normalizeForSearch(title)}\n${normalizeForSearch(description)}`;

/** The write side of the catalogue: commits, review, soft deletion and watch counting. */
export function createVideoService(
  repositories: Pick<Repositories, 'videos' | 'media' | 'tags' | 'moderationLog' | 'transaction'>,
  options: { media: MediaStore; logger?: Pick<Logger, 'warn'>; viewWindowMs?: number },
) {
  const { videos } = repositories;
  // Views counted and not yet added to their videos' rows, by video.
  const views = createCountWindow({
    windowMs: options.viewWindowMs ?? VIEW_COUNT_WINDOW_MS,
    write: (counts) => videos.addWatchedCounts(counts),
    onError: (error) =>
      options.logger?.warn('watch counts could not be written, kept for the next window', { err: error }),
  });

  /** A cover must be one this member uploaded through our image service, and still be there. */
  const checkCover = (uid: number, image: string) => checkOwnCover(options.media, uid, image);

  /** The tags without repeats, each of which must exist. */
  async function checkTags(tagList: readonly number[]): Promise<number[]> {
    const tagIds = [...new Set(tagList)];
    if (tagIds.length && (await repositories.tags.existing(tagIds)).length !== tagIds.length) {
      throw new DomainError('VALIDATION_FAILED', {
        issues: [{ path: 'videoTagList', message: 'contains a tag that does not exist' }],
      });
    }
    return tagIds;
  }

  return {
    /**
     * video/upload: the media must be the caller's, checked by the pipeline (not refused) and
     * not used by another video; the duration is the sum of the parts' ffprobe durations.
     */
    async commit(uid: number, body: Commit): Promise<number> {
      const mediaIds = body.videoPart.map((p) => p.mediaId);
      const media = await repositories.media.byIds(mediaIds);
      const byId = new Map(media.map((m) => [m.media_id, m]));
      for (const [index, mediaId] of mediaIds.entries()) {
        const item = byId.get(mediaId);
        if (!item)
          throw new DomainError('NOT_FOUND', {
            issues: [{ path: `videoPart.${index}.mediaId`, message: 'no such upload' }],
          });
        if (item.uid !== uid) throw new DomainError('FORBIDDEN');
        if (item.kind !== 'video')
          throw new DomainError('VALIDATION_FAILED', {
            issues: [{ path: `videoPart.${index}.mediaId`, message: `is an ${item.kind} upload, not a video` }],
          });
        if (item.status === 'rejected' || item.status === 'failed')
          throw new DomainError('MEDIA_REJECTED', { extra: { mediaId, reason: item.reason ?? 'CORRUPT' } });
        if (item.status === 'uploaded' || item.duration_ms === null)
          throw new DomainError('MEDIA_NOT_READY', { extra: { mediaId } });
      }
      const image = body.image || null;
      if (image) await checkCover(uid, image);
      const tagIds = await checkTags(body.videoTagList);
      const duration = mediaIds.reduce((sum, id) => sum + (byId.get(id)!.duration_ms ?? 0), 0);
      try {
        return await repositories.transaction(async (r) => {
          const videoId = await r.videos.insertVideo({
            uploader_uid: uid,
            title: body.title,
            description: body.description,
            category: body.videoCategory,
            copyright: body.copyright,
            original_author: body.copyright === 'original' ? null : body.originalAuthor || null,
            original_link: body.copyright === 'original' ? null : body.originalLink || null,
            push_to_feed: body.pushToFeed,
            ensure_original: body.ensureOriginal,
            cover: image,
            duration_ms: duration,
            search_text: searchTextOf(body.title, body.description),
          });
          await r.videos.insertParts(
            videoId,
            body.videoPart.map((p) => ({ title: p.videoPartTitle, mediaId: p.mediaId })),
          );
          await r.videos.insertTags(videoId, tagIds);
          return videoId;
        });
      } catch (error) {
        // A media item belongs to one video only (unique constraint on video_parts.media_id).
        if ((error as { code?: string }).code === '23505') throw new DomainError('CONFLICT', { cause: error });
        throw error;
      }
    },

    /** video/pending/approved: a pending video becomes public; the reviewer is recorded. */
    async approve(videoId: number, reviewerUid: number): Promise<void> {
      const refused = await videos.partMediaIn(videoId, ['rejected', 'failed']);
      if (refused) throw new DomainError('MEDIA_REJECTED', { extra: { mediaId: refused } });
      if (!(await videos.approvePending(videoId, reviewerUid))) throw new DomainError('NOT_FOUND');
      await recordStaffAction(repositories, {
        actorUid: reviewerUid,
        action: 'video.approve',
        targetType: 'video',
        targetId: videoId,
      });
    },

    /** video/pending/rejected: a pending video is removed with the reviewer's reason and note, which its uploader reads in "my videos". */
    async reject(
      videoId: number,
      reviewerUid: number,
      rejection: { reason: ReviewRejectionReason; note: string },
    ): Promise<void> {
      if (!(await videos.rejectPending(videoId, reviewerUid, rejection))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: reviewerUid,
        action: 'video.reject',
        targetType: 'video',
        targetId: videoId,
        details: { ...rejection },
      });
    },

    /** The uploader of a video that is not deleted (who may delete it is the policy's decision). */
    async uploaderOf(videoId: number): Promise<number> {
      const uploaderUid = await videos.uploaderOf(videoId);
      if (uploaderUid === undefined) throw new NotFound();
      return uploaderUid;
    },

    /**
     * video/update: changes the fields sent (the caller was authorised on the video's uploader).
     * A new cover must be the editor's own upload. An approved video whose title, description,
     * tags or cover change goes back to review, hidden until approved again; the category alone
     * does not send it back.
     */
    async update(
      videoId: number,
      editorUid: number,
      changes: Omit<Update, 'videoId'>,
    ): Promise<{ status: 'pending' | 'approved'; backToReview: boolean }> {
      const tagIds = changes.videoTagList && (await checkTags(changes.videoTagList));
      const outcome = await repositories.transaction(async (r) => {
        const video = await r.videos.editableForUpdate(videoId);
        if (!video) throw new NotFound();
        const image = changes.image === undefined ? video.cover : changes.image || null;
        if (image && image !== video.cover) await checkCover(editorUid, image);
        const title = changes.title ?? video.title;
        const description = changes.description ?? video.description;
        const currentTags = (await r.videos.tagIdsOf([videoId])).get(videoId) ?? [];
        const tagsChanged = !!tagIds && tagIds.join() !== currentTags.join();
        const publicChange =
          title !== video.title || description !== video.description || image !== video.cover || tagsChanged;
        const backToReview = video.status === 'approved' && publicChange;
        await r.videos.updateMetadata(videoId, {
          title,
          description,
          cover: image,
          category: changes.videoCategory ?? video.category,
          search_text: searchTextOf(title, description),
          ...(backToReview ? { status: 'pending' as const } : {}),
        });
        if (tagsChanged) await r.videos.replaceTags(videoId, tagIds);
        return {
          status: backToReview
            ? ('pending' as const)
            : video.status === 'approved'
              ? ('approved' as const)
              : ('pending' as const),
          backToReview,
        };
      });
      videos.forget(videoId);
      return outcome;
    },

    /** video/delete: a soft delete that records who. */
    async remove(videoId: number, byUid: number): Promise<void> {
      const uploaderUid = await videos.uploaderOf(videoId);
      if (!(await videos.markDeleted(videoId, byUid))) throw new NotFound();
      // Staff deleting someone else's video is a staff action; an uploader deleting their own is not.
      if (uploaderUid !== byUid)
        await recordStaffAction(repositories, {
          actorUid: byUid,
          action: 'video.delete',
          targetType: 'video',
          targetId: videoId,
          details: { uploaderUid },
        });
    },

    /** Staff take an approved video out of public view: it goes back to the review queue. */
    async hide(videoId: number, byUid: number): Promise<void> {
      if (!(await videos.hideApproved(videoId))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: byUid,
        action: 'video.hide',
        targetType: 'video',
        targetId: videoId,
      });
    },

    /**
     * Counts a view: once per viewer per video per hour, a viewer being a member or, for guests,
     * an address (an IPv6 address by its /64 network, which one home or phone holds whole).
     * Nothing the browser sends of itself counts: a guest who changes User-Agent or cookies on
     * every request still counts once. Guests behind one shared address count once an hour
     * between them; members count each. Only approved videos are counted. The view is recorded
     * at once; the video's watch count takes it within VIEW_COUNT_WINDOW_MS (one write per video
     * per window, not one per view).
     */
    async watch(
      videoId: number,
      viewer: { uid: number } | null,
      guestAddress: string,
    ): Promise<{ counted: boolean; watchedCount: number }> {
      const seen = await videos.recordView(videoId, viewerKeyOf(viewer, guestAddress));
      if (!seen) throw new DomainError('NOT_FOUND');
      if (seen.counted) views.add(videoId);
      // The stored count and what this process has not written yet (other processes' windows show within a second).
      return { counted: seen.counted, watchedCount: seen.watchedCount + views.unwritten(videoId) };
    },

    /** Writes the views counted so far to their videos (the drain calls it before the database closes). */
    flushViews: () => views.flush(),

    /** Views older than the counting window (the hour, and the hour before it) are no longer needed. */
    pruneViews: (): Promise<void> => videos.deleteViewsOlderThan(2),
  };
}
export type VideoService = ReturnType<typeof createVideoService>;

/** The part of an address that one guest holds: all of an IPv4 address, an IPv6 address's /64. */
export function addressNetwork(address: string): string {
  const bare = address.replace(/^::ffff:(?=\d+\.)/i, '');
  if (!bare.includes(':')) return bare;
  const [head, tail = ''] = bare.toLowerCase().split('::');
  const groups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const full = bare.includes('::')
    ? [...groups, ...Array(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups]
    : groups;
  return `${full
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
