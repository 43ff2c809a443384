import type { HandlerContext, HandlerSet } from '../mount-routes.ts';

/** The viewer whose follows the list marks; their answer is personal (never in a shared cache). */
async function listViewerUid(ctx: HandlerContext): Promise<number | null> {
  const viewer = await ctx.viewer();
  if (viewer) ctx.cache('private');
  return viewer?.uid ?? null;
}

/** SPEC §7 "Feed": follow calls carry the other user in their own field (API-NOTES). */
export const feedHandlers: HandlerSet<'feed/'> = {
  'POST feed/following': async ({ followingUid }, { services, actor }) => ({
    success: true,
    ...(await services.follows.follow(actor.uid, followingUid)),
  }),
  'POST feed/unfollowing': async ({ unfollowingUid }, { services, actor }) => ({
    success: true,
    ...(await services.follows.unfollow(actor.uid, unfollowingUid)),
  }),
  'GET feed/followers': async ({ uid, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.follows.people('followers', uid, page, await listViewerUid(ctx))),
  }),
  'GET feed/followings': async ({ uid, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.follows.people('followings', uid, page, await listViewerUid(ctx))),
  }),
  'GET feed/videos': async (page, { services, actor }) => ({
    success: true,
    ...(await services.follows.feed(actor.uid, page)),
  }),
};
