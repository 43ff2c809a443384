import { defineRoutes } from '../route.ts';
import * as C from '../contracts/interaction.ts';
import { okResponse } from '../contracts/common.ts';

// A new vote is a write like a comment (on a target whose uploader did not block the voter); taking one's own back stays possible.
const vote = (summary: string) =>
  ({
    tag: 'comment',
    summary,
    permission: 'comment.write',
    resource: 'writableTarget',
    body: C.commentVoteBody,
    response: C.commentVoteResponse,
    errors: ['BLOCKED_BY_UPLOADER'],
  }) as const;
const retraction = (summary: string) =>
  ({
    tag: 'comment',
    summary,
    permission: 'comment.retract',
    body: C.commentVoteBody,
    response: C.commentVoteResponse,
  }) as const;
const removal = (summary: string) =>
  ({ tag: 'comment', summary, body: C.commentDeleteBody, response: okResponse }) as const;
// Counted by the danmaku and comment services once the write could be stored (a refused one costs nothing).
const danmakuLimits = [
  { limit: 'danmakuPerUser', by: 'uid', counted: 'service' },
  { limit: 'danmakuBurstPerUser', by: 'uid', counted: 'service' },
] as const;
const commentLimits = [{ limit: 'commentPerUser', by: 'uid', counted: 'service' }] as const;

/**
 * SPEC §7 danmaku and comments beside a video. Writing needs a member in good standing, on a
 * video they may see whose uploader did not block them.
 */
export const interactionRoutes = defineRoutes({
  'GET video/danmaku': {
    tag: 'danmaku',
    summary:
      'A video’s danmaku in time order: one segment, or the whole pool; without the senders the viewer blocked. Public pools carry an ETag (304 when unchanged) and may be compressed.',
    permission: 'catalogue.read',
    resource: 'visibleTarget',
    query: C.danmakuQuery,
    response: C.danmakuListResponse,
  },
  'GET video/danmaku/live': {
    tag: 'danmaku',
    summary:
      'Danmaku as others send them, while the video is open: Server-Sent Events, each event one danmaku as the list gives it (its id the event id; Last-Event-ID replays what was sent meanwhile), `watching` events with how many watch, and heartbeat comments. A client that falls behind is dropped and resumes.',
    permission: 'catalogue.read',
    resource: 'visibleVideo',
    query: C.danmakuLiveQuery,
    response: C.danmakuSchema,
    stream: { events: { watching: C.danmakuWatchingEvent } },
  },
  'POST video/danmaku/emit': {
    tag: 'danmaku',
    summary: 'Send a danmaku (one per 3 s, 20 a minute; past the pool’s cap the oldest make room).',
    permission: 'danmaku.send',
    resource: 'writableTarget',
    body: C.danmakuEmitBody,
    response: C.danmakuEmitResponse,
    errors: ['BLOCKED_BY_UPLOADER'],
    rateLimits: danmakuLimits,
  },
  'POST video/comment/emit': {
    tag: 'comment',
    summary:
      'Comment on a video, or answer a comment with `parentId` (a reply to a reply joins the same thread and starts with "@name"); sanitised HTML, "@username" mentions, the next floor; 10 a minute.',
    permission: 'comment.write',
    resource: 'writableTarget',
    body: C.commentEmitBody,
    response: C.commentEmitResponse,
    errors: ['BLOCKED_BY_UPLOADER'],
    rateLimits: commentLimits,
    // 20,000 characters of text, each up to six bytes once escaped in JSON.
    maxBodyBytes: 160 * 1024,
  },
  'GET video/comment': {
    tag: 'comment',
    summary:
      'A page of a video’s top-level comments (the pinned one first, then hot or newest), each with its reply count and first replies, with the viewer’s votes, without what the viewer’s block lists leave out.',
    permission: 'catalogue.read',
    resource: 'visibleTarget',
    query: C.commentListQuery,
    response: C.commentListResponse,
    cache: 'private',
  },
  'GET video/comment/replies': {
    tag: 'comment',
    summary: 'A page of one thread’s replies, oldest first, under the same rules as the comments.',
    permission: 'catalogue.read',
    resource: 'visibleTarget',
    query: C.commentRepliesQuery,
    response: C.commentRepliesResponse,
    cache: 'private',
  },
  'GET video/comment/mentionCandidates': {
    tag: 'comment',
    summary:
      'People the comment editor offers after "@": those the writer follows and those in the thread, without anyone blocked either way.',
    permission: 'comment.write',
    resource: 'visibleTarget',
    query: C.mentionCandidatesQuery,
    response: C.mentionCandidatesResponse,
    cache: 'private',
  },
  'POST video/comment/pin': {
    tag: 'comment',
    summary: 'Pin a top-level comment under one’s own upload (replacing the pinned one), or unpin it.',
    permission: 'comment.pin',
    resource: 'visibleTarget',
    body: C.commentPinBody,
    response: okResponse,
  },
  'POST video/comment/upvote': vote('Upvote a comment (replaces a downvote).'),
  'POST video/comment/downvote': vote('Downvote a comment (replaces an upvote).'),
  'DELETE video/comment/upvote/cancel': retraction('Take back one’s upvote.'),
  'DELETE video/comment/downvote/cancel': retraction('Take back one’s downvote.'),
  // Each removal's resource rule looks at its own owner: the comment's author, or the uploader of the target it is under.
  'DELETE video/comment/deleteSelfComment': {
    ...removal('Delete one’s own comment.'),
    permission: 'comment.deleteOwn',
    resource: 'comment',
  },
  'DELETE video/comment/adminDeleteComment': {
    ...removal('Delete anyone’s comment (staff).'),
    permission: 'comment.deleteAny',
  },
  'DELETE video/comment/uploaderDeleteComment': {
    ...removal('Delete a comment under one’s own upload.'),
    permission: 'comment.deleteUnderOwnUpload',
    resource: 'visibleTarget',
  },
});
