import type { HandlerSet } from '../mount-routes.ts';

/** SPEC §7 "Feed": follow calls carry the other user in their own field (API-NOTES). */
export const feedHandlers: HandlerSet<'feed/'> = {
  'POST feed/following': async ({ followingUid }, { services, actor }) => ({ success: true, ...(await services.follows.follow(actor.uid, followingUid)) }),
  'POST feed/unfollowing': async ({ unfollowingUid }, { services, actor }) => ({ success: true, ...(await services.follows.unfollow(actor.uid, unfollowingUid)) }),
  'GET feed/followers': async ({ uid, ...page }, { services }) => ({ success: true, ...(await services.follows.people('followers', uid, page)) }),
  'GET feed/followings': async ({ uid, ...page }, { services }) => ({ success: true, ...(await services.follows.people('followings', uid, page)) }),
  'GET feed/videos': async (page, { services, actor }) => ({ success: true, ...(await services.follows.feed(actor.uid, page)) }),
};
