import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { Forbidden, Invalid, NotFound } from '../../domain/errors.ts';
import { encodedAnswer, segmentCountOf } from '../../services/danmaku.ts';
import { LIVE_STREAM_HEADERS } from '../../services/live-danmaku.ts';
import { preferredEncoding } from '../../http/content-encoding.ts';
import { DANMAKU_SEGMENT_SECONDS } from '#lib/api/contracts/interaction.constants.ts';
import type { CommentVoteResponse } from '#lib/api/contracts/interaction.ts';
import type { MediaTarget, MediaType } from '#lib/api/contracts/common.constants.ts';
import { listViewer } from './looker.ts';
import { danmakuExchangeHandlers } from './subtitle.ts';

/** The target a call names: `videoId` is the id of a video, audio track or photo post per `mediaType`. */
const targetOf = ({ videoId, mediaType }: { videoId: number; mediaType: MediaType }): MediaTarget => ({ type: mediaType, id: videoId });

/**
 * The target a member writes to (danmaku, comments, votes): visible to them, and not by an
 * uploader who blocked them. Checked before any rate limit, so a refusal costs nothing.
 */
async function targetToWriteTo({ services, actor }: HandlerContext, target: MediaTarget) {
  const found = await uploadVisibleTo({ services, actor }, target);
  if (await services.blockLists.isBlockedBy(found.uploaderUid, actor.uid)) throw new Forbidden('BLOCKED_BY_UPLOADER');
  return found;
}

/** The target as the caller sees it (the uploader sees their own pending one too). */
async function uploadVisibleTo({ services, actor }: Pick<HandlerContext, 'services' | 'actor'>, target: MediaTarget) {
  const found = await services.targets.visible(target, actor);
  if (!found) throw new NotFound();
  return found;
}

/** A new vote is a write like a comment; taking one's own vote back stays possible. */
const vote = (kind: 1 | -1, cancel: boolean) => async (input: { videoId: number; mediaType: MediaType; id: number }, ctx: HandlerContext): Promise<CommentVoteResponse> => {
  const target = targetOf(input);
  if (!cancel) await targetToWriteTo(ctx, target);
  return ctx.services.comments.vote(ctx.actor.uid, target, input.id, cancel ? 0 : kind, cancel ? kind : undefined);
};

/** EventSource's Last-Event-ID on a reconnect: the id of the last danmaku received (absent on a first connection). */
function lastEventIdOf(header: string | undefined): number | null {
  if (header === undefined || header === '') return null;
  if (!/^\d{1,15}$/.test(header)) throw new Invalid([{ path: 'Last-Event-ID', message: 'must be the id of a danmaku' }]);
  return Number(header);
}

