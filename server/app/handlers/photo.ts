import type { HandlerSet } from '../mount-routes.ts';
import { NotFound } from '../../domain/errors.ts';
import { listViewer } from './looker.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';

/** Issue 13: photo posts: commit, lists, one post, review and deletion. */
export const photoHandlers: HandlerSet<'photo'> = {
  'POST photo/upload': async (body, { services, actor, logger }) =>
    ({ success: true, photoId: await logged(logger, 'photo post committed', services.photos.commit(actor.uid, body), (photoId) => ({ photoId, images: body.images.length })) }),
  // Not yet public: only its uploader and staff; the rest get 404.
  'GET photo': async ({ photoId }, ctx) => {
    const looker = await ctx.viewer();
    const photo = await ctx.services.photos.photo(photoId, looker);
    if (!photo) throw new NotFound();
    if (looker || photo.status !== 'approved') ctx.cache('private');
    return { success: true, photo, ...(await ctx.services.likes.factsFor({ type: 'photo', id: photoId }, looker?.uid ?? null)), ...(await ctx.services.blockLists.flags(looker?.uid ?? null, photo.uploaderInfo.uid)) };
  },
  'GET photo/home': async (page, ctx) => {
    const { viewerUid, personal } = await listViewer(ctx);
    if (personal) ctx.cache('private');
    return { success: true, ...(await ctx.services.photos.home({ ...page, viewerUid })) };
  },
  'GET photo/user': async ({ uid, ...page }, ctx) => {
    const looker = await ctx.viewer();
    const { viewerUid, personal } = await listViewer(ctx);
    const flags = await ctx.services.blockLists.flags(looker?.uid ?? null, uid);
    if (looker?.uid === uid || personal || flags.isBlockedByOther) ctx.cache('private');
    return { success: true, ...(await ctx.services.photos.byUploader(uid, looker, { ...page, viewerUid })), ...flags };
  },
  'GET photo/search': async ({ keyword, ...page }, ctx) => {
    const { viewerUid, personal } = await listViewer(ctx);
    if (personal) ctx.cache('private');
    return { success: true, ...(await ctx.services.photos.search(keyword, { ...page, viewerUid })) };
  },
  'POST photo/search/tag': async ({ tagId, ...page }, ctx) => {
    const { viewerUid } = await listViewer(ctx);
    return { success: true, ...(await ctx.services.photos.byTags(tagId, { ...page, viewerUid })) };
  },
  'GET photo/pending': async (page, { services }) => ({ success: true, ...(await services.photos.pending(page)) }),
  'POST photo/pending/approved': async ({ photoId }, { services, actor, logger }) =>
    logged(logger, 'photo approved', done(services.review.approve('photo', photoId, actor.uid)), () => ({ photoId, by: actor.uid })),
  'POST photo/pending/rejected': async ({ photoId, reason, note }, { services, actor, logger }) =>
    logged(logger, 'photo rejected', done(services.review.reject('photo', photoId, actor.uid, { reason, note })), () => ({ photoId, by: actor.uid, reason })),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule).
  'DELETE photo/delete': async ({ photoId }, { services, actor, logger }) =>
    logged(logger, 'photo deleted', done(services.photos.remove(photoId, actor.uid)), () => ({ photoId, by: actor.uid })),
};
