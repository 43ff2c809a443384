import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, MediaStatus, StoryboardInfo } from '../db/schema.ts';
import type { Copyright, HistoryItem, PendingVideo, VideoCategory, VideoDetail, VideoPart, VideoThumb } from '../../src/lib/api/contract.ts';
import { createTagService } from './tags.ts';
import { likePattern, searchTerms } from './search-text.ts';
import { hlsPath } from '../media/pipeline.ts';
import { videoVisibleToViewer } from './block-lists.ts';

/** How much history a member sees (the most recent). */
export const HISTORY_LIMIT = 500;

/** A page of a list; with `viewerUid`, leaving out what that viewer blocked or hid. */
export interface Page { page: number; pageSize: number; viewerUid?: number | null }
export interface VideoList { videosCount: number; videos: VideoThumb[] }
/** Who is looking: pending videos are shown only to their uploader and to staff. */
export interface Looker { uid: number; isStaff: boolean }

const mediaUrl = (mediaId: string, file: string) => `/media/${hlsPath(mediaId)}/${file}`;
const hasPoster = (renditions: number[]) => renditions.length > 0;

function processingOf(status: MediaStatus): VideoPart['processing'] {
  if (status === 'failed' || status === 'rejected') return 'failed';
  if (status === 'playable' || status === 'ready' || status === 'transcoding') return status;
  return 'waiting';
}

type VideoBasics = { status: 'pending' | 'approved' | 'deleted'; uploader_uid: number; duration_ms: number };
/**
 * A video's status, uploader and duration, read by every danmaku, comment and history call:
 * kept VIDEO_BASICS_MS per database so a busy video's viewers do not each query for them.
 * Review and deletion here forget the entry at once; elsewhere they show within that time.
 */
const VIDEO_BASICS_MS = 1000;
const VIDEO_BASICS_KEPT = 10_000;
const videoBasicsCaches = new WeakMap<Kysely<Database>, Map<number, { at: number; row: Promise<VideoBasics | undefined> }>>();

function videoBasicsCache(db: Kysely<Database>) {
  let cache = videoBasicsCaches.get(db);
  if (!cache) videoBasicsCaches.set(db, (cache = new Map()));
  return cache;
}

function videoBasics(db: Kysely<Database>, videoId: number): Promise<VideoBasics | undefined> {
  const cache = videoBasicsCache(db);
  const known = cache.get(videoId);
  if (known && Date.now() - known.at < VIDEO_BASICS_MS) return known.row;
  const row = db.selectFrom('videos').select(['status', 'uploader_uid', 'duration_ms']).where('video_id', '=', videoId).executeTakeFirst();
  cache.delete(videoId);
  cache.set(videoId, { at: Date.now(), row });
  row.catch(() => cache.delete(videoId));
  if (cache.size > VIDEO_BASICS_KEPT) cache.delete(cache.keys().next().value!);
  return row;
}

/** After a review or a deletion: the next visibility check reads the database. */
export function forgetVideoBasics(db: Kysely<Database>, videoId: number) {
  videoBasicsCache(db).delete(videoId);
}

