/**
 * The pieces every family's contract shares: ids, shown text, pages, block and like facts, review
 * refusals. One file per family beside it (contracts/<family>.ts mirrors routes/<family>.ts), its
 * plain values in <family>.constants.ts: browser code imports types only from here, so zod never
 * reaches the bundle.
 */
import { z } from 'zod';
import { CATALOG_LOCALES } from '../../i18n/locales.ts';
import { stripInvisibleFormatting } from '../../validation/text.ts';
import { MEDIA_TYPES, REVIEW_NOTE_MAX, REVIEW_REJECTION_REASONS } from './common.constants.ts';

/**
 * Text people read (titles, descriptions, danmaku, comments, signatures, tags): bidi controls and
 * zero-width characters removed before any other rule (src/lib/validation/text.ts), so a limit
 * counts what shows and nothing stored reverses or hides what is shown around it.
 */
export const shownText = () => z.string().overwrite(stripInvisibleFormatting);

/**
 * Positive integer ids (KVID, UID) up to 2^53-1: a JSON number in a body; in a query string,
 * digits alone (the route middleware turns them into the number: src/lib/api/wire.ts).
 */
export const positiveId = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(Number.MAX_SAFE_INTEGER, 'is out of range');

/** Block flags that video and user responses carry (SPEC §3). */
/** What the video, track and photo answers add: the count for everyone, `isLiked` for a member. */
export const likeFacts = z.object({ likeCount: z.number(), isLiked: z.boolean().optional() });
export const blockFlags = z.object({
  isBlockedByOther: z.boolean().optional(),
  isBlocked: z.boolean().optional(),
  isHidden: z.boolean().optional(),
});

/** The answer of a call that only succeeds or fails. */
export const okResponse = z.object({ success: z.literal(true) });

export const httpUrl = z
  .string()
  .trim()
  .max(500)
  .url('must be a web address')
  .refine((url) => /^https?:\/\//i.test(url), 'must start with http:// or https://');
/**
 * A reviewer's refusal of an item in a review queue: one of the review reasons and a note for
 * the uploader (needed with OTHER, which names nothing by itself).
 */
export const reviewRejection = {
  reason: z.enum(REVIEW_REJECTION_REASONS),
  note: shownText()
    .transform((t) => t.normalize('NFC').replace(/\r\n?/g, '\n').trim())
    .pipe(z.string().max(REVIEW_NOTE_MAX))
    .default(''),
};
export const noteNeededWithOther = (body: { reason: string; note: string }) =>
  body.reason !== 'OTHER' || body.note.length > 0;
export const noteNeeded = { path: ['note'], message: 'say why when the reason is OTHER' };
/** What the uploader reads of a reviewer's refusal in their own lists (null: none). */
export const rejectionNote = z.string().nullable();
export function pagedQuery() {
  return z.object({
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(30),
  });
}

/** An e-mail address and the language of the mails, as the user and account families take them. */
export const email = z.string().trim().min(3).max(254);
export const clientLanguage = z.enum(CATALOG_LOCALES).optional();
export const pageQuery = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});

// ---- Danmaku, comments and history: on a video, an audio track or a photo post ----
/** What `videoId` names in danmaku, comment and history calls; a video when absent. */
export const mediaType = z
  .enum(MEDIA_TYPES)
  .default('video')
  .describe('What the id names: a video (the default), an audio track or a photo post');
