/**
 * Collections (favourites, playlists): a member's ordered lists of approved videos, audio tracks
 * and photo posts, public or private. A private collection exists for its owner only: anyone
 * else is told it is not found, so its existence does not leak. Items that were deleted or went
 * back to review stay in their place but are left out of every view and counted (unavailableCount).
 */
import type { Repositories } from '../repositories/index.ts';
import type { CollectionSummaryRow } from '../repositories/collections.repository.ts';
import { DomainError, Invalid, NotFound } from '../domain/errors.ts';
import {
  COLLECTIONS_PER_MEMBER,
  COLLECTION_VIDEOS_MAX,
  type CollectionVisibility,
} from '../../src/lib/api/contracts/collection.constants.ts';
import type { CollectionSummary } from '../../src/lib/api/contracts/collection.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import type { VideoThumb } from '../../src/lib/api/contracts/video.ts';
import type { MediaItem } from '../../src/lib/api/contracts/feed.ts';
import type { AudioThumb } from '../../src/lib/api/contracts/audio.ts';
import type { PhotoThumb } from '../../src/lib/api/contracts/photo.ts';
import { pictureSources } from '../../src/lib/photo/picture.ts';
import { toThumb } from './catalogue.ts';
import type { Actor } from '../../src/lib/policy/policy.ts';
import type { AudioService } from './audio.ts';
import type { PhotoService } from './photos.ts';

/** The sections whose tracks and posts collections hold beside videos: their thumbs, and whether one may be added. */
export interface CollectionSections {
  audio: Pick<AudioService, 'thumbsOf' | 'visibleTrack'>;
  photos: Pick<PhotoService, 'thumbsOf' | 'visibleTarget'>;
}
const target = (type: MediaTarget['type'], id: number): MediaTarget => ({ type, id });
const keyOf = (item: MediaTarget) => `${item.type}:${item.id}`;

export interface CollectionFields {
  title: string;
  description: string;
  visibility: CollectionVisibility;
}
export interface CollectionChanges {
  title?: string;
  description?: string;
  visibility?: CollectionVisibility;
  coverVideoId?: number | null;
}
export interface CollectionOwner {
  uid: number;
  username: string;
  userNickname: string | null;
}
export interface CollectionPage {
  collection: CollectionSummary;
  owner: CollectionOwner;
  items: MediaItem[];
  videos: VideoThumb[];
  page: number;
  pageSize: number;
}

