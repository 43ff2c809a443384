import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { Invalid, NotFound } from '../../domain/errors.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';
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
 * A vote on a comment: a new one on a target the voter may write to (the entry's resource); taking
 * one's own back stays possible whatever the target.
 */
const vote = (kind: 1 | -1, cancel: boolean) => async (input: { videoId: number; mediaType: MediaType; id: number }, { services, actor }: HandlerContext): Promise<CommentVoteResponse> =>
  services.comments.vote(actor.uid, targetOf(input), input.id, cancel ? 0 : kind, cancel ? kind : undefined);

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
  // The target is writable (the entry's resource); the service counts the per-member limits, only for danmaku it could store.
  'POST video/danmaku/emit': async (body, { services, actor, resource }) =>
    ({ success: true, danmaku: await services.danmaku.emit(actor.uid, resource.durationMs, body) }),
  'POST video/comment/emit': async ({ text, parentId }, { services, actor, resource }) =>
    ({ success: true, comment: await services.comments.emit(actor.uid, { ...resource.target, uploaderUid: resource.uploaderUid }, text, parentId) }),
  // Always personal: votes are marked and block lists applied for the viewer.
  'GET video/comment': async ({ videoId: _id, mediaType: _type, ...page }, { services, viewer, resource }) =>
    ({ success: true, ...(await services.comments.list(resource.target, (await viewer())?.uid ?? null, page)) }),
  'GET video/comment/replies': async ({ parentId, videoId: _id, mediaType: _type, ...page }, { services, viewer, resource }) =>
    ({ success: true, ...(await services.comments.replies(resource.target, (await viewer())?.uid ?? null, parentId, page)) }),
  'GET video/comment/mentionCandidates': async ({ parentId, prefix }, { services, actor, resource }) =>
    ({ success: true, users: await services.comments.mentionCandidates(actor.uid, resource.target, parentId ?? null, prefix) }),
  // The uploader's own moderation: the policy decides by the target's uploader (the entry's resource).
  'POST video/comment/pin': async ({ id, pinned }, { services, resource }) => done(services.comments.pin(resource.target, id, pinned)),
  'POST video/comment/upvote': vote(1, false),
  'POST video/comment/downvote': vote(-1, false),
  'DELETE video/comment/upvote/cancel': vote(1, true),
  'DELETE video/comment/downvote/cancel': vote(-1, true),
  // The comment's author (the entry's resource).
  'DELETE video/comment/deleteSelfComment': async ({ commentRoute, mediaType }, { services, actor }) => done(services.comments.remove(mediaType, commentRoute, actor.uid)),
  // The uploader of the target the comment is under (the entry's resource).
  'DELETE video/comment/uploaderDeleteComment': async ({ commentRoute, mediaType }, { services, actor, logger }) =>
    logged(logger, 'comment deleted by the uploader', done(services.comments.remove(mediaType, commentRoute, actor.uid)), () => ({ commentRoute, mediaType, by: actor.uid })),
  'DELETE video/comment/adminDeleteComment': async ({ commentRoute, mediaType }, { services, actor, logger }) =>
    logged(logger, 'comment deleted by staff', done(services.comments.remove(mediaType, commentRoute, actor.uid)), () => ({ commentRoute, mediaType, by: actor.uid })),

  // Likes: giving one is a write like a comment; taking it back stays possible.
  // The target as the member sees it (the entry's resource); the uploader's block is checked in the like's own statement (a hot item's like is one round trip).
  'POST video/like': async (_body, { services, actor, resource }) => services.likes.like(actor.uid, { ...resource.target, uploaderUid: resource.uploaderUid }),
  'DELETE video/like/cancel': async (_body, { services, actor, resource }) => services.likes.cancel(actor.uid, resource.target),
};
