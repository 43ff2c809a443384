/** SPEC §7 "Block" calls (they throw HttpError with the server's code and message). */
import { request } from '../http.ts';
import type { BlockChangeResponse, BlockListResponse, BlockListType } from '../contract.ts';

export const getBlockList = (type: BlockListType, page = 1, pageSize = 50) => request<BlockListResponse>('block/list', { query: { type, page, pageSize } });

export const blockUser = (blockUid: number) => request<BlockChangeResponse>('block/user', { method: 'POST', body: { blockUid } });
export const unblockUser = (blockUid: number) => request<BlockChangeResponse>('block/delete/user', { method: 'DELETE', body: { blockUid } });
export const hideUser = (hideUid: number) => request<BlockChangeResponse>('block/hideuser', { method: 'POST', body: { hideUid } });
export const unhideUser = (hideUid: number) => request<BlockChangeResponse>('block/delete/hideuser', { method: 'DELETE', body: { hideUid } });
export const blockTag = (tagId: number) => request<BlockChangeResponse>('block/tag', { method: 'POST', body: { tagId } });
export const unblockTag = (tagId: number) => request<BlockChangeResponse>('block/delete/tag', { method: 'DELETE', body: { tagId } });
export const blockKeyword = (blockKeyword: string) => request<BlockChangeResponse>('block/keyword', { method: 'POST', body: { blockKeyword } });
export const unblockKeyword = (blockKeyword: string) => request<BlockChangeResponse>('block/delete/keyword', { method: 'DELETE', body: { blockKeyword } });
export const blockRegex = (blockRegex: string) => request<BlockChangeResponse>('block/regex', { method: 'POST', body: { blockRegex } });
export const unblockRegex = (blockRegex: string) => request<BlockChangeResponse>('block/delete/regex', { method: 'DELETE', body: { blockRegex } });

/** Adds or removes an entry of any list by its value as the list shows it (uids and tag ids as text). */
export function changeBlockList(type: BlockListType, value: string, add: boolean): Promise<BlockChangeResponse> {
  switch (type) {
    case 'block': return add ? blockUser(Number(value)) : unblockUser(Number(value));
    case 'hide': return add ? hideUser(Number(value)) : unhideUser(Number(value));
    case 'tag': return add ? blockTag(Number(value)) : unblockTag(Number(value));
    case 'keyword': return add ? blockKeyword(value) : unblockKeyword(value);
    case 'regex': return add ? blockRegex(value) : unblockRegex(value);
  }
}
