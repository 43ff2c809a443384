import type { z } from 'zod';
import type { MediaStore } from '../media/media-store.ts';
import type { Repositories } from '../repositories/index.ts';
import type { AudioThumbRow } from '../repositories/audio.repository.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import type { Page } from './catalogue.ts';
import { can, type Actor } from '../../src/lib/policy/policy.ts';
import type { TargetFacts } from './media-targets.ts';
import { createTagService } from './tags.ts';
import { recordStaffAction } from './moderation-log.ts';
import { searchTerms } from './search-text.ts';
import { checkOwnCover, searchTextOf, VIEW_COUNT_WINDOW_MS, viewerKeyOf } from './videos.ts';
import { createCountWindow } from './write-window.ts';
import type { Logger } from '../logger.ts';
import { hlsPath } from '../media/paths.ts';
import { AUDIO_FILES } from '../media/audio-pipeline.ts';
import type {
  AudioDetail,
  AudioThumb,
  audioUpdateBody,
  audioUploadBody,
  MyTrack,
  PendingAudioResponse,
} from '../../src/lib/api/contracts/audio.ts';
import type { AudioSort } from '../../src/lib/api/contracts/audio.constants.ts';
import type { Copyright } from '../../src/lib/api/contracts/video.constants.ts';
import type { HistoryItem } from '../../src/lib/api/contracts/history.ts';
import type { ReviewRejectionReason } from '../../src/lib/api/contracts/common.constants.ts';
import { REVIEW_REJECTION_REASONS } from '../../src/lib/api/contracts/common.constants.ts';
import type { FeedPosition } from '../repositories/keyset.sql.ts';

type Commit = z.output<typeof audioUploadBody>;
type Update = Omit<z.output<typeof audioUpdateBody>, 'audioId'>;
export interface AudioList {
  count: number;
  tracks: AudioThumb[];
}

const mediaUrl = (mediaId: string, file: string) => `/media/${hlsPath(mediaId)}/${file}`;
/** How many of the uploader's tracks the player queues after this one. */
const QUEUE_LENGTH = 20;

/** A list's row as the thumb every list answers: the uploaded cover, else the embedded one, else none. */
function toThumb(row: AudioThumbRow, withStatus = false): AudioThumb {
  return {
    audioId: row.audio_id,
    title: row.title,
    artist: row.artist,
    cover: row.cover ?? (row.cover_file ? mediaUrl(row.media_id, row.cover_file) : ''),
    duration: row.duration_ms,
    playCount: Number(row.play_count),
    uploadDate: new Date(row.created_at).getTime(),
    uploaderId: row.uploader_uid,
    uploader: row.username,
    uploaderNickname: row.user_nickname,
    category: row.category,
    ...(withStatus ? { status: row.status === 'approved' ? ('approved' as const) : ('pending' as const) } : {}),
  };
}

/** What search reads of a track: its title and description, then its artist. */
const searchTextOfTrack = (title: string, artist: string, description: string) =>
  `${searchTextOf(title, description)}\n${searchTextOf(artist, '')}`;

const mayListen = (row: { status: string; uploader_uid: number }, looker: Actor | null) =>
  can(looker, 'audio.view', { ownerUid: row.uploader_uid, status: row.status });

