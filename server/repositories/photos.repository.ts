/**
 * Photo posts as the photo service reads and writes them: lists, one post with its images and
 * tags, commits, review and soft deletion. Which posts someone may see is the service's
 * decision; it says it here as a filter.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { announceForgotten } from '../events/cache-invalidation.ts';
import type { Database, PhotoStatus } from '../db/schema.ts';
import { likePattern } from '../services/search-text.ts';
import { forgetMediaAccess, type RepositoryCaches } from './caches.ts';
import { photoVisibleToViewer } from './block-lists.sql.ts';
import { enqueueJob } from './job-queue.repository.ts';
import { microsOf, olderInFeed, type FeedPosition } from './keyset.sql.ts';
import { likedBy } from './likes.sql.ts';
import { matchesSearchWord } from './search.sql.ts';

export interface PhotoFilter {
  statuses: readonly PhotoStatus[];
  uploaderUid?: number;
  withAllTags?: readonly number[];
  /** Each word in the title, the description or a tag name in any language (substring). */
  words?: readonly string[];
  hiddenFrom?: number | null;
  /** Also the posts a reviewer refused (deleted with a reason): the uploader's own list. */
  rejectedToo?: boolean;
}
export interface PageWindow {
  page: number;
  pageSize: number;
}

const statusIn = (statuses: readonly PhotoStatus[]) =>
  sql<SqlBool>`p.status IN (${sql.join(statuses.map((s) => sql.lit(s)))})`;

