/**
 * Videos as the catalogue reads and writes them: lists of thumbs, one video's rows, its parts
 * and tags, watch counting, the sitemap and the review queue. Which videos someone may see is
 * the services' decision; they say it here as a filter.
 */
import { sql, type Insertable, type Kysely, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Database, MediaStatus, VideosTable } from '../db/schema.ts';
import { likePattern } from '../services/search-text.ts';
import { forgetMediaAccess, type RepositoryCaches, type VideoBasics, type VideoCountEntry } from './caches.ts';
import { announceForgotten } from '../events/cache-invalidation.ts';
import { videoVisibleToViewer } from './block-lists.sql.ts';
import { relatedCandidates } from './related.sql.ts';
import { microsOf, olderInFeed, type FeedPosition } from './keyset.sql.ts';
import { approvedIdRanges, approvedInFile } from './sitemap-files.sql.ts';
import { likedBy } from './likes.sql.ts';
import { matchesSearchWord, searchCandidates } from './search.sql.ts';
import { walkOneWord, walkWords } from './search-walk.sql.ts';
import { addCounts, recordOncePerHour, VIDEO_VIEWS } from './hot-counts.sql.ts';

export type VideoStatus = 'pending' | 'approved' | 'deleted';

/** Which videos a list holds; every condition given must hold. */
export interface VideoFilter {
  /** Videos in these statuses… */
  statuses: readonly VideoStatus[];
  /** …or this member's own videos in these statuses. */
  orOwn?: { uid: number; statuses: readonly VideoStatus[] };
  uploaderUid?: number;
  category?: string;
  /** Carrying every one of these tags. */
  withAllTags?: readonly number[];
  /** Each word in the title, the description or a tag name in any language (substring). */
  words?: readonly string[];
  /** Each word in the title (substring). */
  titleWords?: readonly string[];
  /** Leaving out what this member blocked or hid (their block lists). */
  hiddenFrom?: number | null;
}
/** Newest or oldest first, or by how well `words` match: title, then tags, then description. */
export type VideoOrder = 'newest' | 'oldest' | 'relevance';
export interface PageWindow {
  page: number;
  pageSize: number;
}

/**
 * A video's status, uploader and duration, read by every danmaku, comment and history call:
 * kept VIDEO_BASICS_MS in the server's caches so a busy video's viewers do not each query for them.
 * Review and deletion through this repository forget the entry at once; elsewhere they show within that time.
 */
const VIDEO_BASICS_MS = 1000;
const VIDEO_BASICS_KEPT = 10_000;

/**
 * How many approved videos the site, a category or an uploader has, as guests' lists show it
 * (decision 0037): counting them read every one on each call (950 000 index entries for the home
 * page at 1 M). Any review, deletion or edit here (an upload is pending: in no such count) or a video notice from another process
 * forgets every count at once; VIDEO_COUNTS_MS is the backstop for a change made elsewhere.
 */
const VIDEO_COUNTS_MS = 30_000;
const VIDEO_COUNTS_KEPT = 10_000;

const titleOf = sql<string>`split_part(v.search_text, chr(10), 1)`;
/**
 * How many of a search's matches are ranked (decision 0020): enough for 50 pages of 20, and a
 * bound on the rows a very common word makes the database read and score.
 */
export const SEARCH_CANDIDATES = 1000;
/**
 * A search of several words counts its matches exactly below this many; past it, the walk stops
 * once the page is found and the count is an estimate, at most SEARCH_CANDIDATES (decision 0020,
 * fifth addendum): counting to 1000 was most of the time of two common words at a million videos.
 */
export const SEARCH_COUNT_EXACT = 100;

const statusIn = (statuses: readonly VideoStatus[]) =>
  sql<SqlBool>`v.status IN (${sql.join(statuses.map((s) => sql.lit(s)))})`;