/** The audio section: committing uploaded tracks, lists, the track page, review, plays, deletion. */
export function createAudioService(
  repositories: Pick<Repositories, 'audio' | 'media' | 'tags' | 'moderationLog' | 'transaction'>,
  options: { media: MediaStore; logger?: Pick<Logger, 'warn'>; playWindowMs?: number },
) {
  const { audio } = repositories;
  // Plays counted and not yet added to their tracks' rows, by track.
  const plays = createCountWindow({
    windowMs: options.playWindowMs ?? VIEW_COUNT_WINDOW_MS,
    write: (counts) => audio.addPlayCounts(counts),
    onError: (error) =>
      options.logger?.warn('play counts could not be written, kept for the next window', { err: error }),
  });
  const tags = createTagService(repositories);

  async function list(
    filter: Parameters<typeof audio.page>[0],
    page: Page,
    order: AudioSort | 'oldest' = 'newest',
    withStatus = false,
  ): Promise<AudioList> {
    const { count, rows } = await audio.page({ ...filter, hiddenFrom: page.viewerUid }, page, order);
    return { count, tracks: rows.map((r) => toThumb(r, withStatus)) };
  }

  return {
    /**
     * audio/upload: the file must be the caller's audio upload, probed and not refused, and in no
     * other track; the duration is ffprobe's. The track waits for review.
     */
    async commit(uid: number, body: Commit): Promise<number> {
      const [media] = await repositories.media.byIds([body.mediaId]);
      if (!media) throw new DomainError('NOT_FOUND', { issues: [{ path: 'mediaId', message: 'no such upload' }] });
      if (media.uid !== uid) throw new DomainError('FORBIDDEN');
      if (media.kind !== 'audio')
        throw new DomainError('VALIDATION_FAILED', {
          issues: [{ path: 'mediaId', message: `is a ${media.kind} upload, not audio` }],
        });
      if (media.status === 'rejected' || media.status === 'failed')
        throw new DomainError('MEDIA_REJECTED', {
          extra: { mediaId: body.mediaId, reason: media.reason ?? 'CORRUPT' },
        });
      if (media.status === 'uploaded' || media.duration_ms === null)
        throw new DomainError('MEDIA_NOT_READY', { extra: { mediaId: body.mediaId } });
      const durationMs = media.duration_ms;
      const image = body.image || null;
      if (image) await checkOwnCover(options.media, uid, image);
      const tagIds = [...new Set(body.audioTagList)];
      if (tagIds.length && (await repositories.tags.existing(tagIds)).length !== tagIds.length) {
        throw new DomainError('VALIDATION_FAILED', {
          issues: [{ path: 'audioTagList', message: 'contains a tag that does not exist' }],
        });
      }
      try {
        return await repositories.transaction((r) =>
          r.audio.insert(
            {
              uploader_uid: uid,
              media_id: body.mediaId,
              title: body.title,
              artist: body.artist,
              description: body.description,
              category: body.audioCategory,
              copyright: body.copyright,
              original_author: body.copyright === 'original' ? null : body.originalAuthor || null,
              original_link: body.copyright === 'original' ? null : body.originalLink || null,
              cover: image,
              duration_ms: durationMs,
              search_text: searchTextOfTrack(body.title, body.artist, body.description),
            },
            tagIds,
          ),
        );
      } catch (error) {
        // A file belongs to one track only (unique constraint on audio_tracks.media_id).
        if ((error as { code?: string }).code === '23505') throw new DomainError('CONFLICT', { cause: error });
        throw error;
      }
    },

    /** audio/mine: the uploader's own tracks (pending, approved, and refused by a reviewer with the reason), newest first, with what the editor changes. */
    async mine(uid: number, page: Page): Promise<{ count: number; tracks: MyTrack[] }> {
      const { count, rows } = await audio.page(
        { statuses: ['pending', 'approved'], uploaderUid: uid, rejectedToo: true },
        page,
        'newest',
      );
      const tracks = await Promise.all(
        rows.map(
          async (row): Promise<MyTrack> => ({
            // A refused track's files are no longer served: only an uploaded cover still shows.
            ...toThumb(row),
            ...(row.status === 'deleted' ? { cover: row.cover ?? '' } : {}),
            status: row.status === 'deleted' ? 'rejected' : row.status === 'approved' ? 'approved' : 'pending',
            rejectionReason:
              row.status === 'deleted'
                ? (REVIEW_REJECTION_REASONS.find((r) => r === row.rejection_reason) ?? 'OTHER')
                : null,
            rejectionNote: row.status === 'deleted' ? row.rejection_note : null,
            description: row.description,
            image: row.cover,
            tags: await tags.tagsById((await audio.tagIdsOf(row.audio_id)).map((t) => t.tag_id)),
          }),
        ),
      );
      return { count, tracks };
    },

    /**
     * audio/update (its uploader or staff, as the policy decided): the fields sent change; an
     * approved track whose title, artist, description, cover or tags change goes back to review.
     */
    async update(
      audioId: number,
      editorUid: number,
      changes: Update,
    ): Promise<{ status: 'pending' | 'approved'; backToReview: boolean }> {
      const tagIds = changes.audioTagList && [...new Set(changes.audioTagList)];
      if (tagIds?.length && (await repositories.tags.existing(tagIds)).length !== tagIds.length) {
        throw new DomainError('VALIDATION_FAILED', {
          issues: [{ path: 'audioTagList', message: 'contains a tag that does not exist' }],
        });
      }
      return repositories.transaction(async (r) => {
        const track = await r.audio.editableForUpdate(audioId);
        if (!track) throw new NotFound();
        const image = changes.image === undefined ? track.cover : changes.image || null;
        if (image && image !== track.cover) await checkOwnCover(options.media, editorUid, image);
        const title = changes.title ?? track.title;
        const artist = changes.artist ?? track.artist;
        const description = changes.description ?? track.description;
        const currentTags = (await r.audio.tagIdsOf(audioId)).map((t) => t.tag_id);
        const tagsChanged = !!tagIds && tagIds.join() !== currentTags.join();
        const publicChange =
          title !== track.title ||
          artist !== track.artist ||
          description !== track.description ||
          image !== track.cover ||
          tagsChanged;
        const backToReview = track.status === 'approved' && publicChange;
        await r.audio.updateMetadata(audioId, {
          title,
          artist,
          description,
          cover: image,
          category: changes.audioCategory ?? track.category,
          search_text: searchTextOfTrack(title, artist, description),
          ...(backToReview ? { status: 'pending' as const } : {}),
        });
        if (tagsChanged) await r.audio.replaceTags(audioId, tagIds);
        return {
          status: backToReview || track.status !== 'approved' ? ('pending' as const) : ('approved' as const),
          backToReview,
        };
      });
    },

    /** The track as danmaku, comments and history see it (services.targets). */
    async visibleTrack(audioId: number, looker: Actor | null): Promise<TargetFacts | null> {
      const row = await audio.basics(audioId);
      if (!row || !mayListen(row, looker)) return null;
      return {
        durationMs: row.duration_ms,
        status: row.status === 'approved' ? 'approved' : 'pending',
        uploaderUid: row.uploader_uid,
      };
    },

    /** audio?audioId: the track page's everything; a pending track only for its uploader and staff. */
    async track(audioId: number, looker: Actor | null): Promise<AudioDetail | null> {
      const row = await audio.byId(audioId);
      if (!row || !mayListen(row, looker)) return null;
      const [tagIds, queue] = await Promise.all([
        audio.tagIdsOf(audioId),
        audio.queueAfter(row.uploader_uid, { audioId, createdAt: new Date(row.created_at) }, QUEUE_LENGTH),
      ]);
      return {
        ...toThumb(row),
        status: row.status === 'approved' ? 'approved' : 'pending',
        description: row.description,
        copyright: row.copyright as Copyright,
        originalAuthor: row.original_author,
        originalLink: row.original_link,
        tags: await tags.tagsById(tagIds.map((t) => t.tag_id)),
        uploaderInfo: {
          uid: row.uploader_uid,
          username: row.username,
          userNickname: row.user_nickname,
          avatar: row.avatar,
          signature: row.signature,
        },
        manifestUrl: mediaUrl(row.media_id, AUDIO_FILES.master),
        streamUrl: mediaUrl(row.media_id, AUDIO_FILES.progressive),
        waveform: row.waveform ?? [],
        loudness:
          row.loudness_lufs === null || row.true_peak_db === null
            ? null
            : { integratedLufs: row.loudness_lufs, truePeakDb: row.true_peak_db },
        queue: queue.map((r) => toThumb(r)),
      };
    },

    home: (sort: AudioSort, page: Page) => list({ statuses: ['approved'] }, page, sort),
    /** audio/user: the uploader sees their pending tracks too (marked). */
    byUploader(uid: number, looker: Actor | null, page: Page) {
      const own = looker?.uid === uid;
      return list({ statuses: own ? ['pending', 'approved'] : ['approved'], uploaderUid: uid }, page, 'newest', own);
    },
    search(query: { keyword?: string; tagId?: number }, page: Page) {
      return list(
        { statuses: ['approved'], ...(query.keyword ? { words: searchTerms(query.keyword) } : { tagId: query.tagId }) },
        page,
      );
    },

    /** audio/pending: the review queue, oldest first, with the stream to listen to. */
    async pending(page: Page): Promise<Omit<PendingAudioResponse, 'success'>> {
      const { count, rows } = await audio.page({ statuses: ['pending'] }, page, 'oldest');
      const tracks = await Promise.all(
        rows.map(async (row) => ({
          ...toThumb(row, true),
          description: row.description,
          streamUrl: mediaUrl(row.media_id, AUDIO_FILES.progressive),
          tags: await tags.tagsById((await audio.tagIdsOf(row.audio_id)).map((t) => t.tag_id)),
        })),
      );
      return { count, tracks };
    },

    async approve(audioId: number, reviewerUid: number): Promise<void> {
      if (!(await audio.setStatus(audioId, ['pending'], 'approved', reviewerUid))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: reviewerUid,
        action: 'audio.approve',
        targetType: 'audio',
        targetId: audioId,
      });
    },

    /** audio/pending/rejected: a pending track is removed with the reviewer's reason and note, which its uploader reads in "my tracks". */
    async reject(
      audioId: number,
      reviewerUid: number,
      rejection: { reason: ReviewRejectionReason; note: string },
    ): Promise<void> {
      if (!(await audio.rejectPending(audioId, reviewerUid, rejection))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: reviewerUid,
        action: 'audio.reject',
        targetType: 'audio',
        targetId: audioId,
        details: { ...rejection },
      });
    },

    /** The uploader of a track that is not deleted (who may delete it is the policy's decision). */
    async uploaderOf(audioId: number): Promise<number | undefined> {
      return (await audio.basics(audioId))?.uploader_uid;
    },

    /** Soft deletion: gone from every list and page, its files no longer served. */
    async remove(audioId: number, byUid: number): Promise<void> {
      const uploaderUid = (await audio.basics(audioId))?.uploader_uid;
      if (!(await audio.setStatus(audioId, ['pending', 'approved'], 'deleted', byUid))) throw new NotFound();
      if (uploaderUid !== byUid)
        await recordStaffAction(repositories, {
          actorUid: byUid,
          action: 'audio.delete',
          targetType: 'audio',
          targetId: audioId,
          details: { uploaderUid },
        });
    },

    /** Staff take an approved track out of public view: it goes back to the review queue. */
    async hide(audioId: number, byUid: number): Promise<void> {
      if (!(await audio.hideApproved(audioId))) throw new NotFound();
      await recordStaffAction(repositories, {
        actorUid: byUid,
        action: 'audio.hide',
        targetType: 'audio',
        targetId: audioId,
      });
    },

    /**
     * One counted play per listener per public track per hour; the track's count takes it within
     * a write window (one write per track per window: docs/decisions/0023).
     */
    async play(
      audioId: number,
      viewer: { uid: number } | null,
      guestAddress: string,
    ): Promise<{ counted: boolean; playCount: number }> {
      const heard = await audio.recordPlay(audioId, viewerKeyOf(viewer, guestAddress));
      if (!heard) throw new NotFound();
      if (heard.counted) plays.add(audioId);
      return { counted: heard.counted, playCount: heard.playCount + plays.unwritten(audioId) };
    },

    /** Writes the plays counted so far to their tracks (the drain calls it before the database closes). */
    flushPlays: () => plays.flush(),

    /** The thumbs of these tracks (collections show them among videos), in no order. */
    /** audio/related: approved tracks sharing tags, uploader or listeners with this one, without it and what `viewerUid` blocked or hid. */
    related: async (audioId: number, viewerUid: number | null, limit: number) =>
      (await audio.related(audioId, viewerUid, limit)).map((row) => toThumb(row)),
    thumbsOf: async (audioIds: readonly number[]) => (await audio.thumbsOf(audioIds)).map((row) => toThumb(row)),

    /** The feed's tracks (follows.feed merges them with videos and posts): thumbs with their exact creation time. */
    async feedPage(viewerUid: number, after: FeedPosition | null, limit: number) {
      return (await audio.feedPage(viewerUid, after, limit)).map((row) => ({
        id: row.audio_id,
        micros: row.created_micros,
        track: toThumb(row),
      }));
    },

    /** The tracks in a member's history (history/filter merges them with videos and posts), as history items. */
    async history(uid: number, title: string | undefined, limit: number, likedOnly = false): Promise<HistoryItem[]> {
      const rows = await audio.listenedBy(uid, title ? searchTerms(title) : [], limit, likedOnly);
      return rows.map((row) => {
        const thumb = toThumb(row);
        return {
          category: 'audio' as const,
          id: row.audio_id,
          anchor: row.anchor,
          lastUpdateDateTime: new Date(row.updated_at).getTime(),
          videoId: row.audio_id,
          title: row.title,
          image: thumb.cover,
          uploadDate: thumb.uploadDate,
          watchedCount: thumb.playCount,
          uploader: row.username,
          uploaderNickname: row.user_nickname,
          uploaderId: row.uploader_uid,
          duration: row.duration_ms,
          description: row.description,
          videoCategory: row.category,
        };
      });
    },

    /** The audio sitemap's files (as the video sitemap's: `perFile` track ids each), each with its newest change. */
    sitemapFiles: (perFile: number) => audio.sitemapFiles(perFile),
    /** The approved tracks of one audio sitemap file, by id. */
    async sitemapTracks(file: number, perFile: number): Promise<Array<{ audioId: number; updated: Date }>> {
      return (await audio.sitemapFile(file, perFile)).map((r) => ({ audioId: r.id, updated: r.updated }));
    },
  };
}
export type AudioService = ReturnType<typeof createAudioService>;
