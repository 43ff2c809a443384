/**
 * Lists that hold videos, audio tracks and photo posts together (issue 13), each item saying
 * which it is: the following feed's page and a collection's page. Beside contract.ts because
 * they name the audio and photo thumbs too.
 */
import { z } from 'zod';
import { collectionOwner, collectionSummary, videoThumb } from './contract.ts';
import { audioThumb } from './contract-audio.ts';
import { photoThumbSchema } from './photo-contract.ts';

export const mediaItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('video'), video: videoThumb }),
  z.object({ type: z.literal('audio'), track: audioThumb }),
  z.object({ type: z.literal('photo'), photo: photoThumbSchema }),
]);
export type MediaItem = z.infer<typeof mediaItem>;

/**
 * A page of the following feed (SPEC §7 "Feed"), newest first — videos followed uploaders pushed
 * to the feed, their tracks and their photo posts: `items` in order, and `videos`, the videos among them (as
 * clients that only show videos read it); nextCursor null on the last page.
 */
export const feedResponse = z.object({
  success: z.literal(true), items: z.array(mediaItem), videos: z.array(videoThumb), nextCursor: z.string().nullable(),
});
export type FeedResponse = z.infer<typeof feedResponse>;

/**
 * One page of a collection's available items in the owner's order: `items`, and `videos`, the
 * videos among them (as clients that only play videos read it).
 */
export const collectionGetResponse = z.object({
  success: z.literal(true), collection: collectionSummary, owner: collectionOwner,
  items: z.array(mediaItem), videos: z.array(videoThumb), page: z.number(), pageSize: z.number(),
});
export type CollectionGetResponse = z.infer<typeof collectionGetResponse>;
