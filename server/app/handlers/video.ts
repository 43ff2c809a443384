import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { NotFound } from '../../domain/errors.ts';
import { listViewer } from './looker.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';
import { interactionHandlers } from './interaction.ts';
import { uploadHandlers } from './upload.ts';
import { subtitleHandlers } from './subtitle.ts';

/** The viewer a public list leaves videos out for; their list is personal (never in a shared cache). */
async function listFor(ctx: HandlerContext): Promise<number | null> {
  const { viewerUid, personal } = await listViewer(ctx);
  if (personal) ctx.cache('private');
  return viewerUid;
}

/** SPEC §7 "Video": catalogue, tags, review; danmaku, comments and uploads in their own files. */
export const videoHandlers: HandlerSet<'video'> = {
  ...interactionHandlers,
  ...uploadHandlers,
  ...subtitleHandlers,

  // ---- Catalogue ----
  'GET video/exists': async ({ videoId }, { services }) => ({ success: true, exist: await services.catalogue.videoExists(videoId) }),
  'GET video/home': async (page, ctx) => ({ success: true, ...(await ctx.services.catalogue.home({ ...page, viewerUid: await listFor(ctx) })) }),
  'GET video/category': async ({ category, ...page }, ctx) =>
    ({ success: true, ...(await ctx.services.catalogue.byCategory(category, { ...page, viewerUid: await listFor(ctx) })) }),
  'GET video/user': async ({ uid, ...page }, ctx) => {
    const { services } = ctx;
    const looker = await ctx.viewer();
    const { viewerUid, personal } = await listViewer(ctx);
    const flags = await services.blockLists.flags(looker?.uid ?? null, uid);
    if (looker?.uid === uid || personal || flags.isBlockedByOther) ctx.cache('private');
    return { success: true, ...(await services.catalogue.byUploader(uid, looker, { ...page, viewerUid })), ...flags };
  },
  'GET video/search': async ({ keyword, ...page }, ctx) =>
    ({ success: true, ...(await ctx.services.catalogue.search(keyword, { ...page, viewerUid: await listFor(ctx) })) }),
  'POST video/search/tag': async ({ tagId, ...page }, ctx) => {
    const { viewerUid } = await listViewer(ctx);
    return { success: true, ...(await ctx.services.catalogue.byTags(tagId, { ...page, viewerUid })) };
  },
  // Pending videos only for their uploader and staff; the rest get 404.
  'GET video': async ({ videoId }, ctx) => {
    const looker = await ctx.viewer();
    const video = await ctx.services.catalogue.video(videoId, looker);
    if (!video) throw new NotFound();
    if (looker || video.status !== 'approved') ctx.cache('private');
    return { success: true, video, ...(await ctx.services.likes.factsFor({ type: 'video', id: videoId }, looker?.uid ?? null)), ...(await ctx.services.blockLists.flags(looker?.uid ?? null, video.uploaderId)) };
  },
  // One counted view per viewer per video per hour (the video page calls it once playback starts).
  'POST video/watch': async ({ videoId }, { services, viewer, ip }) =>
    ({ success: true, ...(await services.videos.watch(videoId, await viewer(), ip)) }),

  // Personal when the viewer has block lists (what they blocked or hid is left out), else the same for all.
  'GET video/related': async ({ videoId, limit }, ctx) => {
    const { viewerUid } = await listViewer(ctx);
    return { success: true, videos: await ctx.services.catalogue.related(videoId, viewerUid, limit) };
  },
  // ---- Tags ----
  'POST video/tag/create': async (body, { services, actor }) => ({ success: true, tagId: await services.catalogue.tags.create(actor.uid, body) }),
  'GET video/tag/search': async ({ tagName }, { services }) => ({ success: true, result: await services.catalogue.tags.search(tagName) }),
  'POST video/tag/get': async ({ tagId }, { services }) => ({ success: true, result: await services.catalogue.tags.tagsById([...new Set(tagId)]) }),

  // ---- Review ----
  'GET video/pending': async (page, { services }) => ({ success: true, ...(await services.catalogue.pending(page)) }),
  'POST video/pending/approved': async ({ videoId }, { services, actor, logger }) =>
    logged(logger, 'video approved', done(services.review.approve('video', videoId, actor.uid)), () => ({ videoId, by: actor.uid })),
  'POST video/pending/rejected': async ({ videoId, reason, note }, { services, actor, logger }) =>
    logged(logger, 'video rejected', done(services.review.reject('video', videoId, actor.uid, { reason, note })), () => ({ videoId, by: actor.uid, reason })),
  // ---- The uploader's own videos ----
  'GET video/mine': async (page, { services, actor }) => ({ success: true, ...(await services.catalogue.mine(actor.uid, page)) }),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule), before the changes are checked.
  'POST video/update': async ({ videoId, ...changes }, { services, actor, logger }) =>
    logged(logger, 'video updated', services.videos.update(videoId, actor.uid, changes), ({ backToReview }) => ({ videoId, by: actor.uid, backToReview }))
      .then((outcome) => ({ success: true, ...outcome })),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule).
  'DELETE video/delete': async ({ videoId }, { services, actor, logger }) =>
    logged(logger, 'video deleted', done(services.videos.remove(videoId, actor.uid)), () => ({ videoId, by: actor.uid })),
};
