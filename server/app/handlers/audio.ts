import type { HandlerSet } from '../mount-routes.ts';
import { answerFor, listFor, viewerUidFor } from './looker.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';

/** The audio section (issue 13); a track's danmaku and comments are the video/… calls with mediaType=audio. */
export const audioHandlers: HandlerSet<'audio'> = {
  'POST audio/upload': async (body, { services, actor, logger }) => ({
    success: true,
    audioId: await logged(logger, 'audio committed', services.audio.commit(actor.uid, body), (audioId) => ({
      audioId,
      by: actor.uid,
    })),
  }),
  // Pending tracks only for their uploader and staff; the rest get 404.
  'GET audio': async ({ audioId }, ctx) => answerFor(ctx, ctx.services.forViewer.audio(audioId, await ctx.viewer())),
  'GET audio/home': async ({ sort, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.audio.home(sort, { ...page, viewerUid: await listFor(ctx) })),
  }),
  // As video/related: personal when the viewer has block lists; never in a shared cache.
  'GET audio/related': async ({ audioId, limit }, ctx) => ({
    success: true,
    tracks: await ctx.services.audio.related(audioId, await viewerUidFor(ctx), limit),
  }),
  'GET audio/user': async ({ uid, ...page }, ctx) =>
    answerFor(ctx, ctx.services.forViewer.tracksOf(uid, await ctx.viewer(), page)),
  'GET audio/search': async ({ keyword, tagId, ...page }, ctx) => ({
    success: true,
    ...(await ctx.services.audio.search({ keyword, tagId }, { ...page, viewerUid: await listFor(ctx) })),
  }),
  'POST audio/play': async ({ audioId }, { services, viewer, ip }) => ({
    success: true,
    ...(await services.audio.play(audioId, await viewer(), ip)),
  }),
  'GET audio/mine': async (page, { services, actor }) => ({
    success: true,
    ...(await services.audio.mine(actor.uid, page)),
  }),
  // The uploader or staff (the entry's resource: the policy's ownerOrStaff rule).
  'POST audio/update': async ({ audioId, ...changes }, { services, actor, logger }) =>
    logged(logger, 'audio updated', services.audio.update(audioId, actor.uid, changes), ({ backToReview }) => ({
      audioId,
      by: actor.uid,
      backToReview,
    })).then((outcome) => ({ success: true, ...outcome })),
  'DELETE audio/delete': async ({ audioId }, { services, actor, logger }) =>
    logged(logger, 'audio deleted', done(services.audio.remove(audioId, actor.uid)), () => ({
      audioId,
      by: actor.uid,
    })),
  'GET audio/pending': async (page, { services }) => ({ success: true, ...(await services.audio.pending(page)) }),
  'POST audio/pending/approved': async ({ audioId }, { services, actor, logger }) =>
    logged(logger, 'audio approved', done(services.review.approve('audio', audioId, actor.uid)), () => ({
      audioId,
      by: actor.uid,
    })),
  'POST audio/pending/rejected': async ({ audioId, reason, note }, { services, actor, logger }) =>
    logged(
      logger,
      'audio rejected',
      done(services.review.reject('audio', audioId, actor.uid, { reason, note })),
      () => ({ audioId, by: actor.uid, reason }),
    ),
};
