import { atom } from 'nanostores';
import { getBlockList } from '../api/calls/block.ts';
import type { BlockListItem } from '../api/contracts/block.ts';
import type { BlockListType } from '../validation/block-lists.ts';

/**
 * What the logged-in viewer chose not to see (SPEC §7 "Block"), shared by the player (danmaku
 * keywords and expressions), the comment list and the block-and-hide settings page. The server
 * applies the user and tag lists to what it sends; the browser applies keywords and expressions.
 */
export interface BlockLists {
  users: number[];
  hiddenUsers: number[];
  tagIds: number[];
  keywords: string[];
  regexes: string[];
}

export const EMPTY_BLOCK_LISTS: BlockLists = { users: [], hiddenUsers: [], tagIds: [], keywords: [], regexes: [] };
export const $blockLists = atom<BlockLists>(EMPTY_BLOCK_LISTS);

/** The largest list (500 blocked users) fits in one page. */
const ONE_PAGE = { page: 1, pageSize: 500 };

async function listOf(type: BlockListType): Promise<BlockListItem[]> {
  const { result } = await getBlockList(type, ONE_PAGE.page, ONE_PAGE.pageSize);
  return result;
}

/** Loads the viewer's lists (call once logged in); on failure the lists stay as they were. */
export async function loadBlockLists(): Promise<BlockLists> {
  try {
    const [block, hide, tag, keyword, regex] = await Promise.all(
      (['block', 'hide', 'tag', 'keyword', 'regex'] as const).map(listOf),
    );
    const lists: BlockLists = {
      users: block.map((i) => i.uid ?? Number(i.value)),
      hiddenUsers: hide.map((i) => i.uid ?? Number(i.value)),
      tagIds: tag.map((i) => i.tag?.tagId ?? Number(i.value)),
      keywords: keyword.map((i) => i.value),
      regexes: regex.map((i) => i.value),
    };
    $blockLists.set(lists);
  } catch (error) {
    console.warn('block lists could not be loaded', error);
  }
  return $blockLists.get();
}
