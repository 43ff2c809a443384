/** Likes (issue 27). */
import { z } from 'zod';
import { mediaType, positiveId } from './common.ts';

/** A like of a video, track or photo post (issue 27): both calls are idempotent. */
export const likeBody = z.object({ videoId: positiveId, mediaType });
export const likeResponse = z.object({ success: z.literal(true), likeCount: z.number(), isLiked: z.boolean() });
export type LikeResponse = z.infer<typeof likeResponse>;