/** Read-side queries about videos and users that pages and API calls share. */
export function createCatalogue(db: Kysely<Database>) {
  const tags = createTagService(db);

  /** Videos with their uploader and first part: the columns every list shows. */
  function thumbs() {
    return db.selectFrom('videos as v')
      .innerJoin('users as u', 'u.uid', 'v.uploader_uid')
      .innerJoin('video_parts as p', (join) => join.onRef('p.video_id', '=', 'v.video_id').on('p.part_index', '=', 0))
      .innerJoin('media as m', 'm.media_id', 'p.media_id')
      .select(['v.video_id', 'v.title', 'v.cover', 'v.created_at', 'v.watched_count', 'v.duration_ms', 'v.description', 'v.category', 'v.status',
        'u.username', 'u.user_nickname', 'u.uid', 'm.media_id', 'm.renditions']);
  }
  type ThumbRow = Awaited<ReturnType<ReturnType<typeof thumbs>['execute']>>[number];

  function toThumb(row: ThumbRow, withStatus = false): VideoThumb {
    return {
      videoId: row.video_id, title: row.title,
      image: row.cover ?? (hasPoster(row.renditions) ? mediaUrl(row.media_id, 'poster.jpg') : ''),
      uploadDate: new Date(row.created_at).getTime(), watchedCount: row.watched_count,
      uploader: row.username, uploaderNickname: row.user_nickname, uploaderId: row.uid,
      duration: row.duration_ms, description: row.description, videoCategory: row.category,
      ...(withStatus ? { status: row.status === 'approved' ? 'approved' as const : 'pending' as const } : {}),
    };
  }

  /** One page of thumbs matching `where` (SQL over videos as v), ordered by `order`, and the total. */
  async function list(matches: RawBuilder<SqlBool>, page: Page, options: { withStatus?: boolean; order?: RawBuilder<unknown> } = {}): Promise<VideoList> {
    const where = page.viewerUid ? sql<SqlBool>`(${matches}) AND ${videoVisibleToViewer(page.viewerUid)}` : matches;
    const [rows, count] = await Promise.all([
      thumbs().where(where).orderBy(options.order ?? sql`v.created_at DESC, v.video_id DESC`)
        .limit(page.pageSize).offset((page.page - 1) * page.pageSize).execute(),
      db.selectFrom('videos as v').where(where).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { videosCount: Number(count.n), videos: rows.map((r) => toThumb(r, options.withStatus)) };
  }

  async function partsOf(videoIds: number[]): Promise<Map<number, VideoPart[]>> {
    const byVideo = new Map<number, VideoPart[]>();
    if (!videoIds.length) return byVideo;
    const rows = await db.selectFrom('video_parts as p').innerJoin('media as m', 'm.media_id', 'p.media_id')
      .select(['p.video_id', 'p.part_index', 'p.title', 'm.media_id', 'm.status', 'm.duration_ms', 'm.renditions', 'm.storyboard'])
      .where('p.video_id', 'in', videoIds).orderBy('p.video_id').orderBy('p.part_index').execute();
    for (const row of rows) {
      const published = row.renditions.length > 0;
      const board = row.storyboard as StoryboardInfo | null;
      const parts = byVideo.get(row.video_id) ?? [];
      byVideo.set(row.video_id, parts);
      parts.push({
        id: row.part_index + 1, videoPartTitle: row.title,
        link: published ? mediaUrl(row.media_id, 'master.m3u8') : null,
        duration: row.duration_ms ?? 0, processing: processingOf(row.status), renditions: row.renditions,
        poster: published ? mediaUrl(row.media_id, 'poster.jpg') : null,
        storyboard: board ? { url: mediaUrl(row.media_id, board.file), intervalSeconds: board.intervalSeconds, columns: board.columns, rows: board.rows, tileWidth: board.tileWidth, tileHeight: board.tileHeight, count: board.count } : null,
      });
    }
    return byVideo;
  }

  async function videoTagIds(videoIds: number[]): Promise<Map<number, number[]>> {
    const byVideo = new Map<number, number[]>();
    if (!videoIds.length) return byVideo;
    const rows = await db.selectFrom('video_tags').select(['video_id', 'tag_id']).where('video_id', 'in', videoIds).orderBy('position').execute();
    for (const row of rows) byVideo.set(row.video_id, [...(byVideo.get(row.video_id) ?? []), row.tag_id]);
    return byVideo;
  }

  return {
    tags,

    /** Whether a video can be opened by the public (approved and not deleted). */
    async videoExists(videoId: number): Promise<boolean> {
      const row = await db.selectFrom('videos').select('video_id').where('video_id', '=', videoId).where('status', '=', 'approved').executeTakeFirst();
      return !!row;
    },
    /** The video if this looker may open it (approved, or pending and theirs or staff), else null. */
    async visibleVideo(videoId: number, looker: Looker | null): Promise<{ videoId: number; durationMs: number; status: 'pending' | 'approved'; uploaderUid: number } | null> {
      const row = await videoBasics(db, videoId);
      if (!row || row.status === 'deleted') return null;
      const visible = row.status === 'approved' || (!!looker && (looker.isStaff || looker.uid === row.uploader_uid));
      return visible ? { videoId, durationMs: row.duration_ms, status: row.status, uploaderUid: row.uploader_uid } : null;
    },
    async userExists(uid: number): Promise<boolean> {
      const row = await db.selectFrom('users').select('uid').where('uid', '=', uid).executeTakeFirst();
      return !!row;
    },

    /** video/home: newest approved first. */
    home: (page: Page) => list(sql`v.status = 'approved'`, page),
    byCategory: (category: VideoCategory, page: Page) => list(sql`v.status = 'approved' AND v.category = ${category}`, page),

    /** video/user: the uploader sees their pending videos too (marked), everyone else the approved ones. */
    byUploader(uid: number, looker: Looker | null, page: Page) {
      const own = looker?.uid === uid;
      const statuses = own ? sql`('pending', 'approved')` : sql`('approved')`;
      return list(sql`v.uploader_uid = ${uid} AND v.status IN ${statuses}`, page, { withStatus: own });
    },

    /** video/search/tag: approved videos that carry every one of the tags. */
    byTags(tagIds: number[], page: Page) {
      const ids = [...new Set(tagIds)];
      return list(sql`v.status = 'approved' AND (SELECT count(*) FROM video_tags vt
        WHERE vt.video_id = v.video_id AND vt.tag_id IN (${sql.join(ids)})) = ${ids.length}`, page);
    },

    /**
     * video/search: every word must appear in the title, the description or a tag name in any
     * language (substring match, so one- and two-character CJK words work; the trigram indexes
     * serve words of three characters or more). Ranked: title, then tags, then description.
     */
    async search(keyword: string, page: Page): Promise<VideoList> {
      const terms = searchTerms(keyword);
      if (!terms.length) return { videosCount: 0, videos: [] };
      const titleOf = sql<string>`split_part(v.search_text, chr(10), 1)`;
      const tagHit = (pattern: string) => sql<boolean>`EXISTS (SELECT 1 FROM video_tags vt JOIN tag_names tn ON tn.tag_id = vt.tag_id
        WHERE vt.video_id = v.video_id AND tn.name_lower LIKE ${pattern})`;
      const conditions = terms.map((t) => {
        const pattern = likePattern(t, 'contains');
        return sql<SqlBool>`(v.search_text LIKE ${pattern} OR ${tagHit(pattern)})`;
      });
      const score = sql.join(terms.map((t) => {
        const pattern = likePattern(t, 'contains');
        return sql`(CASE WHEN ${titleOf} LIKE ${pattern} THEN 4 ELSE 0 END + CASE WHEN ${tagHit(pattern)} THEN 2 ELSE 0 END + CASE WHEN v.search_text LIKE ${pattern} THEN 1 ELSE 0 END)`;
      }), sql` + `);
      const matches = sql<SqlBool>`v.status = 'approved' AND ${sql.join(conditions, sql` AND `)}`;
      return list(matches, page, { order: sql`${score} DESC, similarity(${titleOf}, ${terms.join(' ')}) DESC, v.watched_count DESC, v.video_id DESC` });
    },

    /** video?videoId: everything the video page shows, or null when this looker may not see it. */
    async video(videoId: number, looker: Looker | null): Promise<VideoDetail | null> {
      const row = await db.selectFrom('videos as v').innerJoin('users as u', 'u.uid', 'v.uploader_uid')
        .select(['v.video_id', 'v.title', 'v.cover', 'v.created_at', 'v.watched_count', 'v.duration_ms', 'v.description', 'v.category', 'v.status',
          'v.copyright', 'v.original_author', 'v.original_link', 'v.uploader_uid', 'u.username', 'u.user_nickname', 'u.avatar', 'u.signature'])
        .where('v.video_id', '=', videoId).executeTakeFirst();
      if (!row || row.status === 'deleted') return null;
      if (row.status === 'pending' && !(looker && (looker.isStaff || looker.uid === row.uploader_uid))) return null;
      const [parts, tagIds] = await Promise.all([partsOf([videoId]), videoTagIds([videoId])]);
      const videoPart = parts.get(videoId) ?? [];
      return {
        videoId, videoPart, title: row.title,
        image: row.cover ?? videoPart[0]?.poster ?? '',
        uploadDate: new Date(row.created_at).getTime(), watchedCount: row.watched_count, uploaderId: row.uploader_uid,
        duration: row.duration_ms, description: row.description, videoCategory: row.category as VideoCategory,
        copyright: row.copyright as Copyright, originalAuthor: row.original_author, originalLink: row.original_link,
        videoTagList: await tags.tagsById(tagIds.get(videoId) ?? []),
        uploaderInfo: {
          uid: row.uploader_uid, username: row.username, userNickname: row.user_nickname, avatar: row.avatar, signature: row.signature,
          isFollowing: false, isSelf: looker?.uid === row.uploader_uid,
        },
        status: row.status === 'approved' ? 'approved' : 'pending',
      };
    },

    /** video/pending: the review queue, oldest first, with parts (previews) and tags. */
    async pending(page: Page): Promise<{ videosCount: number; videos: PendingVideo[] }> {
      const where = sql<SqlBool>`v.status = 'pending'`;
      const [rows, count] = await Promise.all([
        thumbs().select(['v.copyright', 'v.original_author', 'v.original_link']).where(where)
          .orderBy('v.created_at', 'asc').orderBy('v.video_id', 'asc').limit(page.pageSize).offset((page.page - 1) * page.pageSize).execute(),
        db.selectFrom('videos as v').where(where).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const ids = rows.map((r) => r.video_id);
      const [parts, tagIds] = await Promise.all([partsOf(ids), videoTagIds(ids)]);
      const videos = await Promise.all(rows.map(async (row) => ({
        ...toThumb(row, true), copyright: row.copyright as Copyright, originalAuthor: row.original_author, originalLink: row.original_link,
        tags: await tags.tagsById(tagIds.get(row.video_id) ?? []), parts: parts.get(row.video_id) ?? [],
      })));
      return { videosCount: Number(count.n), videos };
    },

    /** A member's watch history, most recent first, optionally only titles containing `title`. */
    async history(uid: number, title?: string): Promise<HistoryItem[]> {
      let query = thumbs().innerJoin('watch_history as h', 'h.video_id', 'v.video_id').select(['h.anchor', 'h.updated_at'])
        .where('h.uid', '=', uid).where((eb) => eb.or([eb('v.status', '=', 'approved'), eb('v.uploader_uid', '=', uid)]))
        .where('v.status', '!=', 'deleted');
      const words = title ? searchTerms(title) : [];
      for (const word of words) query = query.where(sql<SqlBool>`split_part(v.search_text, chr(10), 1) LIKE ${likePattern(word, 'contains')}`);
      const rows = await query.orderBy('h.updated_at', 'desc').limit(HISTORY_LIMIT).execute();
      return rows.map((row) => ({
        ...toThumb(row), category: 'video' as const, id: row.video_id, anchor: row.anchor, lastUpdateDateTime: new Date(row.updated_at).getTime(),
      }));
    },

    /**
     * The video sitemap's files: approved videos grouped by ranges of `perFile` ids (file n holds
     * ids ((n-1)·perFile, n·perFile]), only files with videos, each with its newest change.
     */
    async sitemapVideoFiles(perFile: number): Promise<Array<{ file: number; updated: Date }>> {
      const file = sql<number>`(video_id - 1) / ${sql.lit(Math.floor(perFile))} + 1`;
      const rows = await db.selectFrom('videos').select([file.as('file'), sql<Date>`max(coalesce(reviewed_at, created_at))`.as('updated')])
        .where('status', '=', 'approved').groupBy(file).orderBy(file).execute();
      return rows.map((r) => ({ file: Number(r.file), updated: new Date(r.updated) }));
    },

    /** The approved videos of one sitemap file (see sitemapVideoFiles), by id. */
    async sitemapVideos(file: number, perFile: number): Promise<Array<{ videoId: number; updated: Date }>> {
      const rows = await db.selectFrom('videos').select(['video_id', 'created_at', 'reviewed_at']).where('status', '=', 'approved')
        .where('video_id', '>', (file - 1) * perFile).where('video_id', '<=', file * perFile).orderBy('video_id').execute();
      return rows.map((r) => ({ videoId: r.video_id, updated: r.reviewed_at ?? r.created_at }));
    },

    /** The first part's media of an approved video: where the manifest URL template points. */
    async mainMediaId(videoId: number): Promise<string | null> {
      const row = await db.selectFrom('videos as v').innerJoin('video_parts as p', 'p.video_id', 'v.video_id')
        .select('p.media_id').where('v.video_id', '=', videoId).where('v.status', '=', 'approved').where('p.part_index', '=', 0).executeTakeFirst();
      return row?.media_id ?? null;
    },
  };
}
export type Catalogue = ReturnType<typeof createCatalogue>;