/** The filter as SQL over `videos as v`. */
function whereOf(filter: VideoFilter): RawBuilder<SqlBool> {
  const { orOwn } = filter;
  const conditions = [
    orOwn
      ? sql<SqlBool>`(${statusIn(filter.statuses)} OR (v.uploader_uid = ${orOwn.uid} AND ${statusIn(orOwn.statuses)}))`
      : statusIn(filter.statuses),
  ];
  if (filter.uploaderUid !== undefined) conditions.push(sql`v.uploader_uid = ${filter.uploaderUid}`);
  if (filter.category !== undefined) conditions.push(sql`v.category = ${filter.category}`);
  if (filter.withAllTags) {
    const ids = [...new Set(filter.withAllTags)];
    conditions.push(
      sql`(SELECT count(*) FROM video_tags vt WHERE vt.video_id = v.video_id AND vt.tag_id IN (${sql.join(ids)})) = ${ids.length}`,
    );
  }
  for (const word of filter.words ?? []) conditions.push(matchesSearchWord('video', 'v', word));
  for (const word of filter.titleWords ?? []) conditions.push(sql`${titleOf} LIKE ${likePattern(word, 'contains')}`);
  if (filter.hiddenFrom) conditions.push(videoVisibleToViewer(filter.hiddenFrom));
  return sql.join(conditions, sql` AND `) as RawBuilder<SqlBool>;
}

/** Approved videos and nothing else asked but the words and the viewer's block lists: what the title and tag rankings hold. */
function onlyPublic(filter: VideoFilter): boolean {
  return (
    filter.statuses.length === 1 &&
    filter.statuses[0] === 'approved' &&
    !filter.orOwn &&
    filter.uploaderUid === undefined &&
    filter.category === undefined &&
    !filter.withAllTags &&
    !filter.titleWords?.length
  );
}

/** Newest or oldest first (a search by relevance is ranked by searchPage). */
function orderOf(order: VideoOrder): RawBuilder<unknown> {
  return order === 'oldest' ? sql`v.created_at ASC, v.video_id ASC` : sql`v.created_at DESC, v.video_id DESC`;
}

/** Forgets what this process cached of a video's status and its media's access (a change here or a notice from another process). */
export function forgetVideoLocally(
  caches: Pick<RepositoryCaches, 'videoBasics' | 'videoCounts' | 'mediaStates'>,
  videoId: number,
): void {
  caches.videoBasics.delete(videoId);
  // A status or category change moves the video between counts; which ones is not worth working out.
  caches.videoCounts.clear();
  forgetMediaAccess(caches);
}

