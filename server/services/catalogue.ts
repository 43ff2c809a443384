import type { MediaStatus, StoryboardInfo } from '../db/schema.ts';
import type { Repositories } from '../repositories/index.ts';
import { POSTER_DEFAULT_WIDTH, posterFileName, type PosterFormat } from '../../src/lib/catalogue/poster.ts';
import type { ThumbRow, VideoFilter, VideoOrder } from '../repositories/videos.repository.ts';
import type { Copyright, VideoCategory } from '../../src/lib/api/contracts/video.constants.ts';
import type { HistoryItem } from '../../src/lib/api/contracts/history.ts';
import type { MyVideo, PendingVideo, VideoDetail, VideoPart, VideoThumb } from '../../src/lib/api/contracts/video.ts';
import { REVIEW_REJECTION_REASONS } from '../../src/lib/api/contracts/common.constants.ts';
import { can, type Actor } from '../../src/lib/policy/policy.ts';
import { createTagService } from './tags.ts';
import { searchTerms } from './search-text.ts';
import { hlsPath } from '../media/pipeline.ts';
import { streamNotesOfVideos } from './subtitles.ts';

/** How much history a member sees (the most recent). */
export const HISTORY_LIMIT = 500;

/** A page of a list; with `viewerUid`, leaving out what that viewer blocked or hid. */
export interface Page {
  page: number;
  pageSize: number;
  viewerUid?: number | null;
}
export interface VideoList {
  videosCount: number;
  /** Only a search of several words past SEARCH_COUNT_EXACT matches: the count is an estimate. */
  videosCountEstimated?: true;
  videos: VideoThumb[];
}
/** Who is looking: pending videos are shown only to their uploader and to staff. */

const mediaUrl = (mediaId: string, file: string) => `/media/${hlsPath(mediaId)}/${file}`;
const hasPoster = (renditions: number[]) => renditions.length > 0;
/** A published media's poster: a size of its poster set (immutable), else the single poster.jpg. */
function posterUrl(
  row: { media_id: string; renditions: number[]; poster_set: string | null },
  width: number,
  format: PosterFormat,
): string | null {
  if (!hasPoster(row.renditions)) return null;
  return mediaUrl(row.media_id, row.poster_set ? posterFileName(row.poster_set, width, format) : 'poster.jpg');
}
/** What everyone may list; what an uploader lists of their own. */
const PUBLIC = ['approved'] as const;
const OWN = ['pending', 'approved'] as const;
/** The pipeline's reasons for refusing a file (a failed transcode has none: it reads as corrupt). */
const REFUSALS = ['NOT_A_VIDEO', 'TOO_LONG', 'CORRUPT'] as const;

function processingOf(status: MediaStatus): VideoPart['processing'] {
  if (status === 'failed' || status === 'rejected') return 'failed';
  if (status === 'playable' || status === 'ready' || status === 'transcoding') return status;
  return 'waiting';
}

/** A list's row as the thumb every list answers (the cover, else the poster once transcoded). */
export function toThumb(row: ThumbRow, withStatus = false): VideoThumb {
  return {
    videoId: row.video_id,
    title: row.title,
    image: row.cover ?? posterUrl(row, POSTER_DEFAULT_WIDTH, 'jpg') ?? '',
    uploadDate: new Date(row.created_at).getTime(),
    watchedCount: row.watched_count,
    uploader: row.username,
    uploaderNickname: row.user_nickname,
    uploaderId: row.uid,
    duration: row.duration_ms,
    description: row.description,
    videoCategory: row.category,
    ...(withStatus ? { status: row.status === 'approved' ? ('approved' as const) : ('pending' as const) } : {}),
  };
}

