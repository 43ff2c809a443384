/**
 * The reads that answer for one viewer by combining sections: an upload with the viewer's like
 * and the block flags between them and its uploader, a member's uploads with those flags, a
 * profile, the history of every section. Each answer says whether it is personal (never to be
 * kept in a shared cache), so the handler only maps that to a cache rule (handlers/personal.ts).
 */
import type { Actor } from '#lib/policy/policy.ts';
import type { HistoryItem } from '#lib/api/contracts/history.ts';
import { NotFound } from '../domain/errors.ts';
import { HISTORY_LIMIT, type createCatalogue, type Page } from './catalogue.ts';
import type { createAudioService } from './audio.ts';
import type { createPhotoService } from './photos.ts';
import type { createLikeService } from './likes.ts';
import type { createBlockListService } from './block-lists.ts';
import type { publicProfile } from './profiles.ts';
import { segmentCountOf, type CachedList, type createDanmakuService } from './danmaku.ts';
import { DANMAKU_SEGMENT_SECONDS } from '#lib/api/contracts/interaction.constants.ts';
import type { MediaTarget } from '#lib/api/contracts/common.constants.ts';
import type { DanmakuListResponse } from '#lib/api/contracts/interaction.ts';

/** An answer and whether it is the viewer's own (their blocks, their pending items, their likes). */
export interface ForViewer<T> {
  answer: T;
  personal: boolean;
}

interface Sections {
  catalogue: ReturnType<typeof createCatalogue>;
  audio: ReturnType<typeof createAudioService>;
  photos: ReturnType<typeof createPhotoService>;
  likes: ReturnType<typeof createLikeService>;
  blockLists: ReturnType<typeof createBlockListService>;
  danmaku: ReturnType<typeof createDanmakuService>;
  publicProfile: (uid: number, viewerUid: number | null) => ReturnType<typeof publicProfile>;
}

export function createForViewer({ catalogue, audio, photos, likes, blockLists, danmaku, publicProfile }: Sections) {
  /** Who a public list leaves things out for: a viewer with block lists (their list is personal); null for everyone else. */
  async function listViewer(looker: Actor | null): Promise<{ viewerUid: number | null; personal: boolean }> {
    const filters = await blockLists.filtersFor(looker?.uid ?? null);
    return { viewerUid: filters.videos ? looker!.uid : null, personal: filters.videos };
  }

  /** One upload as the page shows it: hidden ones are 404; pending ones and every member's answer are personal. */
  async function upload<T extends { status: string }, K extends string>(
    type: 'video' | 'audio' | 'photo',
    key: K,
    id: number,
    looker: Actor | null,
    found: T | null,
    uploaderUid: (item: T) => number,
  ) {
    if (!found) throw new NotFound();
    const viewerUid = looker?.uid ?? null;
    const [facts, flags] = await Promise.all([
      likes.factsFor({ type, id }, viewerUid),
      blockLists.flags(viewerUid, uploaderUid(found)),
    ]);
    return {
      answer: { [key]: found, ...facts, ...flags } as { [P in K]: T } & typeof facts & typeof flags,
      personal: !!looker || found.status !== 'approved',
    };
  }

  /** A member's uploads with the flags between the viewer and them: personal for the member, a viewer with block lists, or one they blocked. */
  async function uploadsOf<T extends object>(
    uid: number,
    looker: Actor | null,
    page: Page,
    list: (uid: number, looker: Actor | null, page: Page) => Promise<T>,
  ) {
    const [{ viewerUid, personal }, flags] = await Promise.all([
      listViewer(looker),
      blockLists.flags(looker?.uid ?? null, uid),
    ]);
    const answer = { ...(await list(uid, looker, { ...page, viewerUid })), ...flags };
    return { answer, personal: looker?.uid === uid || personal || flags.isBlockedByOther };
  }

  return {
    listViewer,
    video: async (videoId: number, looker: Actor | null) =>
      upload('video', 'video', videoId, looker, await catalogue.video(videoId, looker), (video) => video.uploaderId),
    audio: async (audioId: number, looker: Actor | null) =>
      upload('audio', 'audio', audioId, looker, await audio.track(audioId, looker), (track) => track.uploaderId),
    photo: async (photoId: number, looker: Actor | null) =>
      upload('photo', 'photo', photoId, looker, await photos.photo(photoId, looker), (post) => post.uploaderInfo.uid),
    videosOf: (uid: number, looker: Actor | null, page: Page) => uploadsOf(uid, looker, page, catalogue.byUploader),
    tracksOf: (uid: number, looker: Actor | null, page: Page) => uploadsOf(uid, looker, page, audio.byUploader),
    postsOf: (uid: number, looker: Actor | null, page: Page) => uploadsOf(uid, looker, page, photos.byUploader),

    /**
     * A segment of a target's danmaku (or its whole pool). A viewer who blocked people gets the
     * pool without theirs, built for them (`personal`); everyone else the same pool, serialized
     * once per change with its ETag (`shared`: no sender ids in it).
     */
    async danmakuSegment(
      target: MediaTarget,
      durationMs: number,
      segment: number | undefined,
      looker: Actor | null,
    ): Promise<{ personal: Omit<DanmakuListResponse, 'success'> } | { shared: CachedList }> {
      if (!(await blockLists.filtersFor(looker?.uid ?? null)).people)
        return { shared: await danmaku.listAnswer(target, durationMs, segment) };
      const list = await danmaku.list(target, durationMs, segment, looker!.uid);
      return {
        personal: {
          danmaku: list,
          segment,
          segmentSeconds: DANMAKU_SEGMENT_SECONDS,
          segmentCount: segmentCountOf(durationMs),
        },
      };
    },

    /** A member's public profile with the flags between the viewer and them (404 when there is none). */
    async profile(uid: number, looker: Actor | null) {
      const viewerUid = looker?.uid ?? null;
      const result = await publicProfile(uid, viewerUid);
      if (!result) throw new NotFound();
      return { result, ...(await blockLists.flags(viewerUid, uid)) };
    },

    /** Videos, tracks and photo posts together, the most recent visit first; `likedOnly`: those the member likes. */
    async history(uid: number, title: string | undefined, likedOnly: boolean): Promise<HistoryItem[]> {
      const [videos, tracks, posts] = await Promise.all([
        catalogue.history(uid, title, likedOnly),
        audio.history(uid, title, HISTORY_LIMIT, likedOnly),
        photos.history(uid, title, HISTORY_LIMIT, likedOnly),
      ]);
      return [...videos, ...tracks, ...posts]
        .sort((a, b) => b.lastUpdateDateTime - a.lastUpdateDateTime)
        .slice(0, HISTORY_LIMIT);
    },
  };
}
