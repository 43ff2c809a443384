/**
 * The block lists' limits (API-NOTES), in a module without zod so the settings page can show
 * them; the contract re-exports them for the server.
 */
export const BLOCK_LIST_TYPES = ['block', 'hide', 'tag', 'keyword', 'regex'] as const;
export type BlockListType = (typeof BLOCK_LIST_TYPES)[number];
/** How many entries each list holds. */
export const BLOCK_LIST_LIMITS: Record<BlockListType, number> = {
  block: 500,
  hide: 500,
  tag: 100,
  keyword: 200,
  regex: 3,
};
export const BLOCK_KEYWORD_MAX = 30;
export const BLOCK_REGEX_MAX = 30;
