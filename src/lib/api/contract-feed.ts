/**
 * The following feed's page (SPEC §7 "Feed"; issue 13): what followed uploaders published, in one
 * newest-first order — videos they pushed to the feed, their tracks and their photo posts — each
 * item saying which it is. Beside contract.ts because it names the audio and photo thumbs too.
 */
import { z } from 'zod';
import { videoThumb } from './contract.ts';
import { audioThumb } from './contract-audio.ts';
import { photoThumbSchema } from './photo-contract.ts';

export const feedItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('video'), video: videoThumb }),
  z.object({ type: z.literal('audio'), track: audioThumb }),
  z.object({ type: z.literal('photo'), photo: photoThumbSchema }),
]);
export type FeedItem = z.infer<typeof feedItem>;

/**
 * A page of the feed, newest first: `items` in order, and `videos`, the videos among them (as
 * clients that only show videos read it); nextCursor null on the last page.
 */
export const feedResponse = z.object({
  success: z.literal(true), items: z.array(feedItem), videos: z.array(videoThumb), nextCursor: z.string().nullable(),
});
export type FeedResponse = z.infer<typeof feedResponse>;
