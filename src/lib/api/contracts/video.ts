/** The video family's schemas: a video, its tags, lists and search, my videos, review. */
import { z } from 'zod';
import { REVIEW_REJECTION_REASONS } from './common.constants.ts';
import {
  blockFlags,
  likeFacts,
  noteNeeded,
  noteNeededWithOther,
  pagedQuery,
  positiveId,
  rejectionNote,
  reviewRejection,
  shownText,
} from './common.ts';
import { STREAM_NOTE_CODES } from './subtitle.constants.ts';
import {
  COPYRIGHTS,
  MAX_TAGS_PER_VIDEO,
  MY_VIDEO_STATES,
  REJECTION_REASONS,
  TAG_LANGUAGES,
  TAG_NAME_MAX,
  VIDEO_CATEGORIES,
  VIDEO_DESCRIPTION_MAX,
  VIDEO_TITLE_MAX,
} from './video.constants.ts';

export const videoExistsQuery = z.object({ videoId: positiveId });
export const videoExistsResponse = z.object({
  success: z.boolean(),
  exist: z.boolean(),
  message: z.string().optional(),
});
export type VideoExistsResponse = z.infer<typeof videoExistsResponse>;

/** A video in a list (API-NOTES "Thumb item"); duration in milliseconds, times in epoch ms. */
export const videoThumb = z.object({
  videoId: positiveId,
  title: z.string(),
  /** The cover, or the poster frame when the uploader set none ('' while not yet transcoded). */
  image: z.string(),
  uploadDate: z.number(),
  watchedCount: z.number(),
  uploader: z.string(),
  uploaderNickname: z.string().nullable(),
  uploaderId: positiveId,
  duration: z.number(),
  description: z.string(),
  videoCategory: z.string(),
  /** Only in the uploader's own list and the review queue: pending videos are not public. */
  status: z.enum(['pending', 'approved']).optional(),
});
export type VideoThumb = z.infer<typeof videoThumb>;

export const videoListResponse = blockFlags.extend({
  success: z.boolean(),
  message: z.string().optional(),
  videosCount: z.number(),
  /** A search of several words with more than 100 matches: `videosCount` is an estimate (at most 1000). */
  videosCountEstimated: z.literal(true).optional(),
  videos: z.array(videoThumb),
});
export type VideoListResponse = z.infer<typeof videoListResponse>;

// ---- Tags ----
/** Tag languages: the interface languages, plus 'other' for names in any other language. */
export const tagNameSchema = z.object({ name: z.string(), isDefault: z.boolean(), isOriginalTagName: z.boolean() });
export const tagNameGroupSchema = z.object({ lang: z.enum(TAG_LANGUAGES), tagName: z.array(tagNameSchema) });
export const tagSchema = z.object({ tagId: z.number().int().positive(), tagNameList: z.array(tagNameGroupSchema) });
export type TagName = z.infer<typeof tagNameSchema>;
export type TagNameGroup = z.infer<typeof tagNameGroupSchema>;
export type Tag = z.infer<typeof tagSchema>;

