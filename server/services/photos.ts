import type { z } from 'zod';
import type { Repositories } from '../repositories/index.ts';
import type { PhotoFilter } from '../repositories/photos.repository.ts';
import type { PhotoStatus } from '../db/schema.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import type { PhotoFiles } from '../media/photo-files.ts';
import { PHOTO_JOB } from '../media/photo-files.ts';
import { photoPath } from '../media/paths.ts';
import type { PhotoDetail, PhotoImage, PhotoThumb, photoUploadBody } from '../../src/lib/api/contracts/photo.ts';
import type { PhotoState } from '../../src/lib/api/contracts/photo.constants.ts';
import type { Copyright } from '../../src/lib/api/contracts/video.constants.ts';
import type { HistoryItem } from '../../src/lib/api/contracts/history.ts';
import type { ReviewRejectionReason } from '../../src/lib/api/contracts/common.constants.ts';
import { REVIEW_REJECTION_REASONS } from '../../src/lib/api/contracts/common.constants.ts';
import { createTagService } from './tags.ts';
import { recordStaffAction } from './moderation-log.ts';
import { searchTerms } from './search-text.ts';
import { searchTextOf } from './videos.ts';
import type { Page } from './catalogue.ts';
import { can, type Actor } from '../../src/lib/policy/policy.ts';
import type { TargetFacts } from './media-targets.ts';
import type { FeedPosition } from '../repositories/keyset.sql.ts';

type Commit = z.output<typeof photoUploadBody>;
type ImageRow = Awaited<ReturnType<Repositories['photos']['imagesOf']>>[number];
type PostRow = NonNullable<Awaited<ReturnType<Repositories['photos']['detail']>>>;

/** What everyone may list; what an uploader lists of their own. */
const PUBLIC: readonly PhotoStatus[] = ['approved'];
const OWN: readonly PhotoStatus[] = ['processing', 'pending', 'approved', 'failed'];

function toImage(row: ImageRow): PhotoImage {
  const rendered = row.widths.length > 0;
  return {
    imageId: row.image_id,
    alt: row.alt,
    width: row.width ?? 0,
    height: row.height ?? 0,
    base: rendered ? `/media/${photoPath(row.photo_id)}/${row.image_id}` : '',
    widths: row.widths,
    animated: row.animated,
    placeholder: row.placeholder,
    camera: row.camera,
  };
}

/**
 * Photo posts (issue 13): the commit (each image checked from its header before the post is
 * accepted, then rendered by a job), the lists, one post, review and deletion.
 */
