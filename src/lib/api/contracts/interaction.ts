/** Danmaku and comments on a video, an audio track or a photo post. */
import { z } from 'zod';
import { mediaType, positiveId, shownText } from './common.ts';
import { DANMAKU_MODES, DANMAKU_SIZES, DANMAKU_TEXT_MAX } from './interaction.constants.ts';

// ---- Danmaku ----

export const danmakuEmitBody = z.object({
  videoId: positiveId,
  mediaType,
  time: z.number().finite().min(0),
  // Counted in characters as people see them (code points), after trimming.
  text: shownText()
    .transform((t) => t.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim())
    .refine((t) => [...t].length >= 1, 'must not be empty')
    .refine((t) => [...t].length <= DANMAKU_TEXT_MAX, `at most ${DANMAKU_TEXT_MAX} characters`),
  color: z
    .string()
    .regex(/^#?[0-9a-fA-F]{6}$/, 'hex colour')
    .transform((c) => c.replace('#', '').toLowerCase()),
  fontSize: z.enum(DANMAKU_SIZES).default('medium'),
  mode: z.enum(DANMAKU_MODES).default('rtl'),
  enableRainbow: z.boolean().default(false),
});
export type DanmakuEmitBody = z.input<typeof danmakuEmitBody>;
/** One danmaku as everyone receives it: never the sender's id. */
export const danmakuSchema = z.object({
  id: z.number(),
  time: z.number(),
  text: z.string(),
  color: z.string(),
  fontSize: z.enum(DANMAKU_SIZES),
  mode: z.enum(DANMAKU_MODES),
  enableRainbow: z.boolean(),
  editDateTime: z.number(),
});
export type Danmaku = z.infer<typeof danmakuSchema>;
export const danmakuEmitResponse = z.object({ success: z.literal(true), danmaku: danmakuSchema });
export type DanmakuEmitResponse = z.infer<typeof danmakuEmitResponse>;
export const danmakuQuery = z.object({
  videoId: positiveId,
  mediaType,
  segment: z.number().int().min(0).max(10_000).optional(),
});
export const danmakuListResponse = z.object({
  success: z.literal(true),
  danmaku: z.array(danmakuSchema),
  /** The segment answered (absent: the whole pool), its length and how many the video has. */
  segment: z.number().optional(),
  segmentSeconds: z.number(),
  segmentCount: z.number(),
});
export type DanmakuListResponse = z.infer<typeof danmakuListResponse>;
/**
 * GET video/danmaku/live: the video, and the last danmaku id received when resuming. EventSource
 * sends that as the Last-Event-ID header when it reconnects by itself (the header wins); a client
 * that opens a new stream passes it here.
 */
export const danmakuLiveQuery = z.object({
  videoId: positiveId,
  lastEventId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
/** The live stream's `watching` event: how many have the video open with the stream connected, across every server process. */
export const danmakuWatchingEvent = z.object({ watching: z.number().int().min(0) });
export type DanmakuWatchingEvent = z.infer<typeof danmakuWatchingEvent>;

// ---- Comments ----
export const COMMENT_TEXT_MAX = 20_000;
/** `parentId`: the comment answered; a reply to a reply joins the same thread (issue 27). */
export const commentEmitBody = z.object({
  videoId: positiveId,
  mediaType,
  text: shownText().min(1).max(COMMENT_TEXT_MAX),
  parentId: positiveId.optional(),
});
/** hot: the most upvoted (and answered) first; new: the newest first. A pinned comment always leads. */
export const COMMENT_SORTS = ['hot', 'new'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
/** Replies shown under each top-level comment of a page; the rest come from video/comment/replies. */
export const THREAD_PREVIEW_REPLIES = 3;
/**
 * A page's edge in its order, as a list answer gives it (`nextCursor`, `previousCursor`):
 * "new.<floor>" or "hot.<score>.<floor>". With `after` (or `before`) the page is the one just
 * after (before) that edge, read from there (decision 0039); `page` is still the page's number,
 * and without a cursor a page is found by its number.
 */
const commentCursor = z
  .string()
  .max(40)
  .regex(/^(new\.\d{1,9}|hot\.-?\d{1,9}\.\d{1,9})$/, 'is a cursor of a comment list answer');
export const commentListQuery = z
  .object({
    videoId: positiveId,
    mediaType,
    page: z.number().int().min(1).max(100_000).default(1),
    pageSize: z.number().int().min(1).max(50).default(20),
    sort: z.enum(COMMENT_SORTS).default('new'),
    after: commentCursor.optional(),
    before: commentCursor.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.after !== undefined && q.before !== undefined)
      ctx.addIssue({ code: 'custom', path: ['before'], message: 'give after or before, not both' });
    const cursor = q.after ?? q.before;
    if (cursor !== undefined && !cursor.startsWith(`${q.sort}.`))
      ctx.addIssue({
        code: 'custom',
        path: [q.after ? 'after' : 'before'],
        message: `is not a cursor of sort ${q.sort}`,
      });
  });
/** A page of one thread, oldest reply first. */
export const commentRepliesQuery = z.object({
  videoId: positiveId,
  mediaType,
  parentId: positiveId,
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(20),
});
/** The uploader pins (or unpins) one comment of their item; pinning another replaces it. */
export const commentPinBody = z.object({ videoId: positiveId, mediaType, id: positiveId, pinned: z.boolean() });
/** Who the comment editor offers after "@": people the writer follows, and people in the thread. */
export const mentionCandidatesQuery = z.object({
  videoId: positiveId,
  mediaType,
  parentId: positiveId.optional(),
  prefix: z.string().trim().max(20).default(''),
});
export const mentionCandidate = z.object({
  uid: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
});
export const mentionCandidatesResponse = z.object({ success: z.literal(true), users: z.array(mentionCandidate) });
export type MentionCandidatesResponse = z.infer<typeof mentionCandidatesResponse>;
export const commentVoteBody = z.object({ videoId: positiveId, mediaType, id: positiveId });
/** A comment is named "<videoId>.<floor>"; the route must be of the video the body names. */
export const commentDeleteBody = z
  .object({
    videoId: positiveId,
    mediaType,
    commentRoute: z.string().regex(/^\d{1,15}\.\d{1,9}$/, 'is "<videoId>.<floor>"'),
  })
  .refine((body) => Number(body.commentRoute.split('.')[0]) === body.videoId, {
    path: ['commentRoute'],
    message: 'belongs to another video',
  });
export const videoCommentSchema = z.object({
  id: z.number(),
  /** "<videoId>.<floor>" */
  commentRoute: z.string(),
  videoId: z.number(),
  uid: z.number(),
  userInfo: z.object({ username: z.string(), userNickname: z.string().nullable(), avatar: z.string() }),
  emitTime: z.number(),
  /** Sanitised HTML: b, strong, i, em, u, s, del, br, p only; no attributes. */
  text: z.string(),
  isUpvote: z.boolean(),
  isDownvote: z.boolean(),
  upvoteCount: z.number(),
  downvoteCount: z.number(),
  commentIndex: z.number(),
  /** The top-level comment this one answers; null for a top-level comment. */
  parentId: z.number().nullable(),
  /** A deleted comment still shown because replies hang under it: no author, no text. */
  isDeleted: z.boolean(),
  isPinned: z.boolean(),
  /** Members the text mentions ("@username" in the text links to them). */
  mentions: z.array(z.object({ uid: z.number(), username: z.string() })),
});
export type VideoComment = z.infer<typeof videoCommentSchema>;
/** A top-level comment with how many replies it has (those the viewer may see) and the first of them. */
export const commentThreadSchema = videoCommentSchema.extend({
  replyCount: z.number(),
  replies: z.array(videoCommentSchema),
});
export type CommentThread = z.infer<typeof commentThreadSchema>;
export const commentRepliesResponse = z.object({
  success: z.literal(true),
  replyCount: z.number(),
  hiddenCommentCount: z.number(),
  replies: z.array(videoCommentSchema),
});
export type CommentRepliesResponse = z.infer<typeof commentRepliesResponse>;
export const commentEmitResponse = z.object({ success: z.literal(true), comment: videoCommentSchema });
export type CommentEmitResponse = z.infer<typeof commentEmitResponse>;
export const commentListResponse = z.object({
  success: z.literal(true),
  /** Every comment but those of people the viewer blocked (pages are counted from it). */
  videoCommentCount: z.number(),
  /** How many comments of this page the viewer's block keywords or expressions left out. */
  hiddenCommentCount: z.number(),
  videoCommentList: z.array(commentThreadSchema),
  /** `after` for the next page, `before` for the previous one; null where there is none. */
  nextCursor: z.string().nullable(),
  previousCursor: z.string().nullable(),
});
export type CommentListResponse = z.infer<typeof commentListResponse>;
export const commentVoteResponse = z.object({
  success: z.literal(true),
  upvoteCount: z.number(),
  downvoteCount: z.number(),
  isUpvote: z.boolean(),
  isDownvote: z.boolean(),
});
export type CommentVoteResponse = z.infer<typeof commentVoteResponse>;
