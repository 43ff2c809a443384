/**
 * The photo section's contract (issue 13): request and answer schemas of the photo/* calls,
 * its limits in photo.constants.ts. Shared by the server (validation) and the browser (types only).
 */
import { z } from 'zod';
import { COPYRIGHTS } from './video.constants.ts';
import {
  blockFlags,
  likeFacts,
  noteNeededWithOther,
  positiveId,
  rejectionNote,
  reviewRejection,
  shownText,
} from './common.ts';
import { REVIEW_REJECTION_REASONS } from './common.constants.ts';
import { tagSchema, uploaderInfoSchema } from './video.ts';
import {
  PHOTO_ALT_MAX,
  PHOTO_DESCRIPTION_MAX,
  PHOTO_MAX_IMAGES,
  PHOTO_STATES,
  PHOTO_TITLE_MAX,
  MAX_TAGS_PER_PHOTO,
} from './photo.constants.ts';

const mediaId = z.string().regex(/^[0-9a-f]{24}$/, 'is not a media id');
const photoTitle = shownText().trim().min(1, 'must not be empty').max(PHOTO_TITLE_MAX);

/** photo/upload: the uploaded images (each a finished upload) with their alt text, and the post's metadata. */
export const photoUploadBody = z
  .object({
    title: photoTitle,
    description: shownText().trim().max(PHOTO_DESCRIPTION_MAX).default(''),
    images: z
      .array(
        z.object({
          mediaId,
          // Required: a photo without a description is invisible to someone who cannot see it.
          alt: shownText().trim().min(1, 'describe the image for people who cannot see it').max(PHOTO_ALT_MAX),
        }),
      )
      .min(1, 'at least one image')
      .max(PHOTO_MAX_IMAGES, `at most ${PHOTO_MAX_IMAGES} images`),
    tags: z.array(positiveId).max(MAX_TAGS_PER_PHOTO).default([]),
    copyright: z.enum(COPYRIGHTS),
    originalAuthor: shownText().trim().max(100).nullish(),
    /** Keep the camera's make, model, lens and exposure (shown under the photo); never the place or time. */
    keepCameraData: z.boolean().default(false),
  })
  .superRefine((body, ctx) => {
    if (body.copyright !== 'original' && !body.originalAuthor)
      ctx.addIssue({ code: 'custom', path: ['originalAuthor'], message: 'a repost names its original author' });
    const ids = body.images.map((i) => i.mediaId);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', path: ['images'], message: 'each image is a different file' });
  });
export type PhotoUploadBody = z.input<typeof photoUploadBody>;
export const photoUploadResponse = z.object({ success: z.literal(true), photoId: z.number() });

export const photoIdQuery = z.object({ photoId: positiveId });
export const photoIdBody = z.object({ photoId: positiveId });
/** photo/pending/rejected: the reviewer's reason and note, which the uploader reads on their own Photos tab. */
export const photoRejectBody = photoIdBody
  .extend(reviewRejection)
  .refine(noteNeededWithOther, { path: ['note'], message: 'say why when the reason is OTHER' });

/** One rendered image: widths available (each as AVIF, WebP and JPEG under `base`), its size and placeholder. */
export const photoImageSchema = z.object({
  imageId: z.number(),
  alt: z.string(),
  width: z.number(),
  height: z.number(),
  /** `${base}/${width}.${avif|webp|jpg}`; empty while the post is processing. */
  base: z.string(),
  widths: z.array(z.number()),
  /** No AVIF for an animation (WebP moves, the JPEG is its first frame). */
  animated: z.boolean(),
  placeholder: z.string(),
  camera: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
});
export type PhotoImage = z.infer<typeof photoImageSchema>;

/** A post in a list: its first image as the cover. */
export const photoThumbSchema = z.object({
  photoId: z.number(),
  title: z.string(),
  uploadDate: z.number(),
  uploaderId: z.number(),
  uploader: z.string(),
  uploaderNickname: z.string().nullable(),
  imageCount: z.number(),
  cover: photoImageSchema.nullable(),
  /** Only in the uploader's own list and the review queue. */
  status: z.enum(PHOTO_STATES).optional(),
  /** Only in the uploader's own list, for a post a reviewer refused (status 'rejected'). */
  rejectionReason: z.enum(REVIEW_REJECTION_REASONS).optional(),
  rejectionNote: rejectionNote.optional(),
});
export type PhotoThumb = z.infer<typeof photoThumbSchema>;
export const photoListResponse = blockFlags.extend({
  success: z.literal(true),
  photosCount: z.number(),
  photos: z.array(photoThumbSchema),
});
export type PhotoListResponse = z.infer<typeof photoListResponse>;

export const photoDetailSchema = z.object({
  photoId: z.number(),
  title: z.string(),
  description: z.string(),
  uploadDate: z.number(),
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().nullable(),
  status: z.enum(PHOTO_STATES),
  /** Why processing failed (one of PHOTO_REFUSALS, or CORRUPT). */
  failure: z.string().nullable(),
  images: z.array(photoImageSchema),
  tags: z.array(tagSchema),
  uploaderInfo: uploaderInfoSchema,
});
export type PhotoDetail = z.infer<typeof photoDetailSchema>;
export const photoResponse = blockFlags.extend({
  success: z.literal(true),
  photo: photoDetailSchema,
  ...likeFacts.shape,
});
export type PhotoResponse = z.infer<typeof photoResponse>;

export const pendingPhotosResponse = z.object({
  success: z.literal(true),
  photosCount: z.number(),
  photos: z.array(photoDetailSchema),
});
export type PendingPhotosResponse = z.infer<typeof pendingPhotosResponse>;