function whereOf(filter: PhotoFilter): RawBuilder<SqlBool> {
  const refused = sql<SqlBool>`(p.status = 'deleted' AND p.rejection_reason IS NOT NULL)`;
  const conditions = [
    filter.rejectedToo ? sql<SqlBool>`(${statusIn(filter.statuses)} OR ${refused})` : statusIn(filter.statuses),
  ];
  if (filter.uploaderUid !== undefined) conditions.push(sql<SqlBool>`p.uploader_uid = ${filter.uploaderUid}`);
  for (const tagId of new Set(filter.withAllTags ?? [])) {
    conditions.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM photo_tags pt WHERE pt.photo_id = p.photo_id AND pt.tag_id = ${tagId})`,
    );
  }
  for (const word of filter.words ?? []) conditions.push(matchesSearchWord('photo', 'p', word));
  if (filter.hiddenFrom) conditions.push(photoVisibleToViewer(filter.hiddenFrom));
  return sql.join(conditions, sql` AND `) as RawBuilder<SqlBool>;
}

export function createPhotosRepository(
  db: Kysely<Database>,
  caches: Pick<RepositoryCaches, 'mediaStates' | 'notices'>,
) {
  const posts = () =>
    db
      .selectFrom('photos as p')
      .innerJoin('users as u', 'u.uid', 'p.uploader_uid')
      .select([
        'p.photo_id',
        'p.title',
        'p.description',
        'p.created_at',
        'p.status',
        'p.failure',
        'p.copyright',
        'p.original_author',
        'p.uploader_uid',
        'p.rejection_reason',
        'p.rejection_note',
        'u.username',
        'u.user_nickname',
        'u.avatar',
        'u.signature',
        sql<number>`(SELECT count(*) FROM photo_images i WHERE i.photo_id = p.photo_id)`.as('image_count'),
      ]);

  async function setStatus(
    photoId: number,
    from: readonly PhotoStatus[],
    values: {
      status: PhotoStatus;
      reviewed_by?: number;
      reviewed_at?: Date;
      deleted_by?: number;
      deleted_at?: Date;
      rejection_reason?: string;
      rejection_note?: string | null;
    },
  ) {
    const result = await db
      .updateTable('photos as p')
      .set(values)
      .where('p.photo_id', '=', photoId)
      .where(statusIn(from))
      .executeTakeFirst();
    forgetMediaAccess(caches);
    announceForgotten(caches.notices, { cache: 'pages' });
    return Number(result.numUpdatedRows) > 0;
  }

  return {
    /** One page of posts matching `filter` (newest first, or oldest for the review queue), and how many match. */
    async page(filter: PhotoFilter, window: PageWindow, order: 'newest' | 'oldest' = 'newest') {
      const where = whereOf(filter);
      const direction = order === 'newest' ? sql`DESC` : sql`ASC`;
      const [rows, count] = await Promise.all([
        posts()
          .where(where)
          .orderBy(sql`p.created_at ${direction}, p.photo_id ${direction}`)
          .limit(window.pageSize)
          .offset((window.page - 1) * window.pageSize)
          .execute(),
        db
          .selectFrom('photos as p')
          .where(where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { count: Number(count.n), rows };
    },

    /** The approved posts of the uploaders `viewerUid` follows (without what they blocked or hid), newest first, after `after`. */
    feedPage(viewerUid: number, after: FeedPosition | null, limit: number) {
      let query = posts()
        .select(microsOf('p.created_at').as('created_micros'))
        .where('p.status', '=', 'approved')
        .where(
          'p.uploader_uid',
          'in',
          db.selectFrom('follows').select('followed_uid').where('follower_uid', '=', viewerUid),
        )
        .where(photoVisibleToViewer(viewerUid));
      if (after) query = query.where(olderInFeed('p.created_at', 'p.photo_id', after, 'photo'));
      return query.orderBy('p.created_at', 'desc').orderBy('p.photo_id', 'desc').limit(limit).execute();
    },

    /** These posts (any status), in no order. */
    postsOf: (photoIds: readonly number[]) =>
      photoIds.length
        ? posts()
            .where('p.photo_id', 'in', [...photoIds])
            .execute()
        : Promise.resolve([]),

    detail: (photoId: number) => posts().where('p.photo_id', '=', photoId).executeTakeFirst(),

    /** The images of these posts in order; with `firstOnly`, each post's first (its cover). */
    async imagesOf(photoIds: readonly number[], firstOnly = false) {
      if (!photoIds.length) return [];
      let query = db
        .selectFrom('photo_images')
        .selectAll()
        .where('photo_id', 'in', [...photoIds]);
      if (firstOnly) query = query.where('position', '=', 0);
      return query.orderBy('photo_id').orderBy('position').execute();
    },

    async tagIdsOf(photoIds: readonly number[]): Promise<Map<number, number[]>> {
      const byPost = new Map<number, number[]>();
      if (!photoIds.length) return byPost;
      const rows = await db
        .selectFrom('photo_tags')
        .select(['photo_id', 'tag_id'])
        .where('photo_id', 'in', [...photoIds])
        .orderBy('position')
        .execute();
      for (const row of rows) byPost.set(row.photo_id, [...(byPost.get(row.photo_id) ?? []), row.tag_id]);
      return byPost;
    },

    /** The caller's finished uploads among these media ids, with whether a video or post already uses each. */
    async uploadsOf(mediaIds: readonly string[]) {
      return db
        .selectFrom('media as m')
        .select([
          'm.media_id',
          'm.uid',
          'm.upload_id',
          'm.kind',
          sql<boolean>`EXISTS (SELECT 1 FROM photo_images i WHERE i.media_id = m.media_id) OR EXISTS (SELECT 1 FROM video_parts vp WHERE vp.media_id = m.media_id)`.as(
            'used',
          ),
        ])
        .where('m.media_id', 'in', [...mediaIds])
        .execute();
    },

    /** A new post, its images and tags, and its render job (`renderJob`), in the caller's transaction. */
    async insert(
      renderJob: string,
      post: {
        uploaderUid: number;
        title: string;
        description: string;
        copyright: string;
        originalAuthor: string | null;
        keepCameraData: boolean;
        searchText: string;
      },
      images: ReadonlyArray<{ mediaId: string; alt: string }>,
      tagIds: readonly number[],
    ): Promise<number> {
      const { photo_id: photoId } = await db
        .insertInto('photos')
        .values({
          uploader_uid: post.uploaderUid,
          title: post.title,
          description: post.description,
          copyright: post.copyright,
          original_author: post.originalAuthor,
          keep_camera_data: post.keepCameraData,
          search_text: post.searchText,
        })
        .returning('photo_id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('photo_images')
        .values(
          images.map((image, position) => ({ photo_id: photoId, position, media_id: image.mediaId, alt: image.alt })),
        )
        .execute();
      if (tagIds.length)
        await db
          .insertInto('photo_tags')
          .values(tagIds.map((tag_id, position) => ({ photo_id: photoId, tag_id, position })))
          .execute();
      await enqueueJob(db, renderJob, { photoId });
      return photoId;
    },

    /** A post waiting for review is refused by this reviewer, with the reason and note its uploader reads; false when it was not waiting. */
    rejectPending: (photoId: number, reviewerUid: number, rejection: { reason: string; note: string }) =>
      setStatus(photoId, ['pending'], {
        status: 'deleted',
        deleted_by: reviewerUid,
        deleted_at: new Date(),
        rejection_reason: rejection.reason,
        rejection_note: rejection.note || null,
      }),
    approvePending: (photoId: number, reviewerUid: number) =>
      setStatus(photoId, ['pending'], { status: 'approved', reviewed_by: reviewerUid, reviewed_at: new Date() }),
    /** An approved post goes back to the review queue (out of public view); false when it was not approved. */
    hideApproved: (photoId: number) => setStatus(photoId, ['approved'], { status: 'pending' }),
    softDelete: (photoId: number, byUid: number) =>
      setStatus(photoId, ['processing', 'pending', 'approved', 'failed'], {
        status: 'deleted',
        deleted_by: byUid,
        deleted_at: new Date(),
      }),

    async uploaderOf(photoId: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('photos')
        .select('uploader_uid')
        .where('photo_id', '=', photoId)
        .where('status', '!=', 'deleted')
        .executeTakeFirst();
      return row?.uploader_uid;
    },

    /**
     * The posts in a member's history, most recent visit first: public ones, and their own in
     * any state but deleted; with `titleWords`, only titles containing each.
     */
    viewedBy(uid: number, titleWords: readonly string[], limit: number, likedOnly = false) {
      let query = posts()
        .innerJoin('watch_history as h', (join) =>
          join.onRef('h.video_id', '=', 'p.photo_id').on('h.target_type', '=', 'photo'),
        )
        .select(['h.anchor', 'h.updated_at'])
        .where('h.uid', '=', uid)
        .where(sql<SqlBool>`(p.status = 'approved' OR (p.uploader_uid = ${uid} AND p.status <> 'deleted'))`);
      for (const word of titleWords)
        query = query.where(sql<SqlBool>`split_part(p.search_text, chr(10), 1) LIKE ${likePattern(word, 'contains')}`);
      if (likedOnly) query = query.where(likedBy(uid, 'photo', 'p.photo_id'));
      return query.orderBy('h.updated_at', 'desc').limit(limit).execute();
    },

    // ---- the render job (server/media/photo-files.ts) ----
    /** A post's state and whether its camera data is kept. */
    toRender: (photoId: number) =>
      db.selectFrom('photos').select(['status', 'keep_camera_data']).where('photo_id', '=', photoId).executeTakeFirst(),
    /** A post's images in order, with their uploads and the widths rendered so far. */
    imagesToRender: (photoId: number) =>
      db
        .selectFrom('photo_images as i')
        .innerJoin('media as m', 'm.media_id', 'i.media_id')
        .select(['i.image_id', 'i.widths', 'm.upload_id'])
        .where('i.photo_id', '=', photoId)
        .orderBy('i.position')
        .execute(),
    async recordRenderedImage(
      imageId: number,
      rendered: { width: number; height: number; widths: number[]; animated: boolean; placeholder: string },
      camera: object | null,
    ) {
      await db
        .updateTable('photo_images')
        .set({
          width: rendered.width,
          height: rendered.height,
          widths: rendered.widths,
          animated: rendered.animated,
          placeholder: rendered.placeholder,
          camera: camera ? JSON.stringify(camera) : null,
        })
        .where('image_id', '=', imageId)
        .execute();
    },
    /** A post still processing failed, with the reason its uploader reads. */
    async failRender(photoId: number, failure: string) {
      await db
        .updateTable('photos')
        .set({ status: 'failed', failure })
        .where('photo_id', '=', photoId)
        .where('status', '=', 'processing')
        .execute();
    },
    /** A post still processing is rendered: it waits for review, or (the demo catalogue's) is public at once. */
    async finishRender(photoId: number, approve: boolean) {
      const rendered = approve
        ? { status: 'approved' as const, reviewed_at: new Date() }
        : { status: 'pending' as const };
      await db
        .updateTable('photos')
        .set(rendered)
        .where('photo_id', '=', photoId)
        .where('status', '=', 'processing')
        .execute();
    },

    /** A post's status and uploader (who may read its files). */
    access: (photoId: number) =>
      db.selectFrom('photos').select(['status', 'uploader_uid']).where('photo_id', '=', photoId).executeTakeFirst(),

    /** Approved posts for the sitemap, newest change first. */
    approvedForSitemap: (limit: number) =>
      db
        .selectFrom('photos')
        .select(['photo_id', 'created_at', 'reviewed_at'])
        .where('status', '=', 'approved')
        .orderBy('photo_id', 'desc')
        .limit(limit)
        .execute(),
  };
}
export type PhotosRepository = ReturnType<typeof createPhotosRepository>;
