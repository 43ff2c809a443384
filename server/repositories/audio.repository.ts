/**
 * Audio tracks as the audio section reads and writes them: lists, one track with its media
 * facts, tags, plays, review and deletion. Which tracks someone may see is the service's
 * decision; it says so here as a filter.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { announceForgotten } from '../events/cache-invalidation.ts';
import type { Database } from '../db/schema.ts';
import type { AudioSort } from '../../src/lib/api/contracts/audio.constants.ts';
import { likePattern } from '../services/search-text.ts';
import { forgetMediaAccess, type RepositoryCaches } from './caches.ts';
import { audioVisibleToViewer } from './block-lists.sql.ts';
import { relatedCandidates } from './related.sql.ts';
import { microsOf, olderInFeed, type FeedPosition } from './keyset.sql.ts';
import { approvedIdRanges, approvedInFile } from './sitemap-files.sql.ts';
import { likedBy } from './likes.sql.ts';
import { matchesSearchWord } from './search.sql.ts';
import { addCounts, AUDIO_PLAYS, recordOncePerHour } from './hot-counts.sql.ts';

export type AudioStatus = 'pending' | 'approved' | 'deleted';

/** Which tracks a list holds; every condition given must hold. */
export interface AudioFilter {
  statuses: readonly AudioStatus[];
  uploaderUid?: number;
  tagId?: number;
  /** Each word in the title, artist, description or a tag name in any language. */
  words?: readonly string[];
  /** Leaving out what this member blocked or hid. */
  hiddenFrom?: number | null;
  /** Also the tracks a reviewer refused (deleted with a reason): the uploader's own list. */
  rejectedToo?: boolean;
}
export interface PageWindow {
  page: number;
  pageSize: number;
}

const statusIn = (statuses: readonly AudioStatus[]) =>
  sql<SqlBool>`a.status IN (${sql.join(statuses.map((s) => sql.lit(s)))})`;

