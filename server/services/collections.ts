/**
 * Collections (favourites, playlists): a member's ordered lists of approved videos, public or
 * private. A private collection exists for its owner only: anyone else is told it is not found,
 * so its existence does not leak. Videos that were deleted or went back to review stay in their
 * place but are left out of every view and counted (unavailableCount).
 */
import type { Repositories } from '../repositories/index.ts';
import type { CollectionSummaryRow } from '../repositories/collections.repository.ts';
import { DomainError, Invalid, NotFound } from '../domain/errors.ts';
import {
  COLLECTIONS_PER_MEMBER, COLLECTION_VIDEOS_MAX,
  type CollectionSummary, type CollectionVisibility, type VideoThumb,
} from '../../src/lib/api/contract.ts';
import { toThumb } from './catalogue.ts';

export interface CollectionFields { title: string; description: string; visibility: CollectionVisibility }
export interface CollectionChanges { title?: string; description?: string; visibility?: CollectionVisibility; coverVideoId?: number | null }
export interface CollectionOwner { uid: number; username: string; userNickname: string | null }
export interface CollectionPage { collection: CollectionSummary; owner: CollectionOwner; videos: VideoThumb[]; page: number; pageSize: number }

export function createCollectionService(repositories: Pick<Repositories, 'collections' | 'videos' | 'transaction'>) {
  const { collections, videos } = repositories;

  /** The collection as `viewerUid` may see it; not found when it does not exist or is someone else's private one. */
  async function visible(collectionId: number, viewerUid: number | null) {
    const row = await collections.find(collectionId);
    if (!row || (row.visibility === 'private' && Number(row.owner_uid) !== viewerUid)) throw new NotFound();
    return row;
  }

  async function summariesOf(rows: CollectionSummaryRow[]): Promise<CollectionSummary[]> {
    const coverIds = [...new Set(rows.map((row) => row.cover_source_id).filter((id) => id !== null).map(Number))];
    const images = new Map((await videos.thumbsOf(coverIds)).map((row) => [Number(row.video_id), toThumb(row).image]));
    return rows.map((row) => ({
      collectionId: Number(row.collection_id), ownerUid: Number(row.owner_uid), title: row.title, description: row.description,
      visibility: row.visibility, coverVideoId: row.cover_video_id === null ? null : Number(row.cover_video_id),
      cover: row.cover_source_id === null ? '' : images.get(Number(row.cover_source_id)) ?? '',
      videoCount: Number(row.available), unavailableCount: Number(row.unavailable),
      createdAt: new Date(row.created_at).getTime(), updatedAt: new Date(row.updated_at).getTime(),
    }));
  }

  async function summary(collectionId: number): Promise<CollectionSummary> {
    const [one] = await summariesOf(await collections.list({ collectionIds: [collectionId] }));
    if (!one) throw new NotFound();
    return one;
  }

  async function requireAvailable(videoId: number): Promise<void> {
    if (!(await videos.isApproved(videoId))) throw new DomainError('VIDEO_UNAVAILABLE');
  }

  /** Adds an approved video after the last, unless it is there already (then nothing changes) or the collection is full. */
  async function addVideo(collectionId: number, videoId: number): Promise<{ changed: boolean; videoCount: number }> {
    await requireAvailable(videoId);
    const changed = await repositories.transaction(async (trx) => {
      await trx.collections.findForUpdate(collectionId);
      if (await trx.collections.holds(collectionId, videoId)) return false;
      if ((await trx.collections.countVideos(collectionId)) >= COLLECTION_VIDEOS_MAX) throw new DomainError('COLLECTION_FULL');
      await trx.collections.addVideo(collectionId, videoId);
      await trx.collections.touch(collectionId);
      return true;
    });
    return { changed, videoCount: (await summary(collectionId)).videoCount };
  }

  return {
    /**
     * The owner of a collection `viewerUid` may see (the handler asks the policy whether they may
     * change it); not found when it does not exist or is someone else's private one.
     */
    ownerOf: async (collectionId: number, viewerUid: number | null): Promise<number> => Number((await visible(collectionId, viewerUid)).owner_uid),

    /** A new collection (at most COLLECTIONS_PER_MEMBER each), with its first video when one is given. */
    async create(ownerUid: number, fields: CollectionFields, videoId?: number): Promise<CollectionSummary> {
      if (videoId !== undefined) await requireAvailable(videoId);
      if ((await collections.countOwnedBy(ownerUid)) >= COLLECTIONS_PER_MEMBER) throw new DomainError('COLLECTIONS_LIMIT');
      const collectionId = await collections.insert({ ownerUid, ...fields });
      if (videoId !== undefined) await addVideo(collectionId, videoId);
      return summary(collectionId);
    },

    /** Changes the fields given; a chosen cover must be one of the collection's videos. */
    async update(collectionId: number, changes: CollectionChanges): Promise<CollectionSummary> {
      const { coverVideoId, ...fields } = changes;
      if (coverVideoId && !(await collections.holds(collectionId, coverVideoId))) {
        throw new Invalid([{ path: 'coverVideoId', message: 'is not in the collection' }], 'NOT_IN_COLLECTION');
      }
      await collections.update(collectionId, { ...fields, ...(coverVideoId !== undefined ? { cover_video_id: coverVideoId } : {}) });
      return summary(collectionId);
    },

    remove: (collectionId: number) => collections.delete(collectionId),

    /** A user's collections, newest first: the private ones only for their owner. */
    async list(uid: number, viewerUid: number | null): Promise<CollectionSummary[]> {
      if (!(await videos.userExists(uid))) throw new NotFound();
      return summariesOf(await collections.list({ ownerUid: uid, withPrivate: uid === viewerUid }));
    },

    /** A collection and one page of its available videos, in order. */
    async get(collectionId: number, viewerUid: number | null, window: { page: number; pageSize: number }): Promise<CollectionPage> {
      const row = await visible(collectionId, viewerUid);
      const [collection, rows] = await Promise.all([summary(collectionId), videos.collectionPage(collectionId, window)]);
      return {
        collection, owner: { uid: Number(row.owner_uid), username: row.username, userNickname: row.user_nickname },
        videos: rows.map((r) => toThumb(r)), ...window,
      };
    },

    addVideo,

    /** Takes a video out; when it was not there, nothing changes. */
    async removeVideo(collectionId: number, videoId: number): Promise<{ changed: boolean; videoCount: number }> {
      const changed = await collections.removeVideo(collectionId, videoId);
      if (changed) await collections.touch(collectionId);
      return { changed, videoCount: (await summary(collectionId)).videoCount };
    },

    /** Puts the named videos first, in that order; the others (unavailable ones, say) keep their order after them. */
    async reorder(collectionId: number, videoIds: readonly number[]): Promise<void> {
      await repositories.transaction(async (trx) => {
        await trx.collections.findForUpdate(collectionId);
        const current = await trx.collections.videoIds(collectionId);
        const held = new Set(current);
        const stranger = videoIds.findIndex((id) => !held.has(id));
        if (stranger >= 0) throw new Invalid([{ path: `videoIds.${stranger}`, message: 'is not in the collection' }], 'NOT_IN_COLLECTION');
        const named = new Set(videoIds);
        await trx.collections.setOrder(collectionId, [...videoIds, ...current.filter((id) => !named.has(id))]);
        await trx.collections.touch(collectionId);
      });
    },

    /** Which of the member's collections hold the video. */
    containing: (ownerUid: number, videoId: number) => collections.containing(ownerUid, videoId),
  };
}
export type CollectionService = ReturnType<typeof createCollectionService>;
