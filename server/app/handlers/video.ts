import type { HandlerSet } from '../mount-routes.ts';
import { answerFor, listFor, viewerUidFor } from './looker.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';
import { interactionHandlers } from './interaction.ts';
import { uploadHandlers } from './upload.ts';
import { subtitleHandlers } from './subtitle.ts';

/** SPEC §7 "Video": catalogue, tags, review; danmaku, comments and uploads in their own files. */
export const videoHandlers: HandlerSet<'video'> = {
  ...interactionHandlers,
  ...uploadHandlers,
  ...subtitleHandlers,

  // ---- Catalogue ----
  'GET video/exists': async ({ videoId }, { services }) => ({
    success: true,
    exist: await services.catalogue.videoExists(videoId),
  }),
  'GET video/home': async (page, ctx) => ({
    success: true,
    ...(await ctx.services.catalogue.home({ ...page, viewerUid: await listFor(ctx) })),
  }),
  'GET video/category': async ({ category, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.catalogue.byCategory(category, { ...page, viewerUid: await listFor(ctx) })),
  }),
  // Personal for the uploader, a viewer with block lists, or one the uploader blocked.
  'GET video/user': async ({ uid, ...page }, ctx) =>
    answerFor(ctx, ctx.services.forViewer.videosOf(uid, await ctx.viewer(), page)),
  'GET video/search': async ({ keyword, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.catalogue.search(keyword, { ...page, viewerUid: await listFor(ctx) })),
  }),
  'POST video/search/tag': async ({ tagId, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.catalogue.byTags(tagId, { ...page, viewerUid: await viewerUidFor(ctx) })),
  }),
  // Pending videos only for their uploader and staff; the rest get 404.
  'GET video': async ({ videoId }, ctx) => answerFor(ctx, ctx.services.forViewer.video(videoId, await ctx.viewer())),
  // One counted view per viewer per video per hour (the video page calls it once playback starts).
  'POST video/watch': async ({ videoId }, { services, viewer, ip }) => ({
    success: true,
    ...(await services.videos.watch(videoId, await viewer(), ip)),
  }),

  // Personal when the viewer has block lists (what they blocked or hid is left out), else the same for all.
  'GET video/related': async ({ videoId, limit }, ctx) => ({
    success: true,
    videos: await ctx.services.catalogue.related(videoId, await viewerUidFor(ctx), limit),
  }),
  // ---- Tags ----
  'POST video/tag/create': async (body, { services, actor }) => ({
    success: true,
    tagId: await services.catalogue.tags.create(actor.uid, body),
  }),
  'GET video/tag/search': async ({ tagName }, { services }) => ({
    success: true,
    result: await services.catalogue.tags.search(tagName),
  }),
  'POST video/tag/get': async ({ tagId }, { services }) => ({
    success: true,
    result: await services.catalogue.tags.tagsById([...new Set(tagId)]),
  }),

  // ---- Review ----
  'GET video/pending': async (page, { services }) => ({ success: true, ...(await services.catalogue.pending(page)) }),
  'POST video/pending/approved': async ({ videoId }, { services, actor, logger }) =>
    logged(logger, 'video approved', done(services.review.approve('video', videoId, actor.uid)), () => ({
      videoId,
      by: actor.uid,
    })),
  'POST video/pending/rejected': async ({ videoId, reason, note }, { services, actor, logger }) =>
    logged(
      logger,
      'video rejected',
      done(services.review.reject('video', videoId, actor.uid, { reason, note })),
      () => ({ videoId, by: actor.uid, reason }),
    ),
  // ---- The uploader's own videos ----
  'GET video/mine': async (page, { services, actor }) => ({
    success: true,
    ...(await services.catalogue.mine(actor.uid, page)),
  }),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule), before the changes are checked.
  'POST video/update': async ({ videoId, ...changes }, { services, actor, logger }) =>
    logged(logger, 'video updated', services.videos.update(videoId, actor.uid, changes), ({ backToReview }) => ({
      videoId,
      by: actor.uid,
      backToReview,
    })).then((outcome) => ({ success: true, ...outcome })),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule).
  'DELETE video/delete': async ({ videoId }, { services, actor, logger }) =>
    logged(logger, 'video deleted', done(services.videos.remove(videoId, actor.uid)), () => ({
      videoId,
      by: actor.uid,
    })),
};
