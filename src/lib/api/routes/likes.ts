import { defineRoutes } from '../route.ts';
import * as C from '../contracts/likes.ts';

/** Likes of videos, audio tracks and photo posts (issue 27); both calls answer the count as it is now. */
export const likeRoutes = defineRoutes({
  'POST video/like': {
    tag: 'like',
    summary: 'Like a video, track or photo post (liking twice is one like).',
    permission: 'like.give',
    resource: 'visibleTarget',
    body: C.likeBody,
    response: C.likeResponse,
    errors: ['BLOCKED_BY_UPLOADER'],
  },
  'DELETE video/like/cancel': {
    tag: 'like',
    summary: 'Take back one’s like (nothing happens without one).',
    permission: 'like.retract',
    resource: 'visibleTarget',
    body: C.likeBody,
    response: C.likeResponse,
  },
});
