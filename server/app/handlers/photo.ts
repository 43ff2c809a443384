import type { HandlerSet } from '../mount-routes.ts';
import { answerFor, listFor, viewerUidFor } from './looker.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';

/** Issue 13: photo posts: commit, lists, one post, review and deletion. */
export const photoHandlers: HandlerSet<'photo'> = {
  'POST photo/upload': async (body, { services, actor, logger }) => ({
    success: true,
    photoId: await logged(logger, 'photo post committed', services.photos.commit(actor.uid, body), (photoId) => ({
      photoId,
      images: body.images.length,
    })),
  }),
  // Not yet public: only its uploader and staff; the rest get 404.
  'GET photo': async ({ photoId }, ctx) => answerFor(ctx, ctx.services.forViewer.photo(photoId, await ctx.viewer())),
  'GET photo/home': async (page, ctx) => ({
    success: true,
    ...(await ctx.services.photos.home({ ...page, viewerUid: await listFor(ctx) })),
  }),
  'GET photo/user': async ({ uid, ...page }, ctx) =>
    answerFor(ctx, ctx.services.forViewer.postsOf(uid, await ctx.viewer(), page)),
  'GET photo/search': async ({ keyword, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.photos.search(keyword, { ...page, viewerUid: await listFor(ctx) })),
  }),
  'POST photo/search/tag': async ({ tagId, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.photos.byTags(tagId, { ...page, viewerUid: await viewerUidFor(ctx) })),
  }),
  'GET photo/pending': async (page, { services }) => ({ success: true, ...(await services.photos.pending(page)) }),
  'POST photo/pending/approved': async ({ photoId }, { services, actor, logger }) =>
    logged(logger, 'photo approved', done(services.review.approve('photo', photoId, actor.uid)), () => ({
      photoId,
      by: actor.uid,
    })),
  'POST photo/pending/rejected': async ({ photoId, reason, note }, { services, actor, logger }) =>
    logged(
      logger,
      'photo rejected',
      done(services.review.reject('photo', photoId, actor.uid, { reason, note })),
      () => ({ photoId, by: actor.uid, reason }),
    ),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule).
  'DELETE photo/delete': async ({ photoId }, { services, actor, logger }) =>
    logged(logger, 'photo deleted', done(services.photos.remove(photoId, actor.uid)), () => ({
      photoId,
      by: actor.uid,
    })),
};
