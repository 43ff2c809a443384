import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { Invalid } from '../../domain/errors.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';
import { LIVE_STREAM_HEADERS } from '../../services/live-danmaku.ts';
import type { CommentVoteResponse } from '#lib/api/contracts/interaction.ts';
import type { MediaTarget, MediaType } from '#lib/api/contracts/common.constants.ts';
import { cutOff, eventStream, poolAnswer } from './answers.ts';
import { danmakuExchangeHandlers } from './subtitle.ts';

/** The target a call names: `videoId` is the id of a video, audio track or photo post per `mediaType`. */
const targetOf = ({ videoId, mediaType }: { videoId: number; mediaType: MediaType }): MediaTarget => ({
  type: mediaType,
  id: videoId,
});

/**
 * A vote on a comment: a new one on a target the voter may write to (the entry's resource); taking
 * one's own back stays possible whatever the target.
 */
const vote =
  (kind: 1 | -1, cancel: boolean) =>
  async (
    input: { videoId: number; mediaType: MediaType; id: number },
    { services, actor }: HandlerContext,
  ): Promise<CommentVoteResponse> =>
    services.comments.vote(actor.uid, targetOf(input), input.id, cancel ? 0 : kind, cancel ? kind : undefined);

/** EventSource's Last-Event-ID on a reconnect: the id of the last danmaku received (absent on a first connection). */
function lastEventIdOf(header: string | undefined): number | null {
  if (header === undefined || header === '') return null;
  if (!/^\d{1,15}$/.test(header))
    throw new Invalid([{ path: 'Last-Event-ID', message: 'must be the id of a danmaku' }]);
  return Number(header);
}

/** SPEC §7 danmaku and comments. */
export const interactionHandlers: HandlerSet<'video/danmaku' | 'video/comment' | 'video/like'> = {
  ...danmakuExchangeHandlers,
  // The target as the caller sees it (the entry's resource). A viewer who blocked people gets the
  // pool without theirs, built for them; everyone else the same pool (a busy segment holds
  // thousands), serialized once per change with an ETag, which shared caches may keep briefly.
  'GET video/danmaku': async ({ segment }, ctx) =>
    poolAnswer(
      ctx,
      ctx.resource.status === 'approved',
      await ctx.services.forViewer.danmakuSegment(
        ctx.resource.target,
        ctx.resource.durationMs,
        segment,
        await ctx.viewer(),
      ),
    ),
  // Reading needs no login (the video as the caller sees it: the entry's resource); the viewer's blocked people are left out as in the list.
  'GET video/danmaku/live': async ({ videoId, lastEventId }, ctx) =>
    eventStream(ctx.c, LIVE_STREAM_HEADERS, async () =>
      ctx.services.live.open(
        videoId,
        (await ctx.viewer())?.uid ?? null,
        lastEventIdOf(ctx.c.req.header('last-event-id')) ?? lastEventId ?? null,
        cutOff(ctx.c),
      ),
    ),
  // The target is writable (the entry's resource); the service counts the per-member limits, only for danmaku it could store.
  'POST video/danmaku/emit': async (body, { services, actor, resource }) => ({
    success: true,
    danmaku: await services.danmaku.emit(actor.uid, resource.durationMs, body),
  }),
  'POST video/comment/emit': async ({ text, parentId }, { services, actor, resource }) => ({
    success: true,
    comment: await services.comments.emit(
      actor.uid,
      { ...resource.target, uploaderUid: resource.uploaderUid },
      text,
      parentId,
    ),
  }),
  // Always personal: votes are marked and block lists applied for the viewer.
  'GET video/comment': async ({ videoId: _id, mediaType: _type, ...page }, { services, viewer, resource }) => ({
    success: true,
    ...(await services.comments.list(resource.target, (await viewer())?.uid ?? null, page)),
  }),
  'GET video/comment/replies': async (
    { parentId, videoId: _id, mediaType: _type, ...page },
    { services, viewer, resource },
  ) => ({
    success: true,
    ...(await services.comments.replies(resource.target, (await viewer())?.uid ?? null, parentId, page)),
  }),
  'GET video/comment/mentionCandidates': async ({ parentId, prefix }, { services, actor, resource }) => ({
    success: true,
    users: await services.comments.mentionCandidates(actor.uid, resource.target, parentId ?? null, prefix),
  }),
  // The uploader's own moderation: the policy decides by the target's uploader (the entry's resource).
  'POST video/comment/pin': async ({ id, pinned }, { services, resource }) =>
    done(services.comments.pin(resource.target, id, pinned)),
  'POST video/comment/upvote': vote(1, false),
  'POST video/comment/downvote': vote(-1, false),
  'DELETE video/comment/upvote/cancel': vote(1, true),
  'DELETE video/comment/downvote/cancel': vote(-1, true),
  // The comment's author (the entry's resource).
  'DELETE video/comment/deleteSelfComment': async ({ commentRoute, mediaType }, { services, actor }) =>
    done(services.comments.remove(mediaType, commentRoute, actor.uid)),
  // The uploader of the target the comment is under (the entry's resource).
  'DELETE video/comment/uploaderDeleteComment': async ({ commentRoute, mediaType }, { services, actor, logger }) =>
    logged(
      logger,
      'comment deleted by the uploader',
      done(services.comments.remove(mediaType, commentRoute, actor.uid)),
      () => ({ commentRoute, mediaType, by: actor.uid }),
    ),
  'DELETE video/comment/adminDeleteComment': async ({ commentRoute, mediaType }, { services, actor, logger }) =>
    logged(
      logger,
      'comment deleted by staff',
      done(services.comments.remove(mediaType, commentRoute, actor.uid)),
      () => ({ commentRoute, mediaType, by: actor.uid }),
    ),

  // Likes: giving one is a write like a comment; taking it back stays possible.
  // The target as the member sees it (the entry's resource); the uploader's block is checked in the like's own statement (a hot item's like is one round trip).
  'POST video/like': async (_body, { services, actor, resource }) =>
    services.likes.like(actor.uid, { ...resource.target, uploaderUid: resource.uploaderUid }),
  'DELETE video/like/cancel': async (_body, { services, actor, resource }) =>
    services.likes.cancel(actor.uid, resource.target),
};
