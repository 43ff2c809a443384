/** The video upload's schemas: the commit of an uploaded file, its cover, its processing state. */
import { z } from 'zod';
import { httpUrl, shownText } from './common.ts';
import { COPYRIGHTS, MAX_VIDEO_PARTS, VIDEO_CATEGORIES, VIDEO_TITLE_MAX } from './video.constants.ts';
import { streamNoteSchema, videoCover, videoDescription, videoTagIds, videoTitle } from './video.ts';

export const videoUploadBody = z
  .object({
    title: videoTitle,
    description: videoDescription.default(''),
    image: videoCover,
    videoPart: z
      .array(
        z.object({
          mediaId: z.string().regex(/^[0-9a-f]{24}$/, 'is not a media id'),
          videoPartTitle: shownText().trim().max(VIDEO_TITLE_MAX).default(''),
        }),
      )
      .min(1)
      .max(MAX_VIDEO_PARTS),
    videoCategory: z.enum(VIDEO_CATEGORIES),
    copyright: z.enum(COPYRIGHTS),
    originalAuthor: shownText().trim().max(100).nullish(),
    originalLink: httpUrl.nullish(),
    pushToFeed: z.boolean().default(false),
    ensureOriginal: z.boolean().default(false),
    videoTagList: videoTagIds.default([]),
  })
  .superRefine((body, ctx) => {
    if (body.copyright === 'repost' && !body.originalAuthor)
      ctx.addIssue({ code: 'custom', path: ['originalAuthor'], message: 'a repost names its original author' });
    if (body.copyright === 'repost' && !body.originalLink)
      ctx.addIssue({ code: 'custom', path: ['originalLink'], message: 'a repost links to the original' });
    if (body.copyright === 'original' && !body.ensureOriginal)
      ctx.addIssue({ code: 'custom', path: ['ensureOriginal'], message: 'confirm that the video is your own work' });
    const ids = body.videoPart.map((p) => p.mediaId);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['videoPart'], message: 'each part is a different file' });
  });
export type VideoUploadBody = z.input<typeof videoUploadBody>;
export const videoUploadResponse = z.object({ success: z.literal(true), videoId: z.number() });
export type VideoUploadResponse = z.infer<typeof videoUploadResponse>;
/** A signed address of the image service for one cover upload. */
export const coverPreUploadResponse = z.object({
  success: z.literal(true),
  result: z.object({ signedUrl: z.string(), fileName: z.string() }),
});
export type CoverPreUploadResponse = z.infer<typeof coverPreUploadResponse>;

// ---- Video pipeline ----
export const mediaStatusQuery = z.object({ mediaId: z.string().regex(/^[0-9a-f]{24}$/) });
export const mediaStatusResponse = z.object({
  success: z.literal(true),
  mediaId: z.string(),
  /** uploaded → probed → transcoding → playable (lowest rung out) → ready; or rejected / failed. */
  status: z.enum(['uploaded', 'probed', 'transcoding', 'playable', 'ready', 'rejected', 'failed']),
  // The probe's refusals: videos', audio's and photos'.
  reason: z
    .enum([
      'NOT_A_VIDEO',
      'NOT_AUDIO',
      'TOO_LONG',
      'CORRUPT',
      'NOT_AN_IMAGE',
      'UNSUPPORTED_IMAGE_FORMAT',
      'IMAGE_TOO_LARGE',
      'TOO_MANY_PIXELS',
    ])
    .nullable(),
  /** Milliseconds, from ffprobe (never from the browser). */
  duration: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  /** Heights of the published HLS rungs, lowest first. */
  renditions: z.array(z.number()),
  manifestUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /** The file's subtitle and attachment streams that did not become tracks or fonts (bitmap subtitles, refused fonts…); empty until the transcode read them. */
  subtitleNotes: z.array(streamNoteSchema),
});
export type MediaStatusResponse = z.infer<typeof mediaStatusResponse>;