export function createVideosRepository(db: Kysely<Database>, caches: RepositoryCaches) {
  /** Videos with their uploader and first part: the columns every list shows. */
  function thumbs() {
    return db
      .selectFrom('videos as v')
      .innerJoin('users as u', 'u.uid', 'v.uploader_uid')
      .innerJoin('video_parts as p', (join) => join.onRef('p.video_id', '=', 'v.video_id').on('p.part_index', '=', 0))
      .innerJoin('media as m', 'm.media_id', 'p.media_id')
      .select([
        'v.video_id',
        'v.title',
        'v.cover',
        'v.created_at',
        'v.watched_count',
        'v.duration_ms',
        'v.description',
        'v.category',
        'v.status',
        'v.copyright',
        'v.original_author',
        'v.original_link',
        'u.username',
        'u.user_nickname',
        'u.uid',
        'm.media_id',
        'm.renditions',
        'm.poster_set',
      ]);
  }

  /** The video's tags, in this order. */
  async function insertTags(videoId: number, tagIds: readonly number[]): Promise<void> {
    if (tagIds.length)
      await db
        .insertInto('video_tags')
        .values(tagIds.map((tag_id, position) => ({ video_id: videoId, tag_id, position })))
        .execute();
  }

  /** Forgets what this process cached of a video's status and its media's access, and has the other processes forget it. */
  function forget(videoId: number): void {
    forgetVideoLocally(caches, videoId);
    announceForgotten(caches.notices, { cache: 'video', videoId });
  }

  /** The thumbs of these videos, in this order. */
  async function thumbsInOrder(ids: readonly number[]) {
    if (!ids.length) return [];
    const place = new Map(ids.map((id, i) => [id, i]));
    return (
      await thumbs()
        .where('v.video_id', 'in', [...ids])
        .execute()
    ).sort((a, b) => place.get(a.video_id)! - place.get(b.video_id)!);
  }

  /**
   * A search ranked by relevance (decision 0020): each word scores 3 in the title, else 2 in a
   * tag's name, else 1 (the description); then the more popular (search_bucket of the views),
   * then the newest. The public search is read in that order from the title and tag rankings:
   * one word (walkOneWord), or the rarest of several, scoring the others on each row (walkWords).
   * Otherwise (another filter, or only words of one or two Latin letters) the candidates (every
   * word matched, with which matched through a tag, at most SEARCH_CANDIDATES) are joined to
   * their videos once, scored, and counted in the same statement. Either way only the page's rows are then read as thumbs.
   */
  async function searchPage(filter: VideoFilter, words: readonly string[], window: PageWindow) {
    const offset = (window.page - 1) * window.pageSize;
    if (onlyPublic(filter)) {
      // One word's count is exact (to SEARCH_CANDIDATES); several words' may be estimated.
      const walked =
        words.length === 1
          ? await walkOneWord(db, words[0], filter.hiddenFrom, SEARCH_CANDIDATES, offset + window.pageSize).then(
              (one) => one && { ...one, estimated: false },
            )
          : await walkWords(
              db,
              words,
              filter.hiddenFrom,
              SEARCH_CANDIDATES,
              offset + window.pageSize,
              SEARCH_COUNT_EXACT,
            );
      if (walked)
        return {
          count: walked.count,
          countEstimated: walked.estimated,
          rows: await thumbsInOrder(walked.ids.slice(offset, offset + window.pageSize)),
        };
    }
    const score = sql.join(
      words.map(
        (word, i) =>
          sql`(CASE WHEN ${titleOf} LIKE ${likePattern(word, 'contains')} THEN 3 WHEN ${sql.ref(`c.tag${i}`)} THEN 2 ELSE 1 END)`,
      ),
      sql` + `,
    );
    const ranked = await sql<{ video_id: number; total: number }>`SELECT v.video_id, count(*) OVER () AS total
      FROM ${searchCandidates('video', words, SEARCH_CANDIDATES)} c JOIN videos v ON v.video_id = c.id
      WHERE ${whereOf({ ...filter, words: [] })}
      ORDER BY ${score} DESC, search_bucket(v.watched_count) DESC, v.video_id DESC
      LIMIT ${window.pageSize} OFFSET ${offset}`.execute(db);
    // A page past the end has no row to carry the count.
    const count =
      ranked.rows[0]?.total ??
      (window.page > 1
        ? Number(
            (
              await sql<{ n: number }>`SELECT count(*) AS n
      FROM ${searchCandidates('video', words, SEARCH_CANDIDATES)} c JOIN videos v ON v.video_id = c.id WHERE ${whereOf({ ...filter, words: [] })}`.execute(
                db,
              )
            ).rows[0]!.n,
          )
        : 0);
    return {
      count: Number(count),
      countEstimated: false,
      rows: await thumbsInOrder(ranked.rows.map((r) => r.video_id)),
    };
  }

  /**
   * A count kept under `key` for VIDEO_COUNTS_MS (or until a video changes), made by `count` when
   * missing. Once that time has passed, the kept count still answers while one recount runs
   * behind it: a count of the home page reads 950 000 index entries at 1 M videos (about 200 ms),
   * which every 30 s one request waited for (bench/README.md, scale). A change here or a notice
   * forgets the count outright, so the next request counts afresh as before.
   */
  function keptCount(key: string, count: () => Promise<number>): Promise<number> {
    const now = Date.now();
    const entry = caches.videoCounts.get(key);
    if (entry && now - entry.at < VIDEO_COUNTS_MS) return entry.n;
    if (entry?.settled && !entry.recounting) {
      entry.recounting = true;
      const n = count();
      n.then(
        () => {
          if (caches.videoCounts.get(key) === entry) keep(key, n, Date.now());
        },
        () => {
          entry.recounting = false;
        },
      );
      return entry.n;
    }
    if (entry?.settled) return entry.n;
    if (caches.videoCounts.size >= VIDEO_COUNTS_KEPT) caches.videoCounts.clear();
    const n = count();
    keep(key, n, now);
    n.catch(() => caches.videoCounts.get(key)?.n === n && caches.videoCounts.delete(key));
    return n;
  }

  /** Keeps a count made at `at`, marked settled once it has its number (then it may answer past its time). */
  function keep(key: string, n: Promise<number>, at: number) {
    const entry: VideoCountEntry = { at, n, settled: false, recounting: false };
    caches.videoCounts.set(key, entry);
    n.then(
      () => {
        entry.settled = true;
      },
      () => {},
    );
  }

  /**
   * How many videos match: kept (VIDEO_COUNTS_MS) when the filter is a list of approved videos
   * with no words or tags (decision 0037). A member's is the guests' count less the videos their
   * block lists hide from that list (decision 0039): those are counted from the uploaders and
   * tags they blocked (their indexes, not the whole list) and kept by the block list itself, so
   * a member who changes it is counted afresh, and members with the same blocks share the count.
   */
  async function countOf(filter: VideoFilter, where: RawBuilder<SqlBool>): Promise<number> {
    const count = (condition: RawBuilder<SqlBool>) => () =>
      db
        .selectFrom('videos as v')
        .where(condition)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const kept =
      filter.statuses.length === 1 &&
      filter.statuses[0] === 'approved' &&
      !filter.orOwn &&
      !filter.withAllTags &&
      !filter.words?.length &&
      !filter.titleWords?.length;
    if (!kept) return count(where)();
    const key = `${filter.category ?? ''}|${filter.uploaderUid ?? ''}`;
    if (!filter.hiddenFrom) return keptCount(key, count(where));
    const inList = whereOf({ ...filter, hiddenFrom: undefined });
    const [all, blocks] = await Promise.all([
      keptCount(key, count(inList)),
      db
        .selectFrom('block_entries')
        .select(['type', 'target_uid', 'tag_id'])
        .where('uid', '=', filter.hiddenFrom)
        .where('type', 'in', ['block', 'hide', 'tag'])
        .execute(),
    ]);
    const uploaders = [
      ...new Set(blocks.flatMap((b) => (b.type !== 'tag' && b.target_uid !== null ? [b.target_uid] : []))),
    ];
    const tags = [...new Set(blocks.flatMap((b) => (b.type === 'tag' && b.tag_id !== null ? [b.tag_id] : [])))];
    if (!uploaders.length && !tags.length) return all;
    uploaders.sort((a, b) => a - b);
    tags.sort((a, b) => a - b);
    const hidden = await keptCount(`${key}|hidden|${uploaders.join(',')}|${tags.join(',')}`, async () => {
      const byUploader = uploaders.length
        ? sql`SELECT v.video_id FROM videos v WHERE v.uploader_uid IN (${sql.join(uploaders)}) AND ${inList}`
        : null;
      const byTag = tags.length
        ? sql`SELECT v.video_id FROM video_tags vt JOIN videos v ON v.video_id = vt.video_id
            WHERE vt.tag_id IN (${sql.join(tags)}) AND ${inList}`
        : null;
      const union = byUploader && byTag ? sql`${byUploader} UNION ${byTag}` : (byUploader ?? byTag)!;
      const { rows } = await sql<{ n: number }>`SELECT count(DISTINCT h.video_id) AS n FROM (${union}) h`.execute(db);
      return Number(rows[0]!.n);
    });
    return all - hidden;
  }

  /** Changes a video's status (when `guard` holds) and forgets what was cached of it. */
  async function setStatus(
    videoId: number,
    guard: RawBuilder<SqlBool>,
    values: Updateable<VideosTable>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('videos as v')
      .set(values)
      .where('v.video_id', '=', videoId)
      .where(guard)
      .executeTakeFirst();
    forget(videoId);
    return Number(result.numUpdatedRows) > 0;
  }

  return {
    /** One page of thumbs matching `filter`, and how many match in all (a search: at most SEARCH_CANDIDATES). */
    async thumbPage(filter: VideoFilter, window: PageWindow, order: VideoOrder = 'newest') {
      if (order === 'relevance' && filter.words?.length) return searchPage(filter, filter.words, window);
      const where = whereOf(filter);
      // The page is chosen among the videos alone, and only its rows are joined to their uploader,
      // first part and media: joining every match first made the planner read all parts and media
      // (tests/api/query-plans.test.ts).
      const page = db
        .selectFrom('videos as v')
        .select('v.video_id')
        .where(where)
        .orderBy(orderOf(order))
        .limit(window.pageSize)
        .offset((window.page - 1) * window.pageSize);
      const [rows, count] = await Promise.all([
        thumbs().where('v.video_id', 'in', page).orderBy(orderOf(order)).execute(),
        countOf(filter, where),
      ]);
      return { count, rows };
    },

    /**
     * A member's feed: approved videos pushed to the feed by the uploaders they follow, newest
     * first, after `after`, leaving out what they blocked or hid; each with its keyset position.
     * It walks the site's newest videos (videos_listing) keeping the followed uploaders' ones, and
     * starts the walk at the newest video any of them pushed (one probe of videos_feed per
     * followed uploader): when they have been quiet, the walk does not read the whole site's newer
     * videos first (bench/feed.ts, "dormant").
     */
    feedPage(viewerUid: number, after: FeedPosition | null, limit: number) {
      const pushed = (alias: string) =>
        sql<SqlBool>`${sql.ref(`${alias}.status`)} = 'approved' AND ${sql.ref(`${alias}.push_to_feed`)}`;
      const newestFollowed = sql<Date>`(SELECT max(latest.created_at) FROM follows fo CROSS JOIN LATERAL (
          SELECT w.created_at FROM videos w WHERE w.uploader_uid = fo.followed_uid AND ${pushed('w')}
            AND ${after ? olderInFeed('w.created_at', 'w.video_id', after, 'video') : sql`true`}
          ORDER BY w.created_at DESC, w.video_id DESC LIMIT 1) latest
        WHERE fo.follower_uid = ${viewerUid})`;
      let query = thumbs()
        .select(microsOf('v.created_at').as('created_micros'))
        .where(pushed('v'))
        .where('v.created_at', '<=', newestFollowed)
        .where(
          'v.uploader_uid',
          'in',
          db.selectFrom('follows').select('followed_uid').where('follower_uid', '=', viewerUid),
        )
        .where(videoVisibleToViewer(viewerUid));
      if (after) query = query.where(olderInFeed('v.created_at', 'v.video_id', after, 'video'));
      return query.orderBy('v.created_at', 'desc').orderBy('v.video_id', 'desc').limit(limit).execute();
    },

    /** The thumbs of these videos (any status), in no order. */
    thumbsOf(videoIds: readonly number[]) {
      return videoIds.length
        ? thumbs()
            .where('v.video_id', 'in', [...videoIds])
            .execute()
        : Promise.resolve([]);
    },

    /** The thumbs of the videos a member watched (matching `filter`), with the position and time, most recent first. */
    watchedBy(uid: number, filter: VideoFilter, limit: number, likedOnly = false) {
      let query = thumbs()
        .innerJoin('watch_history as h', (join) =>
          join.onRef('h.video_id', '=', 'v.video_id').on('h.target_type', '=', 'video'),
        )
        .select(['h.anchor', 'h.updated_at'])
        .where('h.uid', '=', uid)
        .where(whereOf(filter));
      if (likedOnly) query = query.where(likedBy(uid, 'video', 'v.video_id'));
      return query.orderBy('h.updated_at', 'desc').limit(limit).execute();
    },

    /** Status, uploader and duration, read at most once a second per video. */
    basics(videoId: number): Promise<VideoBasics | undefined> {
      const cache = caches.videoBasics;
      const known = cache.get(videoId);
      if (known && Date.now() - known.at < VIDEO_BASICS_MS) return known.row;
      const row = db
        .selectFrom('videos')
        .select(['status', 'uploader_uid', 'duration_ms'])
        .where('video_id', '=', videoId)
        .executeTakeFirst();
      cache.delete(videoId);
      cache.set(videoId, { at: Date.now(), row });
      row.catch(() => cache.delete(videoId));
      if (cache.size > VIDEO_BASICS_KEPT) cache.delete(cache.keys().next().value!);
      return row;
    },

    async isApproved(videoId: number): Promise<boolean> {
      return !!(await db
        .selectFrom('videos')
        .select('video_id')
        .where('video_id', '=', videoId)
        .where('status', '=', 'approved')
        .executeTakeFirst());
    },

    async userExists(uid: number): Promise<boolean> {
      return !!(await db.selectFrom('users').select('uid').where('uid', '=', uid).executeTakeFirst());
    },

    /** The video with its uploader's name, avatar and signature. */
    detail(videoId: number) {
      return db
        .selectFrom('videos as v')
        .innerJoin('users as u', 'u.uid', 'v.uploader_uid')
        .select([
          'v.video_id',
          'v.title',
          'v.cover',
          'v.created_at',
          'v.watched_count',
          'v.duration_ms',
          'v.description',
          'v.category',
          'v.status',
          'v.copyright',
          'v.original_author',
          'v.original_link',
          'v.uploader_uid',
          'u.username',
          'u.user_nickname',
          'u.avatar',
          'u.signature',
        ])
        .where('v.video_id', '=', videoId)
        .executeTakeFirst();
    },

    /** The parts of these videos with their media, by video and part. */
    async partsOf(videoIds: readonly number[]) {
      if (!videoIds.length) return [];
      return db
        .selectFrom('video_parts as p')
        .innerJoin('media as m', 'm.media_id', 'p.media_id')
        .select([
          'p.video_id',
          'p.part_index',
          'p.title',
          'm.media_id',
          'm.status',
          'm.duration_ms',
          'm.renditions',
          'm.storyboard',
          'm.poster_set',
        ])
        .where('p.video_id', 'in', [...videoIds])
        .orderBy('p.video_id')
        .orderBy('p.part_index')
        .execute();
    },

    /** Each video's tag ids, in the video's order. */
    async tagIdsOf(videoIds: readonly number[]): Promise<Map<number, number[]>> {
      const byVideo = new Map<number, number[]>();
      if (!videoIds.length) return byVideo;
      const rows = await db
        .selectFrom('video_tags')
        .select(['video_id', 'tag_id'])
        .where('video_id', 'in', [...videoIds])
        .orderBy('position')
        .execute();
      for (const row of rows) byVideo.set(row.video_id, [...(byVideo.get(row.video_id) ?? []), row.tag_id]);
      return byVideo;
    },

    /** The video sitemap's files (sitemap-files.sql.ts). */
    approvedIdRanges: (perFile: number) => approvedIdRanges(db, 'videos', perFile),

    /** The approved videos of one sitemap file, by id. */
    approvedInFile: (file: number, perFile: number) => approvedInFile(db, 'videos', file, perFile),

    /** The media of an approved video's first part. */
    async approvedFirstPartMedia(videoId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('videos as v')
        .innerJoin('video_parts as p', 'p.video_id', 'v.video_id')
        .select('p.media_id')
        .where('v.video_id', '=', videoId)
        .where('v.status', '=', 'approved')
        .where('p.part_index', '=', 0)
        .executeTakeFirst();
      return row?.media_id;
    },

    async insertVideo(values: Insertable<VideosTable>): Promise<number> {
      return (await db.insertInto('videos').values(values).returning('video_id').executeTakeFirstOrThrow()).video_id;
    },

    async insertParts(videoId: number, parts: ReadonlyArray<{ title: string; mediaId: string }>): Promise<void> {
      await db
        .insertInto('video_parts')
        .values(parts.map((p, part_index) => ({ video_id: videoId, part_index, title: p.title, media_id: p.mediaId })))
        .execute();
    },

    insertTags,

    /** The first of the video's parts whose media is in one of these statuses. */
    async partMediaIn(videoId: number, statuses: readonly MediaStatus[]): Promise<string | undefined> {
      const row = await db
        .selectFrom('video_parts as p')
        .innerJoin('media as m', 'm.media_id', 'p.media_id')
        .select('m.media_id')
        .where('p.video_id', '=', videoId)
        .where('m.status', 'in', [...statuses])
        .executeTakeFirst();
      return row?.media_id;
    },

    /** A pending video becomes approved, by this reviewer; false when it was not pending. */
    approvePending: (videoId: number, reviewerUid: number) =>
      setStatus(videoId, sql`v.status = 'pending'`, {
        status: 'approved',
        reviewed_by: reviewerUid,
        reviewed_at: new Date(),
      }),

    /** A pending video is refused by this reviewer, with the reason and note its uploader reads; false when it was not pending. */
    rejectPending: (videoId: number, reviewerUid: number, rejection: { reason: string; note: string }) =>
      setStatus(videoId, sql`v.status = 'pending'`, {
        status: 'deleted',
        deleted_by: reviewerUid,
        deleted_at: new Date(),
        rejection_reason: rejection.reason,
        rejection_note: rejection.note || null,
      }),

    /** An approved video goes back to the review queue (out of public view until approved again); false when it was not approved. */
    hideApproved: (videoId: number) => setStatus(videoId, sql`v.status = 'approved'`, { status: 'pending' }),

    /**
     * Up to `limit` approved videos related to one (related.sql.ts: shared tags, the same
     * uploader, co-viewing), by score then views; never the video itself nor what `viewerUid`
     * blocked or hid.
     */
    related(videoId: number, viewerUid: number | null, limit: number) {
      // Ranked on the video rows alone, then the thumbs of the `limit` kept: a popular video has
      // thousands of candidates, and joining each to its uploader, part and media cost 0.4 s at
      // 100 000 videos (bench/scale.ts).
      let ranked = db
        .selectFrom('videos as v')
        .innerJoin(relatedCandidates('video', videoId).as('rel'), (join) =>
          join.onRef('rel.item_id' as never, '=', 'v.video_id'),
        )
        .select(['v.video_id', sql<number>`rel.score`.as('score')])
        .where('v.status', '=', 'approved');
      if (viewerUid !== null) ranked = ranked.where(videoVisibleToViewer(viewerUid));
      ranked = ranked
        .orderBy(sql`rel.score`, 'desc')
        .orderBy('v.watched_count', 'desc')
        .orderBy('v.video_id', 'desc')
        .limit(limit);
      return thumbs()
        .innerJoin(ranked.as('r'), 'r.video_id', 'v.video_id')
        .orderBy('r.score', 'desc')
        .orderBy('v.watched_count', 'desc')
        .orderBy('v.video_id', 'desc')
        .execute();
    },

    /** A video not deleted yet is marked deleted, by this member; false when there was none. */
    markDeleted: (videoId: number, byUid: number) =>
      setStatus(videoId, sql`v.status != 'deleted'`, { status: 'deleted', deleted_by: byUid, deleted_at: new Date() }),

    /**
     * One page of a member's own videos, newest first: those not deleted, and those a reviewer
     * (not the member) removed, each with its counts and what its files' processing came to.
     */
    async ownPage(uid: number, window: PageWindow) {
      const where = sql<SqlBool>`v.uploader_uid = ${uid} AND (v.status IN ('pending', 'approved') OR (v.status = 'deleted' AND v.deleted_by IS DISTINCT FROM v.uploader_uid))`;
      const partMedia = (condition: RawBuilder<unknown>) =>
        sql`(SELECT ${condition} FROM video_parts pp JOIN media pm ON pm.media_id = pp.media_id WHERE pp.video_id = v.video_id)`;
      const [rows, count] = await Promise.all([
        thumbs()
          .where(where)
          .select([
            'v.deleted_by',
            'v.rejection_reason',
            'v.rejection_note',
            sql<number>`(SELECT count(*)::int FROM danmaku d WHERE d.video_id = v.video_id AND d.target_type = 'video')`.as(
              'danmaku_count',
            ),
            sql<number>`(SELECT count(*)::int FROM comments c WHERE c.video_id = v.video_id AND c.target_type = 'video' AND c.deleted_at IS NULL)`.as(
              'comment_count',
            ),
            sql<boolean>`${partMedia(sql`coalesce(bool_and(pm.status IN ('playable', 'ready')), false)`)}`.as(
              'media_ready',
            ),
            sql<boolean>`${partMedia(sql`coalesce(bool_or(pm.status IN ('rejected', 'failed')), false)`)}`.as(
              'media_refused',
            ),
            sql<string | null>`${partMedia(sql`min(pm.reason) FILTER (WHERE pm.status IN ('rejected', 'failed'))`)}`.as(
              'media_reason',
            ),
            sql<number>`(SELECT count(*)::int FROM video_parts pp WHERE pp.video_id = v.video_id)`.as('part_count'),
          ])
          .orderBy('v.created_at', 'desc')
          .orderBy('v.video_id', 'desc')
          .limit(window.pageSize)
          .offset((window.page - 1) * window.pageSize)
          .execute(),
        db
          .selectFrom('videos as v')
          .where(where)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { count: Number(count.n), rows };
    },

    /** The editable metadata of a video that is not deleted, locked until the transaction ends. */
    editableForUpdate(videoId: number) {
      return db
        .selectFrom('videos')
        .select(['video_id', 'uploader_uid', 'status', 'title', 'description', 'category', 'cover'])
        .where('video_id', '=', videoId)
        .where('status', '!=', 'deleted')
        .forUpdate()
        .executeTakeFirst();
    },

    /** Writes a video's changed metadata (and status); the caller forgets the cached state once committed. */
    async updateMetadata(videoId: number, values: Updateable<VideosTable>): Promise<void> {
      await db.updateTable('videos').set(values).where('video_id', '=', videoId).execute();
    },

    /** The video's tags become these, in this order. */
    async replaceTags(videoId: number, tagIds: readonly number[]): Promise<void> {
      await db.deleteFrom('video_tags').where('video_id', '=', videoId).execute();
      await insertTags(videoId, tagIds);
    },

    /** Forgets what this process cached of a video's status (after a change made in a transaction). */
    forget,

    /** The uploader of a video that is not deleted. */
    async uploaderOf(videoId: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('videos')
        .select('uploader_uid')
        .where('video_id', '=', videoId)
        .where('status', '!=', 'deleted')
        .executeTakeFirst();
      return row?.uploader_uid;
    },

    /** Records a view of an approved video this hour (hot-counts.sql.ts): undefined when not approved. */
    async recordView(
      videoId: number,
      viewerKey: string,
    ): Promise<{ watchedCount: number; counted: boolean } | undefined> {
      const seen = await recordOncePerHour(db, VIDEO_VIEWS, videoId, viewerKey);
      return seen && { watchedCount: seen.stored, counted: seen.counted };
    },

    /** Adds a window's views to the videos' watch counts (one statement). */
    addWatchedCounts: (counts: ReadonlyMap<number, number>) => addCounts(db, VIDEO_VIEWS, counts),

    async deleteViewsOlderThan(hours: number): Promise<void> {
      await db
        .deleteFrom('video_views')
        .where('hour', '<', sql<Date>`now() - ${sql.lit(hours)} * interval '1 hour'`)
        .execute();
    },
  };
}
export type VideosRepository = ReturnType<typeof createVideosRepository>;
export type ThumbRow = Awaited<ReturnType<VideosRepository['thumbPage']>>['rows'][number];