function whereOf(filter: AudioFilter): RawBuilder<SqlBool> {
  const refused = sql<SqlBool>`(a.status = 'deleted' AND a.rejection_reason IS NOT NULL)`;
  const conditions = [
    filter.rejectedToo ? sql<SqlBool>`(${statusIn(filter.statuses)} OR ${refused})` : statusIn(filter.statuses),
  ];
  if (filter.uploaderUid !== undefined) conditions.push(sql`a.uploader_uid = ${filter.uploaderUid}`);
  if (filter.tagId !== undefined)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM audio_tags t WHERE t.audio_id = a.audio_id AND t.tag_id = ${filter.tagId})`,
    );
  for (const word of filter.words ?? []) conditions.push(matchesSearchWord('audio', 'a', word));
  if (filter.hiddenFrom) conditions.push(audioVisibleToViewer(filter.hiddenFrom));
  return sql.join(conditions, sql` AND `) as RawBuilder<SqlBool>;
}

const ORDERS: Record<AudioSort | 'oldest', RawBuilder<unknown>> = {
  newest: sql`a.created_at DESC, a.audio_id DESC`,
  popular: sql`a.play_count DESC, a.created_at DESC, a.audio_id DESC`,
  oldest: sql`a.created_at ASC, a.audio_id ASC`,
};

export function createAudioRepository(db: Kysely<Database>, caches: Pick<RepositoryCaches, 'mediaStates' | 'notices'>) {
  /** Tracks with their uploader and media facts: the columns every list shows. */
  function thumbs() {
    return db
      .selectFrom('audio_tracks as a')
      .innerJoin('users as u', 'u.uid', 'a.uploader_uid')
      .innerJoin('media as m', 'm.media_id', 'a.media_id')
      .select([
        'a.audio_id',
        'a.title',
        'a.artist',
        'a.cover',
        'a.duration_ms',
        'a.play_count',
        'a.created_at',
        'a.category',
        'a.status',
        'a.description',
        'a.uploader_uid',
        'a.rejection_reason',
        'a.rejection_note',
        'u.username',
        'u.user_nickname',
        'm.media_id',
        'm.cover_file',
      ]);
  }

  return {
    /** One page of tracks matching `filter`, in `order`, and how many match. */
    async page(filter: AudioFilter, window: PageWindow, order: AudioSort | 'oldest' = 'newest') {
      const where = whereOf(filter);
      const [rows, count] = await Promise.all([
        thumbs()
          .where(where)
          .orderBy(ORDERS[order])
          .limit(window.pageSize)
          .offset((window.page - 1) * window.pageSize)
          .execute(),
        db
          .selectFrom('audio_tracks as a')
          .where(where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { count: Number(count.n), rows };
    },

    /** The thumbs of these tracks (any status), in no order. */
    thumbsOf(audioIds: readonly number[]) {
      return audioIds.length
        ? thumbs()
            .where('a.audio_id', 'in', [...audioIds])
            .execute()
        : Promise.resolve([]);
    },

    /** One track that is not deleted, with everything its page plays and shows. */
    byId(audioId: number) {
      return thumbs()
        .select([
          'a.copyright',
          'a.original_author',
          'a.original_link',
          'u.avatar',
          'u.signature',
          'm.waveform',
          'm.loudness_lufs',
          'm.true_peak_db',
        ])
        .where('a.audio_id', '=', audioId)
        .where('a.status', '!=', 'deleted')
        .executeTakeFirst();
    },

    /** Status, uploader and duration of a track that is not deleted. */
    basics(audioId: number) {
      return db
        .selectFrom('audio_tracks')
        .select(['status', 'uploader_uid', 'duration_ms'])
        .where('audio_id', '=', audioId)
        .where('status', '!=', 'deleted')
        .executeTakeFirst();
    },

    /**
     * Up to `limit` approved tracks related to one, as videos are (related.sql.ts: shared tags,
     * the same uploader, co-listening), by score then plays; never the track itself nor what
     * `viewerUid` blocked or hid.
     */
    related(audioId: number, viewerUid: number | null, limit: number) {
      let query = thumbs()
        .innerJoin(relatedCandidates('audio', audioId).as('rel'), (join) =>
          join.onRef('rel.item_id' as never, '=', 'a.audio_id'),
        )
        .where('a.status', '=', 'approved');
      if (viewerUid !== null) query = query.where(audioVisibleToViewer(viewerUid));
      return query
        .orderBy(sql`rel.score`, 'desc')
        .orderBy('a.play_count', 'desc')
        .orderBy('a.audio_id', 'desc')
        .limit(limit)
        .execute();
    },

    /** The uploader's public tracks after `after` (by upload time), then from their first: the listening queue. */
    async queueAfter(uploaderUid: number, after: { audioId: number; createdAt: Date }, limit: number) {
      const rows = await thumbs()
        .where('a.uploader_uid', '=', uploaderUid)
        .where('a.status', '=', 'approved')
        .where('a.audio_id', '!=', after.audioId)
        .orderBy(sql`(a.created_at, a.audio_id) > (${after.createdAt}, ${after.audioId})`, 'desc')
        .orderBy('a.created_at')
        .orderBy('a.audio_id')
        .limit(limit)
        .execute();
      return rows;
    },

    tagIdsOf(audioId: number) {
      return db.selectFrom('audio_tags').select('tag_id').where('audio_id', '=', audioId).orderBy('position').execute();
    },

    /** A track that is not deleted, locked until the transaction ends (an edit reads, then writes). */
    editableForUpdate(audioId: number) {
      return db
        .selectFrom('audio_tracks')
        .select(['status', 'title', 'artist', 'description', 'cover', 'category', 'uploader_uid'])
        .where('audio_id', '=', audioId)
        .where('status', '!=', 'deleted')
        .forUpdate()
        .executeTakeFirst();
    },

    async updateMetadata(
      audioId: number,
      values: {
        title: string;
        artist: string;
        description: string;
        cover: string | null;
        category: string;
        search_text: string;
        status?: 'pending';
      },
    ) {
      await db.updateTable('audio_tracks').set(values).where('audio_id', '=', audioId).execute();
      forgetMediaAccess(caches);
      announceForgotten(caches.notices, { cache: 'pages' });
    },

    /** The track's tags become these, in this order. */
    async replaceTags(audioId: number, tagIds: readonly number[]) {
      await db.deleteFrom('audio_tags').where('audio_id', '=', audioId).execute();
      if (tagIds.length)
        await db
          .insertInto('audio_tags')
          .values(tagIds.map((tag_id, position) => ({ audio_id: audioId, tag_id, position })))
          .execute();
    },

    async insert(
      row: {
        uploader_uid: number;
        media_id: string;
        title: string;
        artist: string;
        description: string;
        category: string;
        copyright: string;
        original_author: string | null;
        original_link: string | null;
        cover: string | null;
        duration_ms: number;
        search_text: string;
      },
      tagIds: readonly number[],
    ): Promise<number> {
      const { audio_id } = await db
        .insertInto('audio_tracks')
        .values(row)
        .returning('audio_id')
        .executeTakeFirstOrThrow();
      if (tagIds.length)
        await db
          .insertInto('audio_tags')
          .values(tagIds.map((tag_id, position) => ({ audio_id, tag_id, position })))
          .execute();
      return audio_id;
    },

    /** A pending track is refused by this reviewer, with the reason and note its uploader reads; false when it was not pending. */
    async rejectPending(
      audioId: number,
      reviewerUid: number,
      rejection: { reason: string; note: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('audio_tracks')
        .set({
          status: 'deleted',
          deleted_by: reviewerUid,
          deleted_at: new Date(),
          rejection_reason: rejection.reason,
          rejection_note: rejection.note || null,
        })
        .where('audio_id', '=', audioId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      forgetMediaAccess(caches);
      announceForgotten(caches.notices, { cache: 'pages' });
      return Number(result.numUpdatedRows) > 0;
    },

    /** Sets a track's status (review, deletion) by whom; answers whether it was in one of `from`. */
    async setStatus(
      audioId: number,
      from: readonly AudioStatus[],
      to: 'approved' | 'deleted',
      byUid: number,
    ): Promise<boolean> {
      const now = new Date();
      const result = await db
        .updateTable('audio_tracks')
        .set(
          to === 'approved'
            ? { status: to, reviewed_by: byUid, reviewed_at: now }
            : { status: to, deleted_by: byUid, deleted_at: now },
        )
        .where('audio_id', '=', audioId)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      forgetMediaAccess(caches);
      announceForgotten(caches.notices, { cache: 'pages' });
      return !!result.numUpdatedRows;
    },

    /** An approved track goes back to the review queue (out of public view); false when it was not approved. */
    async hideApproved(audioId: number): Promise<boolean> {
      const result = await db
        .updateTable('audio_tracks')
        .set({ status: 'pending' })
        .where('audio_id', '=', audioId)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      forgetMediaAccess(caches);
      announceForgotten(caches.notices, { cache: 'pages' });
      return !!result.numUpdatedRows;
    },

    /** Records a play of an approved track this hour (hot-counts.sql.ts): undefined when not approved. */
    async recordPlay(
      audioId: number,
      listenerKey: string,
    ): Promise<{ playCount: number; counted: boolean } | undefined> {
      const heard = await recordOncePerHour(db, AUDIO_PLAYS, audioId, listenerKey);
      return heard && { playCount: heard.stored, counted: heard.counted };
    },

    /** Adds a window's plays to the tracks' play counts (one statement). */
    addPlayCounts: (counts: ReadonlyMap<number, number>) => addCounts(db, AUDIO_PLAYS, counts),

    /** The approved tracks of the uploaders `viewerUid` follows (without what they blocked or hid), newest first, after `after`. */
    feedPage(viewerUid: number, after: FeedPosition | null, limit: number) {
      let query = thumbs()
        .select(microsOf('a.created_at').as('created_micros'))
        .where('a.status', '=', 'approved')
        .where(
          'a.uploader_uid',
          'in',
          db.selectFrom('follows').select('followed_uid').where('follower_uid', '=', viewerUid),
        )
        .where(audioVisibleToViewer(viewerUid));
      if (after) query = query.where(olderInFeed('a.created_at', 'a.audio_id', after, 'audio'));
      return query.orderBy('a.created_at', 'desc').orderBy('a.audio_id', 'desc').limit(limit).execute();
    },

    /** The tracks a member listened to (public ones, and their own not deleted), with the position and time, most recent first. */
    listenedBy(uid: number, titleWords: readonly string[], limit: number, likedOnly = false) {
      let query = thumbs()
        .innerJoin('watch_history as h', (join) =>
          join.onRef('h.video_id', '=', 'a.audio_id').on('h.target_type', '=', 'audio'),
        )
        .select(['h.anchor', 'h.updated_at'])
        .where('h.uid', '=', uid)
        .where(sql<SqlBool>`(a.status = 'approved' OR (a.uploader_uid = ${uid} AND a.status <> 'deleted'))`);
      for (const word of titleWords)
        query = query.where(sql<SqlBool>`split_part(a.search_text, chr(10), 1) LIKE ${likePattern(word, 'contains')}`);
      if (likedOnly) query = query.where(likedBy(uid, 'audio', 'a.audio_id'));
      return query.orderBy('h.updated_at', 'desc').limit(limit).execute();
    },

    /** The audio sitemap's files, and the approved tracks of one (sitemap-files.sql.ts). */
    sitemapFiles: (perFile: number) => approvedIdRanges(db, 'audio_tracks', perFile),
    sitemapFile: (file: number, perFile: number) => approvedInFile(db, 'audio_tracks', file, perFile),
  };
}
export type AudioRepository = ReturnType<typeof createAudioRepository>;
export type AudioThumbRow = Awaited<ReturnType<AudioRepository['page']>>['rows'][number];