const tagNameText = shownText()
  .trim()
  .min(1, 'must not be empty')
  .max(TAG_NAME_MAX, `at most ${TAG_NAME_MAX} characters`)
  .refine((name) => !/[\p{Cc}#,，、]/u.test(name), 'must not contain control characters, # or commas');
export const tagCreateBody = z
  .object({
    tagNameList: z
      .array(
        z.object({
          lang: z.enum(TAG_LANGUAGES),
          tagName: z
            .array(
              z.object({
                name: tagNameText,
                isDefault: z.boolean().default(false),
                isOriginalTagName: z.boolean().default(false),
              }),
            )
            .min(1)
            .max(5),
        }),
      )
      .min(1)
      .max(TAG_LANGUAGES.length),
  })
  .superRefine((body, ctx) => {
    const langs = body.tagNameList.map((g) => g.lang);
    if (new Set(langs).size !== langs.length)
      ctx.addIssue({ code: 'custom', path: ['tagNameList'], message: 'each language appears once' });
    const originals = body.tagNameList.flatMap((g) => g.tagName).filter((n) => n.isOriginalTagName).length;
    if (originals > 1) ctx.addIssue({ code: 'custom', path: ['tagNameList'], message: 'at most one original name' });
  });
export type TagCreateBody = z.input<typeof tagCreateBody>;
export const tagCreateResponse = z.object({ success: z.literal(true), tagId: z.number() });
export type TagCreateResponse = z.infer<typeof tagCreateResponse>;
export const tagSearchQuery = z.object({ tagName: z.string().trim().min(1).max(TAG_NAME_MAX) });
export const tagIdsBody = z.object({ tagId: z.array(positiveId).min(1).max(50) });
export const tagSearchResponse = z.object({ success: z.literal(true), result: z.array(tagSchema) });
export type TagSearchResponse = z.infer<typeof tagSearchResponse>;
export const tagListResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  result: z.array(tagSchema),
});
export type TagListResponse = z.infer<typeof tagListResponse>;

// ---- One video ----

/** Seek-preview tiles of one part (storyboard.jpg): a grid of tileWidth × tileHeight frames. */
export const storyboardSchema = z.object({
  url: z.string(),
  intervalSeconds: z.number(),
  columns: z.number(),
  rows: z.number(),
  tileWidth: z.number(),
  tileHeight: z.number(),
  count: z.number(),
});
export type Storyboard = z.infer<typeof storyboardSchema>;
export const videoPartSchema = z.object({
  id: z.number(),
  videoPartTitle: z.string(),
  /** The part's HLS master playlist (the lowest rung is published first); null until then. */
  link: z.string().nullable(),
  duration: z.number(),
  /** transcoding → playable (some rungs) → ready (full ladder and storyboard); or failed. */
  processing: z.enum(['waiting', 'transcoding', 'playable', 'ready', 'failed']),
  renditions: z.array(z.number()),
  poster: z.string().nullable(),
  storyboard: storyboardSchema.nullable(),
});
export type VideoPart = z.infer<typeof videoPartSchema>;
export const uploaderInfoSchema = z.object({
  uid: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  signature: z.string(),
  isFollowing: z.boolean(),
  isSelf: z.boolean(),
});
export type UploaderInfo = z.infer<typeof uploaderInfoSchema>;
export const videoDetailSchema = z.object({
  videoId: z.number(),
  videoPart: z.array(videoPartSchema),
  title: z.string(),
  image: z.string(),
  uploadDate: z.number(),
  watchedCount: z.number(),
  uploaderId: z.number(),
  duration: z.number(),
  description: z.string(),
  videoCategory: z.enum(VIDEO_CATEGORIES),
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().nullable(),
  originalLink: z.string().nullable(),
  videoTagList: z.array(tagSchema),
  uploaderInfo: uploaderInfoSchema,
  status: z.enum(['pending', 'approved']),
});
export type VideoDetail = z.infer<typeof videoDetailSchema>;
export const videoResponse = blockFlags.extend({
  success: z.boolean(),
  message: z.string().optional(),
  video: videoDetailSchema.optional(),
  ...likeFacts.partial().shape,
});
export type VideoResponse = z.infer<typeof videoResponse>;
/** video/upload (commit). `duration` is never read from the browser: the server fills it from ffprobe. */
/** The metadata fields a commit and an edit (video/update) share, checked alike. */
export const videoTitle = shownText().trim().min(1, 'must not be empty').max(VIDEO_TITLE_MAX);
export const videoDescription = shownText().trim().max(VIDEO_DESCRIPTION_MAX);
/** A cover from video/cover/preUpload's image service; none means the poster frame. */
export const videoCover = z.string().max(300).nullish();
export const videoTagIds = z.array(positiveId).max(MAX_TAGS_PER_VIDEO);
export const videoIdBody = z.object({ videoId: positiveId });
export const videoRejectBody = videoIdBody.extend(reviewRejection).refine(noteNeededWithOther, noteNeeded);
/**
 * video/update: the uploader (or staff) changes a video's metadata; a field left out stays as it
 * is, `image: null` goes back to the poster frame. An approved video whose public text or cover
 * changes goes back to review.
 */
