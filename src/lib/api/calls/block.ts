/** SPEC §7 "Block" calls (they throw HttpError with the server's code and message). */
import { call, type ApiOutput } from '../client.ts';
import type { BlockListType } from '../../validation/block-lists.ts';

export const getBlockList = (type: BlockListType, page = 1, pageSize = 50) =>
  call('GET block/list', { type, page, pageSize });

export const blockUser = (blockUid: number) => call('POST block/user', { blockUid });
export const unblockUser = (blockUid: number) => call('DELETE block/delete/user', { blockUid });
export const hideUser = (hideUid: number) => call('POST block/hideuser', { hideUid });
export const unhideUser = (hideUid: number) => call('DELETE block/delete/hideuser', { hideUid });
export const blockTag = (tagId: number) => call('POST block/tag', { tagId });
export const unblockTag = (tagId: number) => call('DELETE block/delete/tag', { tagId });
export const blockKeyword = (blockKeyword: string) => call('POST block/keyword', { blockKeyword });
export const unblockKeyword = (blockKeyword: string) => call('DELETE block/delete/keyword', { blockKeyword });
export const blockRegex = (blockRegex: string) => call('POST block/regex', { blockRegex });
export const unblockRegex = (blockRegex: string) => call('DELETE block/delete/regex', { blockRegex });

/** Adds or removes an entry of any list by its value as the list shows it (uids and tag ids as text). */
export function changeBlockList(
  type: BlockListType,
  value: string,
  add: boolean,
): Promise<ApiOutput<'POST block/user'>> {
  switch (type) {
    case 'block':
      return add ? blockUser(Number(value)) : unblockUser(Number(value));
    case 'hide':
      return add ? hideUser(Number(value)) : unhideUser(Number(value));
    case 'tag':
      return add ? blockTag(Number(value)) : unblockTag(Number(value));
    case 'keyword':
      return add ? blockKeyword(value) : unblockKeyword(value);
    case 'regex':
      return add ? blockRegex(value) : unblockRegex(value);
  }
}