export function createCollectionService(
  repositories: Pick<Repositories, 'collections' | 'videos' | 'transaction'>,
  sections: CollectionSections,
) {
  const { collections, videos } = repositories;

  /** The thumbs of these items (any status), by key ("video:12"). */
  async function thumbsOf(items: readonly MediaTarget[]): Promise<Map<string, MediaItem>> {
    const ids = (type: MediaTarget['type']) => items.filter((i) => i.type === type).map((i) => i.id);
    const [videoRows, tracks, posts] = await Promise.all([
      videos.thumbsOf(ids('video')),
      sections.audio.thumbsOf(ids('audio')),
      sections.photos.thumbsOf(ids('photo')),
    ]);
    return new Map<string, MediaItem>([
      ...videoRows.map((row): [string, MediaItem] => [
        keyOf(target('video', Number(row.video_id))),
        { type: 'video', video: toThumb(row) },
      ]),
      ...tracks.map((track: AudioThumb): [string, MediaItem] => [
        keyOf(target('audio', track.audioId)),
        { type: 'audio', track },
      ]),
      ...posts.map((photo: PhotoThumb): [string, MediaItem] => [
        keyOf(target('photo', photo.photoId)),
        { type: 'photo', photo },
      ]),
    ]);
  }

  /** An item's picture: a video's poster, a track's cover, a post's first image. */
  function pictureOf(item: MediaItem | undefined): string {
    if (!item) return '';
    if (item.type === 'video') return item.video.image;
    if (item.type === 'audio') return item.track.cover;
    return item.photo.cover ? (pictureSources(item.photo.cover)?.src ?? '') : '';
  }

  /** The collection as `viewerUid` may see it; not found when it does not exist or is someone else's private one. */
  async function visible(collectionId: number, viewerUid: number | null) {
    const row = await collections.find(collectionId);
    if (!row || (row.visibility === 'private' && Number(row.owner_uid) !== viewerUid)) throw new NotFound();
    return row;
  }

  async function summariesOf(rows: CollectionSummaryRow[]): Promise<CollectionSummary[]> {
    const coverKeys = [...new Set(rows.map((row) => row.cover_source).filter((key) => key !== null))];
    const covers = await thumbsOf(
      coverKeys.map((key) => {
        const [type, id] = key.split(':');
        return target(type as MediaTarget['type'], Number(id));
      }),
    );
    return rows.map((row) => ({
      collectionId: Number(row.collection_id),
      ownerUid: Number(row.owner_uid),
      title: row.title,
      description: row.description,
      visibility: row.visibility,
      coverVideoId: row.cover_video_id === null ? null : Number(row.cover_video_id),
      cover: row.cover_source === null ? '' : pictureOf(covers.get(row.cover_source)),
      videoCount: Number(row.available),
      unavailableCount: Number(row.unavailable),
      createdAt: new Date(row.created_at).getTime(),
      updatedAt: new Date(row.updated_at).getTime(),
    }));
  }

  async function summary(collectionId: number): Promise<CollectionSummary> {
    const [one] = await summariesOf(await collections.list({ collectionIds: [collectionId] }));
    if (!one) throw new NotFound();
    return one;
  }

  /** Only approved items go in (a pending or deleted one is "unavailable", as for videos). */
  async function requireAvailable(item: MediaTarget): Promise<void> {
    const nobody: Actor | null = null;
    const approved =
      item.type === 'video'
        ? await videos.isApproved(item.id)
        : (
            await (item.type === 'audio'
              ? sections.audio.visibleTrack(item.id, nobody)
              : sections.photos.visibleTarget(item.id, nobody))
          )?.status === 'approved';
    if (!approved) throw new DomainError('VIDEO_UNAVAILABLE');
  }

  /** Adds an approved item after the last, unless it is there already (then nothing changes) or the collection is full. */
  async function addVideo(collectionId: number, item: MediaTarget): Promise<{ changed: boolean; videoCount: number }> {
    await requireAvailable(item);
    const changed = await repositories.transaction(async (trx) => {
      await trx.collections.findForUpdate(collectionId);
      if (await trx.collections.holds(collectionId, item)) return false;
      if ((await trx.collections.countVideos(collectionId)) >= COLLECTION_VIDEOS_MAX)
        throw new DomainError('COLLECTION_FULL');
      await trx.collections.addItem(collectionId, item);
      await trx.collections.touch(collectionId);
      return true;
    });
    return { changed, videoCount: (await summary(collectionId)).videoCount };
  }

  return {
    /**
     * The owner of a collection `viewerUid` may see (the route's resource: the policy decides whether they may
     * change it); not found when it does not exist or is someone else's private one.
     */
    ownerOf: async (collectionId: number, viewerUid: number | null): Promise<number> =>
      Number((await visible(collectionId, viewerUid)).owner_uid),

    /** A new collection (at most COLLECTIONS_PER_MEMBER each), with its first item when one is given. */
    async create(ownerUid: number, fields: CollectionFields, first?: MediaTarget): Promise<CollectionSummary> {
      if (first !== undefined) await requireAvailable(first);
      if ((await collections.countOwnedBy(ownerUid)) >= COLLECTIONS_PER_MEMBER)
        throw new DomainError('COLLECTIONS_LIMIT');
      const collectionId = await collections.insert({ ownerUid, ...fields });
      if (first !== undefined) await addVideo(collectionId, first);
      return summary(collectionId);
    },

    /** Changes the fields given; a chosen cover must be one of the collection's videos. */
    async update(collectionId: number, changes: CollectionChanges): Promise<CollectionSummary> {
      const { coverVideoId, ...fields } = changes;
      if (coverVideoId && !(await collections.holds(collectionId, target('video', coverVideoId)))) {
        throw new Invalid([{ path: 'coverVideoId', message: 'is not in the collection' }], 'NOT_IN_COLLECTION');
      }
      await collections.update(collectionId, {
        ...fields,
        ...(coverVideoId !== undefined ? { cover_video_id: coverVideoId } : {}),
      });
      return summary(collectionId);
    },

    remove: (collectionId: number) => collections.delete(collectionId),

    /** A user's collections, newest first: the private ones only for their owner. */
    async list(uid: number, viewerUid: number | null): Promise<CollectionSummary[]> {
      if (!(await videos.userExists(uid))) throw new NotFound();
      return summariesOf(await collections.list({ ownerUid: uid, withPrivate: uid === viewerUid }));
    },

    /** A collection and one page of its available items, in order. */
    async get(
      collectionId: number,
      viewerUid: number | null,
      window: { page: number; pageSize: number },
    ): Promise<CollectionPage> {
      const row = await visible(collectionId, viewerUid);
      const [collection, page] = await Promise.all([
        summary(collectionId),
        collections.availablePage(collectionId, window),
      ]);
      const thumbs = await thumbsOf(page);
      const items = page.flatMap((item) => thumbs.get(keyOf(item)) ?? []);
      return {
        collection,
        owner: { uid: Number(row.owner_uid), username: row.username, userNickname: row.user_nickname },
        items,
        videos: items.flatMap((item) => (item.type === 'video' ? [item.video] : [])),
        ...window,
      };
    },

    addVideo,

    /** Takes an item out; when it was not there, nothing changes. */
    async removeVideo(collectionId: number, item: MediaTarget): Promise<{ changed: boolean; videoCount: number }> {
      const changed = await collections.removeItem(collectionId, item);
      if (changed) await collections.touch(collectionId);
      return { changed, videoCount: (await summary(collectionId)).videoCount };
    },

    /**
     * Puts the named items first, in that order; the others (unavailable ones, say) keep their
     * order after them. `path` names the list the items came from (videoIds or items) in a refusal.
     */
    async reorder(collectionId: number, order: readonly MediaTarget[], path = 'items'): Promise<void> {
      await repositories.transaction(async (trx) => {
        await trx.collections.findForUpdate(collectionId);
        const current = await trx.collections.items(collectionId);
        const held = new Set(current.map(keyOf));
        const stranger = order.findIndex((item) => !held.has(keyOf(item)));
        if (stranger >= 0)
          throw new Invalid(
            [{ path: `${path}.${stranger}`, message: 'is not in the collection' }],
            'NOT_IN_COLLECTION',
          );
        const named = new Set(order.map(keyOf));
        await trx.collections.setOrder(collectionId, [...order, ...current.filter((item) => !named.has(keyOf(item)))]);
        await trx.collections.touch(collectionId);
      });
    },

    /** Which of the member's collections hold the item. */
    containing: (ownerUid: number, item: MediaTarget) => collections.containing(ownerUid, item),
  };
}
export type CollectionService = ReturnType<typeof createCollectionService>;
