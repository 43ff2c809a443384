import { defineRoutes } from '../route.ts';
import * as C from '../contracts/feed.ts';

const perMember = [{ limit: 'followPerUser', by: 'uid' }] as const;

/**
 * SPEC §7 "Feed": following uploaders, the people on either side of a follow, and the feed of
 * what followed uploaders pushed to it. Following needs a member in good standing; stopping only
 * a login (a banned member may clean up). Both are idempotent and answer the state afterwards.
 */
export const feedRoutes = defineRoutes({
  'POST feed/following': {
    tag: 'feed',
    summary: 'Follow a user: their uploads pushed to the feed appear in the member’s feed.',
    permission: 'follow.edit',
    body: C.followBody,
    response: C.followChangeResponse,
    rateLimits: perMember,
    cache: 'no-store',
    errors: ['FOLLOW_SELF', 'FOLLOW_BLOCKED'],
  },
  'POST feed/unfollowing': {
    tag: 'feed',
    summary: 'Stop following a user.',
    permission: 'follow.clean',
    body: C.unfollowBody,
    response: C.followChangeResponse,
    rateLimits: perMember,
    cache: 'no-store',
    errors: ['FOLLOW_SELF'],
  },
  'GET feed/followers': {
    tag: 'feed',
    summary: 'Who follows a user, newest first, a page at a time (cursor).',
    permission: 'catalogue.read',
    query: C.followPeopleQuery,
    response: C.followPeopleResponse,
    cache: 'public',
  },
  'GET feed/followings': {
    tag: 'feed',
    summary: 'Whom a user follows, newest first, a page at a time (cursor).',
    permission: 'catalogue.read',
    query: C.followPeopleQuery,
    response: C.followPeopleResponse,
    cache: 'public',
  },
  'GET feed/videos': {
    tag: 'feed',
    summary:
      'The member’s feed: approved videos that followed uploaders pushed to it, their tracks and photo posts, newest first, without what they blocked or hid.',
    permission: 'feed.read',
    query: C.feedQuery,
    response: C.feedResponse,
    cache: 'private',
  },
});