/** SPEC §7 danmaku and comments. */
export const interactionHandlers: HandlerSet<'video/danmaku' | 'video/comment' | 'video/like'> = {
  ...danmakuExchangeHandlers,
  'GET video/danmaku': async ({ segment, ...named }, ctx) => {
    const { services, c } = ctx;
    const viewer = await ctx.viewer();
    const target = targetOf(named);
    const video = await services.targets.visible(target, viewer);
    if (!video) throw new NotFound();
    const segmentCount = segmentCountOf(video.durationMs);
    // A viewer who blocked people gets the pool without theirs: a personal answer, built each time.
    if ((await listViewer(ctx)).people) {
      ctx.cache('private');
      const danmaku = await services.danmaku.list(target, video.durationMs, segment, viewer!.uid);
      return { success: true, danmaku, segment, segmentSeconds: DANMAKU_SEGMENT_SECONDS, segmentCount };
    }
    // Everyone else receives the same pool (no sender ids in it), serialized once per change of
    // the segment (a busy one holds thousands) with an ETag; shared caches may keep it briefly.
    const answer = await services.danmaku.listAnswer(target, video.durationMs, segment);
    c.header('Cache-Control', video.status === 'approved' ? 'public, max-age=5' : 'private, no-store');
    c.header('Vary', 'Cookie, Accept-Encoding');
    c.header('ETag', answer.etag);
    if (c.req.header('If-None-Match')?.split(',').some((tag) => tag.trim() === answer.etag)) return c.body(null, 304);
    c.header('Content-Type', 'application/json');
    const encoding = preferredEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return c.body(answer.body);
    c.header('Content-Encoding', encoding);
    return c.body(await encodedAnswer(answer, encoding));
  },
  // Reading needs no login; the viewer's blocked people are left out as in the list.
  'GET video/danmaku/live': async ({ videoId, lastEventId }, ctx) => {
    const viewer = await ctx.viewer();
    if (!(await ctx.services.catalogue.visibleVideo(videoId, viewer))) throw new NotFound();
    // HEAD: the headers a stream would have, without opening one nobody reads (or counting a viewer).
    if (ctx.c.req.method === 'HEAD') return new Response(null, { headers: LIVE_STREAM_HEADERS });
    // A viewer who falls behind is cut off at the socket: its queue goes at once, nothing is logged.
    const outgoing = (ctx.c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
    return ctx.services.live.open(videoId, viewer?.uid ?? null, lastEventIdOf(ctx.c.req.header('last-event-id')) ?? lastEventId ?? null, outgoing && (() => outgoing.destroy()));
  },
  // The service counts the per-member limits, only for danmaku it could store.
  'POST video/danmaku/emit': async (body, ctx) => {
    const target = await targetToWriteTo(ctx, targetOf(body));
    return { success: true, danmaku: await ctx.services.danmaku.emit(ctx.actor.uid, target.durationMs, body) };
  },

  'POST video/comment/emit': async ({ text, parentId, ...named }, ctx) => {
    const target = targetOf(named);
    const found = await targetToWriteTo(ctx, target);
    await ctx.services.rateLimits.hit('commentPerUser', ctx.actor.uid);
    return { success: true, comment: await ctx.services.comments.emit(ctx.actor.uid, { ...target, uploaderUid: found.uploaderUid }, text, parentId) };
  },
  // Always personal: votes are marked and block lists applied for the viewer.
  'GET video/comment': async ({ videoId, mediaType, ...page }, { services, viewer }) => {
    const looker = await viewer();
    const target = targetOf({ videoId, mediaType });
    if (!(await services.targets.visible(target, looker))) throw new NotFound();
    return { success: true, ...(await services.comments.list(target, looker?.uid ?? null, page)) };
  },
  'GET video/comment/replies': async ({ videoId, mediaType, parentId, ...page }, { services, viewer }) => {
    const looker = await viewer();
    const target = targetOf({ videoId, mediaType });
    if (!(await services.targets.visible(target, looker))) throw new NotFound();
    return { success: true, ...(await services.comments.replies(target, looker?.uid ?? null, parentId, page)) };
  },
  'GET video/comment/mentionCandidates': async ({ videoId, mediaType, parentId, prefix }, ctx) => {
    const target = targetOf({ videoId, mediaType });
    if (!(await ctx.services.targets.visible(target, ctx.actor))) throw new NotFound();
    return { success: true, users: await ctx.services.comments.mentionCandidates(ctx.actor.uid, target, parentId ?? null, prefix) };
  },
  // The uploader's own moderation: the policy decides by the target's uploader.
  'POST video/comment/pin': async ({ id, pinned, ...named }, ctx) => {
    const target = targetOf(named);
    ctx.authorize('comment.pin', { ownerUid: (await uploadVisibleTo(ctx, target)).uploaderUid });
    await ctx.services.comments.pin(target, id, pinned);
    return { success: true };
  },
  'POST video/comment/upvote': vote(1, false),
  'POST video/comment/downvote': vote(-1, false),
  'DELETE video/comment/upvote/cancel': vote(1, true),
  'DELETE video/comment/downvote/cancel': vote(-1, true),
  'DELETE video/comment/deleteSelfComment': async ({ commentRoute, mediaType }, { services, actor, authorize }) => {
    authorize('comment.deleteOwn', { ownerUid: await services.comments.authorOf(mediaType, commentRoute) });
    await services.comments.remove(mediaType, commentRoute, actor.uid);
    return { success: true };
  },
  'DELETE video/comment/uploaderDeleteComment': async ({ commentRoute, ...named }, ctx) => {
    ctx.authorize('comment.deleteUnderOwnUpload', { ownerUid: (await uploadVisibleTo(ctx, targetOf(named))).uploaderUid });
    await ctx.services.comments.remove(named.mediaType, commentRoute, ctx.actor.uid);
    ctx.logger.info('comment deleted by the uploader', { commentRoute, mediaType: named.mediaType, by: ctx.actor.uid });
    return { success: true };
  },
  'DELETE video/comment/adminDeleteComment': async ({ commentRoute, mediaType }, { services, actor, logger }) => {
    await services.comments.remove(mediaType, commentRoute, actor.uid);
    logger.info('comment deleted by staff', { commentRoute, mediaType, by: actor.uid });
    return { success: true };
  },

  // Likes: giving one is a write like a comment; taking it back stays possible.
  'POST video/like': async (body, ctx) => {
    const target = targetOf(body);
    // The uploader's block is checked in the like's own statement (a hot item's like is one round trip).
    const found = await uploadVisibleTo(ctx, target);
    return ctx.services.likes.like(ctx.actor.uid, { ...target, uploaderUid: found.uploaderUid });
  },
  'DELETE video/like/cancel': async (body, ctx) => {
    const target = targetOf(body);
    await uploadVisibleTo(ctx, target);
    return ctx.services.likes.cancel(ctx.actor.uid, target);
  },
};