export function createPhotoService(
  repositories: Pick<Repositories, 'photos' | 'tags' | 'follows' | 'moderationLog' | 'transaction'>,
  files: PhotoFiles,
) {
  const { photos, follows } = repositories;
  const tags = createTagService(repositories);

  /** Posts as list thumbs, each with its first image as the cover. */
  async function thumbsOf(rows: PostRow[], withStatus = false): Promise<PhotoThumb[]> {
    const covers = new Map(
      (
        await photos.imagesOf(
          rows.map((r) => r.photo_id),
          true,
        )
      ).map((i) => [i.photo_id, toImage(i)]),
    );
    return rows.map((row): PhotoThumb => {
      // A post a reviewer refused: its files are no longer served, the uploader reads why instead.
      const refused = row.status === 'deleted';
      return {
        photoId: row.photo_id,
        title: row.title,
        uploadDate: new Date(row.created_at).getTime(),
        uploaderId: row.uploader_uid,
        uploader: row.username,
        uploaderNickname: row.user_nickname,
        imageCount: Number(row.image_count),
        cover: refused ? null : (covers.get(row.photo_id) ?? null),
        ...(withStatus ? { status: refused ? 'rejected' : (row.status as PhotoState) } : {}),
        ...(withStatus && refused
          ? {
              rejectionReason: REVIEW_REJECTION_REASONS.find((r) => r === row.rejection_reason) ?? 'OTHER',
              rejectionNote: row.rejection_note,
            }
          : {}),
      };
    });
  }

  async function list(
    filter: PhotoFilter,
    page: Page,
    options: { withStatus?: boolean; order?: 'newest' | 'oldest' } = {},
  ) {
    const { count, rows } = await photos.page({ ...filter, hiddenFrom: page.viewerUid }, page, options.order);
    return { photosCount: count, photos: await thumbsOf(rows, options.withStatus) };
  }

  async function detailOf(row: PostRow, looker: Actor | null): Promise<PhotoDetail> {
    const isSelf = looker?.uid === row.uploader_uid;
    const [images, tagIds, isFollowing] = await Promise.all([
      photos.imagesOf([row.photo_id]),
      photos.tagIdsOf([row.photo_id]),
      looker && !isSelf ? follows.exists(looker.uid, row.uploader_uid) : false,
    ]);
    return {
      photoId: row.photo_id,
      title: row.title,
      description: row.description,
      uploadDate: new Date(row.created_at).getTime(),
      copyright: row.copyright as Copyright,
      originalAuthor: row.original_author,
      status: row.status as PhotoState,
      failure: row.failure,
      images: images.map(toImage),
      tags: await tags.tagsById(tagIds.get(row.photo_id) ?? []),
      uploaderInfo: {
        uid: row.uploader_uid,
        username: row.username,
        userNickname: row.user_nickname,
        avatar: row.avatar,
        signature: row.signature,
        isFollowing,
        isSelf,
      },
    };
  }

  return {
    /**
     * photo/upload: every image must be the caller's finished upload, used by no video or post,
     * and pass the header check (a real JPEG, PNG, WebP, AVIF or GIF of at most 50 MB and 100
     * megapixels): the first that does not is named in the refusal. The post is then rendered
     * by a job and waits for review.
     */
    async commit(uid: number, body: Commit): Promise<number> {
      const mediaIds = body.images.map((i) => i.mediaId);
      const uploads = new Map((await photos.uploadsOf(mediaIds)).map((m) => [m.media_id, m]));
      for (const [index, mediaId] of mediaIds.entries()) {
        const upload = uploads.get(mediaId);
        const path = `images.${index}.mediaId`;
        if (!upload) throw new DomainError('NOT_FOUND', { issues: [{ path, message: 'no such upload' }] });
        if (upload.uid !== uid) throw new DomainError('FORBIDDEN');
        if (upload.kind !== 'photo')
          throw new DomainError('VALIDATION_FAILED', { issues: [{ path, message: 'is not a photo upload' }] });
        if (upload.used)
          throw new DomainError('CONFLICT', { issues: [{ path, message: 'this file is already used' }] });
      }
      for (const [index, mediaId] of mediaIds.entries()) {
        const verdict = await files.inspect(uploads.get(mediaId)!.upload_id);
        if (!verdict.ok)
          throw new DomainError(verdict.reason, {
            issues: [{ path: `images.${index}.mediaId`, message: verdict.reason }],
            extra: { imageIndex: index },
          });
      }
      const tagIds = [...new Set(body.tags)];
      if (tagIds.length && (await repositories.tags.existing(tagIds)).length !== tagIds.length) {
        throw new DomainError('VALIDATION_FAILED', {
          issues: [{ path: 'tags', message: 'contains a tag that does not exist' }],
        });
      }
      try {
        const photoId = await repositories.transaction(async (r) => {
          return r.photos.insert(
            PHOTO_JOB,
            {
              uploaderUid: uid,
              title: body.title,
              description: body.description,
              copyright: body.copyright,
              originalAuthor: body.copyright === 'original' ? null : body.originalAuthor || null,
              keepCameraData: body.keepCameraData,
              searchText: searchTextOf(body.title, body.description),
            },
            body.images,
            tagIds,
          );
        });
        files.queued();
        return photoId;
      } catch (error) {
        // Two commits racing for one file: the unique media id lets only one through.
        if ((error as { code?: string }).code === '23505') throw new DomainError('CONFLICT', { cause: error });
        throw error;
      }
    },

    home: (page: Page) => list({ statuses: PUBLIC }, page),
    /** photo/user: the uploader sees their posts in every state (marked), those a reviewer refused with the reason; everyone else the approved ones. */
    byUploader(uid: number, looker: Actor | null, page: Page) {
      const own = looker?.uid === uid;
      return list({ statuses: own ? OWN : PUBLIC, uploaderUid: uid, rejectedToo: own }, page, { withStatus: own });
    },
    search(keyword: string, page: Page) {
      const words = searchTerms(keyword);
      return words.length ? list({ statuses: PUBLIC, words }, page) : Promise.resolve({ photosCount: 0, photos: [] });
    },
    byTags: (tagIds: number[], page: Page) => list({ statuses: PUBLIC, withAllTags: tagIds }, page),

    /** The post as comments and history see it (services.targets): visible as `photo` is; no timeline. */
    async visibleTarget(photoId: number, looker: Actor | null): Promise<TargetFacts | null> {
      const row = await photos.access(photoId);
      if (!row || !can(looker, 'photo.view', { ownerUid: row.uploader_uid, status: row.status })) return null;
      return {
        durationMs: 0,
        status: row.status === 'approved' ? 'approved' : 'pending',
        uploaderUid: row.uploader_uid,
      };
    },

    /** photo?photoId: the post, or null when this looker may not see it (not approved, and neither theirs nor staff). */
    async photo(photoId: number, looker: Actor | null): Promise<PhotoDetail | null> {
      const row = await photos.detail(photoId);
      if (!row || !can(looker, 'photo.view', { ownerUid: row.uploader_uid, status: row.status })) return null;
      return detailOf(row, looker);
    },

    /** photo/pending: the review queue, oldest first, every image shown to the reviewer. */
    async pending(page: Page) {
      const { count, rows } = await photos.page({ statuses: ['pending'] }, page, 'oldest');
      return { photosCount: count, photos: await Promise.all(rows.map((row) => detailOf(row, null))) };
    },

    async approve(photoId: number, reviewerUid: number): Promise<void> {
      if (!(await photos.approvePending(photoId, reviewerUid))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: reviewerUid,
        action: 'photo.approve',
        targetType: 'photo',
        targetId: photoId,
      });
    },

    /** photo/pending/rejected: a post waiting for review is removed with the reviewer's reason and note, which its uploader reads on their Photos tab. */
    async reject(
      photoId: number,
      reviewerUid: number,
      rejection: { reason: ReviewRejectionReason; note: string },
    ): Promise<void> {
      if (!(await photos.rejectPending(photoId, reviewerUid, rejection))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: reviewerUid,
        action: 'photo.reject',
        targetType: 'photo',
        targetId: photoId,
        details: { ...rejection },
      });
    },

    async uploaderOf(photoId: number): Promise<number> {
      const uid = await photos.uploaderOf(photoId);
      if (uid === undefined) throw new NotFound();
      return uid;
    },

    async remove(photoId: number, byUid: number): Promise<void> {
      const uploaderUid = await photos.uploaderOf(photoId);
      if (!(await photos.softDelete(photoId, byUid))) throw new NotFound();
      if (uploaderUid !== byUid)
        await recordStaffAction(repositories, {
          actorUid: byUid,
          action: 'photo.delete',
          targetType: 'photo',
          targetId: photoId,
          details: { uploaderUid },
        });
    },

    /** Staff take an approved post out of public view: it goes back to the review queue. */
    async hide(photoId: number, byUid: number): Promise<void> {
      if (!(await photos.hideApproved(photoId))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: byUid,
        action: 'photo.hide',
        targetType: 'photo',
        targetId: photoId,
      });
    },

    /** The posts in a member's history (history/filter merges them with the videos), as history items. */
    async history(uid: number, title: string | undefined, limit: number, likedOnly = false): Promise<HistoryItem[]> {
      const rows = await photos.viewedBy(uid, title ? searchTerms(title) : [], limit, likedOnly);
      const covers = new Map(
        (
          await photos.imagesOf(
            rows.map((r) => r.photo_id),
            true,
          )
        ).map((i) => [i.photo_id, toImage(i)]),
      );
      return rows.map((row) => {
        const cover = covers.get(row.photo_id);
        return {
          category: 'photo' as const,
          id: row.photo_id,
          anchor: 0,
          lastUpdateDateTime: new Date(row.updated_at).getTime(),
          videoId: row.photo_id,
          title: row.title,
          image: cover?.base ? `${cover.base}/${cover.widths[0]}.jpg` : '',
          uploadDate: new Date(row.created_at).getTime(),
          watchedCount: 0,
          uploader: row.username,
          uploaderNickname: row.user_nickname,
          uploaderId: row.uploader_uid,
          duration: 0,
          description: row.description,
          videoCategory: 'photo',
        };
      });
    },

    /** The thumbs of these posts (collections show them among videos), in no order. */
    thumbsOf: async (photoIds: readonly number[]) => thumbsOf(await photos.postsOf(photoIds)),

    /** The feed's posts (follows.feed merges them with videos and tracks): thumbs with their exact creation time. */
    async feedPage(viewerUid: number, after: FeedPosition | null, limit: number) {
      const rows = await photos.feedPage(viewerUid, after, limit);
      const thumbs = await thumbsOf(rows);
      return rows.map((row, index) => ({ id: row.photo_id, micros: row.created_micros, photo: thumbs[index] }));
    },

    /** Approved posts for the sitemap. */
    sitemapPhotos: (limit: number) => photos.approvedForSitemap(limit),
  };
}
export type PhotoService = ReturnType<typeof createPhotoService>;