/** Read-side queries about videos and users that pages and API calls share. */
export function createCatalogue(
  repositories: Pick<Repositories, 'videos' | 'tags' | 'follows' | 'subtitles' | 'transaction'>,
) {
  const { videos, follows } = repositories;
  const tags = createTagService(repositories);

  /** One page of thumbs matching `filter`, leaving out what the page's viewer blocked or hid, and the total. */
  async function list(
    filter: VideoFilter,
    page: Page,
    options: { withStatus?: boolean; order?: VideoOrder } = {},
  ): Promise<VideoList> {
    const found = await videos.thumbPage({ ...filter, hiddenFrom: page.viewerUid }, page, options.order);
    return {
      videosCount: found.count,
      ...('countEstimated' in found && found.countEstimated ? { videosCountEstimated: true as const } : {}),
      videos: found.rows.map((r) => toThumb(r, options.withStatus)),
    };
  }

  async function partsOf(videoIds: number[]): Promise<Map<number, VideoPart[]>> {
    const byVideo = new Map<number, VideoPart[]>();
    for (const row of await videos.partsOf(videoIds)) {
      const published = row.renditions.length > 0;
      const board = row.storyboard as StoryboardInfo | null;
      const parts = byVideo.get(row.video_id) ?? [];
      byVideo.set(row.video_id, parts);
      parts.push({
        id: row.part_index + 1,
        videoPartTitle: row.title,
        link: published ? mediaUrl(row.media_id, 'master.m3u8') : null,
        duration: row.duration_ms ?? 0,
        processing: processingOf(row.status),
        renditions: row.renditions,
        poster: posterUrl(row, 1280, 'webp'),
        storyboard: board
          ? {
              url: mediaUrl(row.media_id, board.file),
              intervalSeconds: board.intervalSeconds,
              columns: board.columns,
              rows: board.rows,
              tileWidth: board.tileWidth,
              tileHeight: board.tileHeight,
              count: board.count,
            }
          : null,
      });
    }
    return byVideo;
  }

  return {
    tags,

    /** Whether a video can be opened by the public (approved and not deleted). */
    videoExists: (videoId: number): Promise<boolean> => videos.isApproved(videoId),
    /** The video if this looker may open it (approved, or pending and theirs or staff), else null. */
    async visibleVideo(
      videoId: number,
      looker: Actor | null,
    ): Promise<{ videoId: number; durationMs: number; status: 'pending' | 'approved'; uploaderUid: number } | null> {
      const row = await videos.basics(videoId);
      if (!row || row.status === 'deleted') return null;
      return can(looker, 'video.view', { ownerUid: row.uploader_uid, status: row.status })
        ? { videoId, durationMs: row.duration_ms, status: row.status, uploaderUid: row.uploader_uid }
        : null;
    },
    userExists: (uid: number): Promise<boolean> => videos.userExists(uid),

    /** video/related: approved videos sharing tags, uploader or viewers with this one, without it and what `viewerUid` blocked or hid. */
    related: async (videoId: number, viewerUid: number | null, limit: number) =>
      (await videos.related(videoId, viewerUid, limit)).map((row) => toThumb(row)),

    /** video/home: newest approved first. */
    home: (page: Page) => list({ statuses: PUBLIC }, page),
    byCategory: (category: VideoCategory, page: Page) => list({ statuses: PUBLIC, category }, page),

    /** video/user: the uploader sees their pending videos too (marked), everyone else the approved ones. */
    byUploader(uid: number, looker: Actor | null, page: Page) {
      const own = looker?.uid === uid;
      return list({ statuses: own ? OWN : PUBLIC, uploaderUid: uid }, page, { withStatus: own });
    },

    /** video/search/tag: approved videos that carry every one of the tags. */
    byTags: (tagIds: number[], page: Page) => list({ statuses: PUBLIC, withAllTags: tagIds }, page),

    /**
     * video/search: every word must appear in the title, the description or a tag name in any
     * language (substring match, so one- and two-character CJK words work; the trigram indexes
     * serve words of three characters or more). Ranked: title, then tags, then description.
     */
    async search(keyword: string, page: Page): Promise<VideoList> {
      const terms = searchTerms(keyword);
      if (!terms.length) return { videosCount: 0, videos: [] };
      return list({ statuses: PUBLIC, words: terms }, page, { order: 'relevance' });
    },

    /** video?videoId: everything the video page shows, or null when this looker may not see it. */
    async video(videoId: number, looker: Actor | null): Promise<VideoDetail | null> {
      const row = await videos.detail(videoId);
      if (!row || !can(looker, 'video.view', { ownerUid: row.uploader_uid, status: row.status })) return null;
      const isSelf = looker?.uid === row.uploader_uid;
      const [parts, tagIds, isFollowing] = await Promise.all([
        partsOf([videoId]),
        videos.tagIdsOf([videoId]),
        looker && !isSelf ? follows.exists(looker.uid, row.uploader_uid) : false,
      ]);
      const videoPart = parts.get(videoId) ?? [];
      return {
        videoId,
        videoPart,
        title: row.title,
        image: row.cover ?? videoPart[0]?.poster ?? '',
        uploadDate: new Date(row.created_at).getTime(),
        watchedCount: row.watched_count,
        uploaderId: row.uploader_uid,
        duration: row.duration_ms,
        description: row.description,
        videoCategory: row.category as VideoCategory,
        copyright: row.copyright as Copyright,
        originalAuthor: row.original_author,
        originalLink: row.original_link,
        videoTagList: await tags.tagsById(tagIds.get(videoId) ?? []),
        uploaderInfo: {
          uid: row.uploader_uid,
          username: row.username,
          userNickname: row.user_nickname,
          avatar: row.avatar,
          signature: row.signature,
          isFollowing,
          isSelf,
        },
        status: row.status === 'approved' ? 'approved' : 'pending',
      };
    },

    /** video/pending: the review queue, oldest first, with parts (previews) and tags. */
    async pending(page: Page): Promise<{ videosCount: number; videos: PendingVideo[] }> {
      const { count, rows } = await videos.thumbPage({ statuses: ['pending'] }, page, 'oldest');
      const ids = rows.map((r) => r.video_id);
      const [parts, tagIds] = await Promise.all([partsOf(ids), videos.tagIdsOf(ids)]);
      const queue = await Promise.all(
        rows.map(async (row) => ({
          ...toThumb(row, true),
          copyright: row.copyright as Copyright,
          originalAuthor: row.original_author,
          originalLink: row.original_link,
          tags: await tags.tagsById(tagIds.get(row.video_id) ?? []),
          parts: parts.get(row.video_id) ?? [],
        })),
      );
      return { videosCount: count, videos: queue };
    },

    /**
     * video/mine: the member's own videos, every status, newest first: still processing (a part
     * not yet playable, while pending), pending, approved, or rejected (a part the pipeline
     * refused, or removed by a reviewer), with the counts and tags the management page shows.
     */
    async mine(uid: number, page: Page): Promise<{ videosCount: number; videos: MyVideo[] }> {
      const { count, rows } = await videos.ownPage(uid, page);
      const tagIds = await videos.tagIdsOf(rows.map((r) => r.video_id));
      const notes = await streamNotesOfVideos(
        repositories.subtitles,
        rows.map((r) => r.video_id),
      );
      const list = await Promise.all(
        rows.map(async (row): Promise<MyVideo> => {
          const removed = row.status === 'deleted';
          const rejected = removed || row.media_refused;
          const state = rejected
            ? 'rejected'
            : row.status === 'pending' && !row.media_ready
              ? 'processing'
              : row.status === 'approved'
                ? 'approved'
                : 'pending';
          const reviewReason = removed ? REVIEW_REJECTION_REASONS.find((r) => r === row.rejection_reason) : undefined;
          const reason = removed
            ? (reviewReason ?? 'REMOVED_BY_REVIEWER')
            : row.media_refused
              ? (REFUSALS.find((r) => r === row.media_reason) ?? 'CORRUPT')
              : null;
          return {
            // A removed video's files are no longer served: no broken picture, the placeholder instead.
            ...toThumb(row),
            ...(removed ? { image: '' } : {}),
            state,
            rejectionReason: reason,
            rejectionNote: reviewReason ? row.rejection_note : null,
            cover: row.cover,
            poster: removed ? null : posterUrl(row, 1280, 'webp'),
            danmakuCount: Number(row.danmaku_count),
            commentCount: Number(row.comment_count),
            tags: await tags.tagsById(tagIds.get(row.video_id) ?? []),
            editable: !removed,
            partCount: Number(row.part_count),
            subtitleNotes: notes.get(row.video_id) ?? [],
          };
        }),
      );
      return { videosCount: count, videos: list };
    },

    /** A member's watch history, most recent first, optionally only titles containing `title`. */
    async history(uid: number, title?: string, likedOnly = false): Promise<HistoryItem[]> {
      // What the member may still open: approved videos, and their own pending ones.
      const filter = { statuses: PUBLIC, orOwn: { uid, statuses: OWN }, titleWords: title ? searchTerms(title) : [] };
      const rows = await videos.watchedBy(uid, filter, HISTORY_LIMIT, likedOnly);
      return rows.map((row) => ({
        ...toThumb(row),
        category: 'video' as const,
        id: row.video_id,
        anchor: row.anchor,
        lastUpdateDateTime: new Date(row.updated_at).getTime(),
      }));
    },

    /**
     * The video sitemap's files: approved videos grouped by ranges of `perFile` ids (file n holds
     * ids ((n-1)·perFile, n·perFile]), only files with videos, each with its newest change.
     */
    async sitemapVideoFiles(perFile: number): Promise<Array<{ file: number; updated: Date }>> {
      return videos.approvedIdRanges(perFile);
    },

    /** The approved videos of one sitemap file (see sitemapVideoFiles), by id. */
    async sitemapVideos(file: number, perFile: number): Promise<Array<{ videoId: number; updated: Date }>> {
      return (await videos.approvedInFile(file, perFile)).map((r) => ({ videoId: r.id, updated: r.updated }));
    },

    /** The first part's media of an approved video: where the manifest URL template points. */
    async mainMediaId(videoId: number): Promise<string | null> {
      return (await videos.approvedFirstPartMedia(videoId)) ?? null;
    },
  };
}
export type Catalogue = ReturnType<typeof createCatalogue>;
