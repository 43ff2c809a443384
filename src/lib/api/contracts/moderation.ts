/** Reports, the moderation log and related videos (issue 28): the shared schemas of their calls. */
import { z } from 'zod';
import { feedCursor } from './feed.ts';
import { positiveId, shownText } from './common.ts';
import { videoThumb } from './video.ts';
import {
  REPORT_TARGET_TYPES,
  REPORT_REASONS,
  REPORT_ACTIONS,
  REPORT_TEXT_MAX,
  REPORT_NOTE_MAX,
  STAFF_ACTIONS,
} from './moderation.constants.ts';

export const reportCreateBody = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: positiveId,
  reason: z.enum(REPORT_REASONS),
  text: shownText().trim().max(REPORT_TEXT_MAX, `at most ${REPORT_TEXT_MAX} characters`).default(''),
  /** The moment of a video or track the report is about, in seconds. */
  time: z
    .number()
    .finite()
    .min(0)
    .max(24 * 3600)
    .optional(),
});
export const reportCreateResponse = z.object({ success: z.literal(true), reportId: z.number() });

const pageSize = z.number().int().min(1).max(100).default(30);
export const reportListQuery = z.object({
  status: z.enum(['open', 'resolved']).optional(),
  targetType: z.enum(REPORT_TARGET_TYPES).optional(),
  cursor: feedCursor.optional(),
  pageSize,
});

/** What a report is about, as staff need to judge it: the item as it is now (or as it was when reported), in its context. */
export const reportContext = z.object({
  /** Whether the item still shows to viewers. */
  visible: z.boolean(),
  title: z.string().optional(),
  text: z.string().optional(),
  /** A danmaku's moment (seconds). */
  time: z.number().optional(),
  /** Where a danmaku or a comment is: the video, track or photo post. */
  mediaType: z.enum(['video', 'audio', 'photo']).optional(),
  mediaId: z.number().optional(),
  floor: z.number().optional(),
  /** A comment's neighbours (the reported one marked). */
  thread: z
    .array(
      z.object({
        floor: z.number(),
        username: z.string(),
        text: z.string(),
        deleted: z.boolean(),
        reported: z.boolean(),
      }),
    )
    .optional(),
  username: z.string().optional(),
});
export type ReportContext = z.infer<typeof reportContext>;

export const reportItem = z.object({
  reportId: z.number(),
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.number(),
  targetOwnerUid: z.number().nullable(),
  reason: z.enum(REPORT_REASONS),
  text: z.string(),
  time: z.number().nullable(),
  reporter: z.object({ uid: z.number(), username: z.string() }),
  status: z.enum(['open', 'resolved']),
  action: z.enum(REPORT_ACTIONS).nullable(),
  note: z.string().nullable(),
  createdDateTime: z.number(),
  resolvedDateTime: z.number().nullable(),
  context: reportContext,
});
export type ReportItem = z.infer<typeof reportItem>;
export const reportListResponse = z.object({
  success: z.literal(true),
  reports: z.array(reportItem),
  nextCursor: z.string().nullable(),
});

export const reportResolveBody = z.object({
  reportId: positiveId,
  action: z.enum(REPORT_ACTIONS),
  note: shownText().trim().max(REPORT_NOTE_MAX, `at most ${REPORT_NOTE_MAX} characters`).default(''),
});
export const reportResolveResponse = z.object({ success: z.literal(true), resolvedReports: z.number() });

export const moderationLogQuery = z.object({
  cursor: feedCursor.optional(),
  actor: positiveId.optional(),
  action: z.enum(STAFF_ACTIONS).optional(),
  pageSize,
});
export const moderationLogEntry = z.object({
  entryId: z.number(),
  actor: z.object({ uid: z.number(), username: z.string().nullable() }),
  action: z.enum(STAFF_ACTIONS),
  targetType: z.string(),
  targetId: z.number(),
  details: z.record(z.string(), z.unknown()),
  createdDateTime: z.number(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntry>;
export const moderationLogResponse = z.object({
  success: z.literal(true),
  entries: z.array(moderationLogEntry),
  nextCursor: z.string().nullable(),
});

export const relatedVideosQuery = z.object({ videoId: positiveId, limit: z.number().int().min(1).max(50).default(12) });
export const relatedVideosResponse = z.object({ success: z.literal(true), videos: z.array(videoThumb) });
