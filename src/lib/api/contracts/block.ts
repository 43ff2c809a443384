/** Block lists (SPEC §7 "Block"; fields and limits from API-NOTES). */
import { z } from 'zod';
import { BLOCK_KEYWORD_MAX, BLOCK_LIST_TYPES, BLOCK_REGEX_MAX } from '../../validation/block-lists.ts';
import { positiveId, shownText } from './common.ts';
import { tagSchema } from './video.ts';

const blockText = (max: number) =>
  shownText()
    .transform((t) =>
      t
        .normalize('NFC')
        .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
        .trim(),
    )
    .refine((t) => t.length >= 1, 'must not be empty')
    .refine((t) => [...t].length <= max, `at most ${max} characters`);
export const blockUserBody = z.object({ blockUid: positiveId });
export const hideUserBody = z.object({ hideUid: positiveId });
export const blockTagBody = z.object({ tagId: positiveId });
export const blockKeywordBody = z.object({ blockKeyword: blockText(BLOCK_KEYWORD_MAX) });
export const blockRegexBody = z.object({ blockRegex: blockText(BLOCK_REGEX_MAX) });
export type BlockBodySchema =
  | typeof blockUserBody
  | typeof hideUserBody
  | typeof blockTagBody
  | typeof blockKeywordBody
  | typeof blockRegexBody;
export const blockListQuery = z.object({
  type: z.enum(BLOCK_LIST_TYPES),
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(1).max(500).default(50),
});
export const blockListItem = z.object({
  type: z.enum(BLOCK_LIST_TYPES),
  /** The uid, tag id, keyword or expression, as text. */
  value: z.string(),
  createDateTime: z.number(),
  /** Users (block, hide): who. */
  uid: z.number().nullable(),
  username: z.string().nullable(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  /** Tags: the tag with its names. */
  tag: tagSchema.nullable(),
});
export type BlockListItem = z.infer<typeof blockListItem>;
export const blockListResponse = z.object({
  success: z.literal(true),
  blocklistCount: z.number(),
  limit: z.number(),
  result: z.array(blockListItem),
});
export type BlockListResponse = z.infer<typeof blockListResponse>;
/** A block call's answer; `added` is false when the entry was already there (idempotent). */
export const blockChangeResponse = z.object({
  success: z.literal(true),
  added: z.boolean().optional(),
  removed: z.boolean().optional(),
});
export type BlockChangeResponse = z.infer<typeof blockChangeResponse>;
