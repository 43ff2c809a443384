/** Follows and the following feed (SPEC §7 "Feed"; fields from API-NOTES). */
import { z } from 'zod';
import { audioThumb } from './audio.ts';
import { photoThumbSchema } from './photo.ts';
import { videoThumb } from './video.ts';
import { positiveId } from './common.ts';

/** An opaque position in a newest-first list: where the next page starts. */
export const feedCursor = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a cursor');
export const followBody = z.object({ followingUid: positiveId });
export const unfollowBody = z.object({ unfollowingUid: positiveId });
/** A follow or unfollow: the state afterwards (the same when it was already so) and the followed user's count. */
export const followChangeResponse = z.object({
  success: z.literal(true),
  isFollowing: z.boolean(),
  followerCount: z.number(),
});
export type FollowChangeResponse = z.infer<typeof followChangeResponse>;
const cursorPage = (max: number, byDefault: number) =>
  z.object({
    cursor: feedCursor.optional(),
    pageSize: z.number().int().min(1).max(max).default(byDefault),
  });
export const followPeopleQuery = cursorPage(100, 30).extend({ uid: positiveId });
export const followPerson = z.object({
  uid: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  signature: z.string(),
  /** When the follow began (epoch ms). */
  followDateTime: z.number(),
  /** Whether the viewer follows this person (false for guests and for the viewer themself). */
  isFollowing: z.boolean(),
});
export type FollowPerson = z.infer<typeof followPerson>;
/** A page of a user's followers or followings, newest follow first; nextCursor null on the last page. */
export const followPeopleResponse = z.object({
  success: z.literal(true),
  result: z.array(followPerson),
  nextCursor: z.string().nullable(),
});
export type FollowPeopleResponse = z.infer<typeof followPeopleResponse>;
export const feedQuery = cursorPage(50, 20);

/** A video, a track or a photo post of a list that holds the three (the feed, a collection's page), saying which it is. */
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
  success: z.literal(true),
  items: z.array(mediaItem),
  videos: z.array(videoThumb),
  nextCursor: z.string().nullable(),
});
export type FeedResponse = z.infer<typeof feedResponse>;
