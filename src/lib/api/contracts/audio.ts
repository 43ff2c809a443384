/**
 * The audio section's schemas (SPEC §1, §2 /audio; issue 13): tracks as lists, the track page,
 * the commit of an uploaded file, review. They reuse the video family's pieces (title,
 * description, cover, tags, copyright), so tracks are checked exactly as videos are.
 */
import { z } from 'zod';
import {
  blockFlags,
  likeFacts,
  httpUrl,
  noteNeededWithOther,
  pagedQuery,
  positiveId,
  rejectionNote,
  reviewRejection,
  shownText,
} from './common.ts';
import { COPYRIGHTS, VIDEO_CATEGORIES } from './video.constants.ts';
import { REVIEW_REJECTION_REASONS } from './common.constants.ts';
import { tagSchema, uploaderInfoSchema, videoCover, videoDescription, videoTagIds, videoTitle } from './video.ts';
import { AUDIO_ARTIST_MAX, AUDIO_SORTS } from './audio.constants.ts';

const mediaId = z.string().regex(/^[0-9a-f]{24}$/, 'is not a media id');

/** A track in a list: cover ('' when it has none), duration in ms, times in epoch ms. */
export const audioThumb = z.object({
  audioId: positiveId,
  title: z.string(),
  artist: z.string(),
  cover: z.string(),
  duration: z.number(),
  playCount: z.number(),
  uploadDate: z.number(),
  uploaderId: positiveId,
  uploader: z.string(),
  uploaderNickname: z.string().nullable(),
  category: z.string(),
  /** Only in the uploader's own list and the review queue: pending tracks are not public. */
  status: z.enum(['pending', 'approved']).optional(),
});
export type AudioThumb = z.infer<typeof audioThumb>;
/** audio/related: tracks related to one (shared tags, uploader, listeners), as video/related is for videos. */
export const relatedTracksQuery = z.object({ audioId: positiveId, limit: z.number().int().min(1).max(50).default(12) });
export const relatedTracksResponse = z.object({ success: z.literal(true), tracks: z.array(audioThumb) });
export const audioListResponse = blockFlags.extend({
  success: z.literal(true),
  count: z.number(),
  tracks: z.array(audioThumb),
});
export type AudioListResponse = z.infer<typeof audioListResponse>;

export const audioHomeQuery = pagedQuery().extend({ sort: z.enum(AUDIO_SORTS).default('newest') });
export const audioUserQuery = pagedQuery().extend({ uid: positiveId });
export const audioSearchQuery = pagedQuery()
  .extend({
    keyword: z.string().trim().min(1, 'must not be empty').max(100).optional(),
    tagId: positiveId.optional(),
  })
  .refine((q) => (q.keyword === undefined) !== (q.tagId === undefined), {
    path: ['keyword'],
    message: 'give a keyword or a tag, one of them',
  });
export const audioIdQuery = z.object({ audioId: positiveId });
export const audioIdBody = z.object({ audioId: positiveId });
/** audio/pending/rejected: the reviewer's reason and note, which the uploader reads in "my tracks". */
export const audioRejectBody = audioIdBody
  .extend(reviewRejection)
  .refine(noteNeededWithOther, { path: ['note'], message: 'say why when the reason is OTHER' });

/** What the player needs: the streams, the waveform to seek on, the loudness to normalise to. */
export const audioDetailSchema = audioThumb.extend({
  description: z.string(),
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().nullable(),
  originalLink: z.string().nullable(),
  tags: z.array(tagSchema),
  status: z.enum(['pending', 'approved']),
  uploaderInfo: uploaderInfoSchema.omit({ isFollowing: true, isSelf: true }),
  /** AAC in HLS (one or two bitrates), and the same AAC as one progressive file. */
  manifestUrl: z.string(),
  streamUrl: z.string(),
  /** Peak levels 0..1 across the track (about 1000), oldest moment first. */
  waveform: z.array(z.number()),
  /** EBU R128 integrated loudness (LUFS) and true peak (dBTP); null when not measured. */
  loudness: z.object({ integratedLufs: z.number(), truePeakDb: z.number() }).nullable(),
  /** The uploader's other public tracks, from the one after this (the queue the player goes on with). */
  queue: z.array(audioThumb),
});
export type AudioDetail = z.infer<typeof audioDetailSchema>;
export const audioResponse = blockFlags.extend({
  success: z.literal(true),
  audio: audioDetailSchema,
  ...likeFacts.shape,
});
export type AudioResponse = z.infer<typeof audioResponse>;

