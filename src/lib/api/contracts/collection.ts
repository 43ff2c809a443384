/** Collections (favourites, playlists) and a collection's page of items. */
import { z } from 'zod';
import { mediaItem } from './feed.ts';
import { videoThumb } from './video.ts';
import {
  COLLECTION_DESCRIPTION_MAX,
  COLLECTION_TITLE_MAX,
  COLLECTION_VIDEOS_MAX,
  COLLECTION_VISIBILITIES,
} from './collection.constants.ts';
import { MEDIA_TYPES } from './common.constants.ts';
import { mediaType, positiveId, shownText } from './common.ts';

const title = shownText()
  .trim()
  .min(1, 'must not be empty')
  .max(COLLECTION_TITLE_MAX, `at most ${COLLECTION_TITLE_MAX} characters`);
const description = shownText()
  .trim()
  .max(COLLECTION_DESCRIPTION_MAX, `at most ${COLLECTION_DESCRIPTION_MAX} characters`);
const visibility = z.enum(COLLECTION_VISIBILITIES);

export const collectionCreateBody = z.object({
  title,
  description: description.default(''),
  visibility: visibility.default('private'),
  /** Put this video (or track, or photo post: mediaType) in it at once (the "new collection" of a video, track or post page does). */
  videoId: positiveId.optional(),
  mediaType,
});
/** Only the fields sent change; coverVideoId null goes back to the first available video's poster. */
export const collectionUpdateBody = z.object({
  collectionId: positiveId,
  title: title.optional(),
  description: description.optional(),
  visibility: visibility.optional(),
  coverVideoId: positiveId.nullable().optional(),
});
export const collectionIdBody = z.object({ collectionId: positiveId });
/** A video, or a track or photo post (mediaType), in a collection. */
export const collectionVideoBody = z.object({ collectionId: positiveId, videoId: positiveId, mediaType });
const collectionItem = z.object({ mediaType: z.enum(MEDIA_TYPES), id: positiveId });
/**
 * The new order, first to last (those not named keep their order after them): `videoIds` names
 * videos only; `items` names items of every kind. One of them.
 */
export const collectionReorderBody = z
  .object({
    collectionId: positiveId,
    videoIds: z
      .array(positiveId)
      .min(1)
      .max(COLLECTION_VIDEOS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a video')
      .optional(),
    items: z
      .array(collectionItem)
      .min(1)
      .max(COLLECTION_VIDEOS_MAX)
      .refine(
        (items) => new Set(items.map((i) => `${i.mediaType}:${i.id}`)).size === items.length,
        'must not repeat an item',
      )
      .optional(),
  })
  .refine((body) => !!body.videoIds !== !!body.items, { message: 'give videoIds or items', path: ['items'] });
export const collectionListQuery = z.object({ uid: positiveId });
export const collectionGetQuery = z.object({
  collectionId: positiveId,
  page: z.number().int().min(1).max(COLLECTION_VIDEOS_MAX).default(1),
  pageSize: z.number().int().min(1).max(100).default(50),
});
export const collectionContainingQuery = z.object({ videoId: positiveId, mediaType });

export const collectionSummary = z.object({
  collectionId: positiveId,
  ownerUid: positiveId,
  title: z.string(),
  description: z.string(),
  visibility,
  /** The chosen video's poster, else the first available item's picture (a poster, a track's cover, a post's first image); '' when none. */
  cover: z.string(),
  coverVideoId: positiveId.nullable(),
  /** Items (videos, tracks, posts) one can open; those deleted or no longer approved are counted apart. */
  videoCount: z.number(),
  unavailableCount: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type CollectionSummary = z.infer<typeof collectionSummary>;

export const collectionOwner = z.object({ uid: positiveId, username: z.string(), userNickname: z.string().nullable() });
export const collectionListResponse = z.object({ success: z.literal(true), collections: z.array(collectionSummary) });
export type CollectionListResponse = z.infer<typeof collectionListResponse>;
export const collectionResponse = z.object({ success: z.literal(true), collection: collectionSummary });
export const collectionVideoChangeResponse = z.object({
  success: z.literal(true),
  /** addVideo: false when it was there already; removeVideo: false when it was not there. */
  changed: z.boolean(),
  videoCount: z.number(),
});
export const collectionDoneResponse = z.object({ success: z.literal(true) });
export const collectionContainingResponse = z.object({ success: z.literal(true), collectionIds: z.array(positiveId) });

/**
 * One page of a collection's available items in the owner's order: `items`, and `videos`, the
 * videos among them (as clients that only play videos read it).
 */
export const collectionGetResponse = z.object({
  success: z.literal(true),
  collection: collectionSummary,
  owner: collectionOwner,
  items: z.array(mediaItem),
  videos: z.array(videoThumb),
  page: z.number(),
  pageSize: z.number(),
});
export type CollectionGetResponse = z.infer<typeof collectionGetResponse>;
