/**
 * Subtitle tracks of a video's parts (issue 29): each a BCP 47 language, a label and a format,
 * its original file and a WebVTT made from it; and danmaku leaving and entering as Bilibili XML.
 */
import { z } from 'zod';
import { positiveId } from './common.ts';
import {
  DANMAKU_XML_MAX_BYTES,
  SUBTITLE_FORMATS,
  SUBTITLE_LABEL_MAX,
  SUBTITLE_MAX_BYTES,
  canonicalLanguageTag,
} from './subtitle.constants.ts';

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export const subtitleLanguage = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(35)
  .refine((tag) => canonicalLanguageTag(tag) !== null, 'is not a BCP 47 language tag')
  .transform((tag) => canonicalLanguageTag(tag)!);

export const subtitleCreateBody = z.object({
  videoId: positiveId,
  /** The part, counted from 1 as in the video's `parts`. */
  part: z.number().int().min(1).max(1000),
  language: subtitleLanguage,
  label: z.string().trim().min(1, 'must not be empty').max(SUBTITLE_LABEL_MAX),
  format: z.enum(SUBTITLE_FORMATS),
  text: z
    .string()
    .min(1, 'must not be empty')
    .refine((text) => utf8Bytes(text) <= SUBTITLE_MAX_BYTES, 'is larger than 4 MB'),
});
export const subtitleSchema = z.object({
  id: positiveId,
  part: z.number(),
  language: z.string(),
  label: z.string(),
  format: z.enum(SUBTITLE_FORMATS),
  /** The file as uploaded. */
  url: z.string(),
  /** The same lines as WebVTT (ASS as plain cues). */
  vttUrl: z.string(),
  /** An ASS track's fonts: those attached to its part's uploaded MKV that its lines name, which the renderer loads with it (none for SRT and WebVTT). */
  fonts: z.array(z.string()),
  /**
   * An ASS track's own cut of the site's fallback font, holding only the characters its lines use,
   * which the renderer loads instead of the whole one; null for SRT and WebVTT, and for tracks
   * added before such cuts were made (the renderer then loads the whole fallback).
   */
  fallbackFont: z.string().nullable(),
});
export type Subtitle = z.infer<typeof subtitleSchema>;
export const subtitleCreateResponse = z.object({ success: z.literal(true), subtitle: subtitleSchema });
export const subtitleListQuery = z.object({ videoId: positiveId });
export const subtitleListResponse = z.object({ success: z.literal(true), subtitles: z.array(subtitleSchema) });
export const subtitleIdBody = z.object({ id: positiveId });
export const subtitleDoneResponse = z.object({ success: z.literal(true) });

// ---- Danmaku in and out (Bilibili XML, danmaku2ass-style ASS) ----
export const danmakuExportQuery = z.object({ videoId: positiveId, format: z.enum(['xml', 'ass']).default('xml') });
/** The file itself is the answer (application/xml or text/x-ssa); this schema documents nothing more. */
export const danmakuExportResponse = z.string();
export const danmakuImportBody = z.object({
  videoId: positiveId,
  xml: z
    .string()
    .min(1, 'must not be empty')
    .refine((text) => utf8Bytes(text) <= DANMAKU_XML_MAX_BYTES, 'is larger than 5 MB'),
});
export const danmakuImportResponse = z.object({ success: z.literal(true), imported: z.number(), skipped: z.number() });