/** audio/upload: commit one uploaded (and probed) audio file with its metadata. */
export const audioUploadBody = z
  .object({
    mediaId,
    title: videoTitle,
    artist: shownText().trim().max(AUDIO_ARTIST_MAX).default(''),
    description: videoDescription.default(''),
    image: videoCover,
    audioCategory: z.enum(VIDEO_CATEGORIES).default('music'),
    copyright: z.enum(COPYRIGHTS),
    originalAuthor: shownText().trim().max(100).nullish(),
    originalLink: httpUrl.nullish(),
    ensureOriginal: z.boolean().default(false),
    audioTagList: videoTagIds.default([]),
  })
  .superRefine((body, ctx) => {
    if (body.copyright === 'repost' && !body.originalAuthor)
      ctx.addIssue({ code: 'custom', path: ['originalAuthor'], message: 'a repost names its original author' });
    if (body.copyright === 'repost' && !body.originalLink)
      ctx.addIssue({ code: 'custom', path: ['originalLink'], message: 'a repost links to the original' });
    if (body.copyright === 'original' && !body.ensureOriginal)
      ctx.addIssue({ code: 'custom', path: ['ensureOriginal'], message: 'confirm that the track is your own work' });
  });
export type AudioUploadBody = z.input<typeof audioUploadBody>;
export const audioUploadResponse = z.object({ success: z.literal(true), audioId: z.number() });

/** audio/update: only the fields sent change; an approved track whose public text, cover or tags change goes back to review. */
export const audioUpdateBody = z.object({
  audioId: positiveId,
  title: videoTitle.optional(),
  artist: shownText().trim().max(AUDIO_ARTIST_MAX).optional(),
  description: videoDescription.optional(),
  image: videoCover,
  audioCategory: z.enum(VIDEO_CATEGORIES).optional(),
  audioTagList: videoTagIds.optional(),
});
export type AudioUpdateBody = z.input<typeof audioUpdateBody>;
export const audioUpdateResponse = z.object({
  success: z.literal(true),
  status: z.enum(['pending', 'approved']),
  /** The edit sent an approved track back to review. */
  backToReview: z.boolean(),
});

/** One of the uploader's own tracks as "my tracks" lists and edits it. */
export const myTrackSchema = audioThumb.extend({
  /** rejected: a reviewer refused it (with `rejectionReason` and `rejectionNote`); it can no longer be edited. */
  status: z.enum(['pending', 'approved', 'rejected']),
  rejectionReason: z.enum(REVIEW_REJECTION_REASONS).nullable(),
  rejectionNote: rejectionNote,
  description: z.string(),
  tags: z.array(tagSchema),
  /** The uploaded cover (null: the embedded one, shown as `cover`, or none). */
  image: z.string().nullable(),
});
export type MyTrack = z.infer<typeof myTrackSchema>;
export const myTracksQuery = pagedQuery().extend({ pageSize: z.number().int().min(1).max(50).default(20) });
export const myTracksResponse = z.object({
  success: z.literal(true),
  count: z.number(),
  tracks: z.array(myTrackSchema),
});
export type MyTracksResponse = z.infer<typeof myTracksResponse>;

export const audioPlayResponse = z.object({ success: z.literal(true), counted: z.boolean(), playCount: z.number() });

/** A track waiting for review, with what the reviewer needs to listen to it. */
export const pendingAudioSchema = audioThumb.extend({
  description: z.string(),
  streamUrl: z.string(),
  tags: z.array(tagSchema),
});
export const pendingAudioResponse = z.object({
  success: z.literal(true),
  count: z.number(),
  tracks: z.array(pendingAudioSchema),
});
export type PendingAudioResponse = z.infer<typeof pendingAudioResponse>;