export const videoUpdateBody = z.object({
  videoId: positiveId,
  title: videoTitle.optional(),
  description: videoDescription.optional(),
  image: videoCover,
  videoCategory: z.enum(VIDEO_CATEGORIES).optional(),
  videoTagList: videoTagIds.optional(),
});
export type VideoUpdateBody = z.input<typeof videoUpdateBody>;
export const videoUpdateResponse = z.object({
  success: z.literal(true),
  status: z.enum(['pending', 'approved']),
  /** The edit sent an approved video back to review. */
  backToReview: z.boolean(),
});

// ---- Lists and search ----
export const homeQuery = pagedQuery();
export const userVideosQuery = pagedQuery().extend({ uid: positiveId });
export const searchQuery = pagedQuery().extend({ keyword: z.string().trim().min(1, 'must not be empty').max(100) });
export const tagSearchVideosBody = pagedQuery().extend({ tagId: z.array(positiveId).min(1).max(10) });
export const categoryQuery = pagedQuery().extend({ category: z.enum(VIDEO_CATEGORIES) });

/** A video waiting for review, with what the reviewer needs to judge it. */
export const pendingVideoSchema = videoThumb.extend({
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().nullable(),
  originalLink: z.string().nullable(),
  tags: z.array(tagSchema),
  parts: z.array(videoPartSchema),
});
export type PendingVideo = z.infer<typeof pendingVideoSchema>;
export const pendingVideosResponse = z.object({
  success: z.literal(true),
  videosCount: z.number(),
  videos: z.array(pendingVideoSchema),
});
export type PendingVideosResponse = z.infer<typeof pendingVideosResponse>;

/**
 * Something of an uploaded file's subtitle or attachment streams that did not become a track or
 * a font (the processing report): the stream's number among the file's subtitle streams (or
 * attachments, for fonts), why, and the codec or file name when known.
 */
export const streamNoteSchema = z.object({
  stream: z.number(),
  code: z.enum(STREAM_NOTE_CODES),
  codec: z.string().nullable(),
});
export type StreamNote = z.infer<typeof streamNoteSchema>;
/** One of the uploader's own videos ("my videos"), with where it stands and what it gathered. */
export const myVideoSchema = videoThumb.extend({
  state: z.enum(MY_VIDEO_STATES),
  /** Why it was refused (state 'rejected'), when known. */
  rejectionReason: z.enum([...REJECTION_REASONS, ...REVIEW_REJECTION_REASONS]).nullable(),
  /** The reviewer's note to the uploader, with a review reason. */
  rejectionNote: rejectionNote,
  /** The uploader's own cover (null: the poster frame, `poster`, is shown). */
  cover: z.string().nullable(),
  poster: z.string().nullable(),
  danmakuCount: z.number(),
  commentCount: z.number(),
  tags: z.array(tagSchema),
  /** Whether the uploader can still edit or delete it (not once a reviewer removed it). */
  editable: z.boolean(),
  /** How many parts it has (each can carry its own subtitle tracks). */
  partCount: z.number().int().min(1),
  /** The processing report of its parts' subtitle and attachment streams (bitmap subtitles, refused fonts…). */
  subtitleNotes: z.array(streamNoteSchema.extend({ part: z.number() })),
});
export type MyVideo = z.infer<typeof myVideoSchema>;
export const myVideosQuery = pagedQuery().extend({ pageSize: z.number().int().min(1).max(50).default(20) });
export const myVideosResponse = z.object({
  success: z.literal(true),
  videosCount: z.number(),
  videos: z.array(myVideoSchema),
});
export type MyVideosResponse = z.infer<typeof myVideosResponse>;
export const watchResponse = z.object({ success: z.literal(true), counted: z.boolean(), watchedCount: z.number() });
export type WatchResponse = z.infer<typeof watchResponse>;
