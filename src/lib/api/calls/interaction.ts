/** Danmaku, comments and history calls (they throw HttpError; the islands show the message). */
import { call } from '../client.ts';
import type { CommentSort, DanmakuEmitBody } from '../contracts/interaction.ts';
import type { MediaType } from '../contracts/common.constants.ts';

// `mediaType` names what `videoId` is (a video unless said: an audio track, a photo post).
export const getDanmaku = (videoId: number, segment?: number, mediaType: MediaType = 'video') =>
  call('GET video/danmaku', { videoId, segment, mediaType });
export const emitDanmaku = (body: DanmakuEmitBody) => call('POST video/danmaku/emit', body);

/** A page by its number, or (`edge`) the page just after or before a page's edge the last answer gave. */
export const getComments = (
  videoId: number,
  page: number,
  pageSize: number,
  mediaType: MediaType = 'video',
  sort: CommentSort = 'new',
  edge?: { after: string } | { before: string },
) => call('GET video/comment', { videoId, page, pageSize, mediaType, sort, ...edge });
/** A comment, or with `parentId` a reply to that comment. */
export const emitComment = (videoId: number, text: string, mediaType: MediaType = 'video', parentId?: number) =>
  call('POST video/comment/emit', { videoId, text, mediaType, parentId });
export const getReplies = (videoId: number, mediaType: MediaType, parentId: number, page: number, pageSize: number) =>
  call('GET video/comment/replies', { videoId, mediaType, parentId, page, pageSize });
export const getMentionCandidates = (videoId: number, mediaType: MediaType, prefix: string, parentId?: number) =>
  call('GET video/comment/mentionCandidates', { videoId, mediaType, prefix, parentId });
export const pinComment = (videoId: number, mediaType: MediaType, id: number, pinned: boolean) =>
  call('POST video/comment/pin', { videoId, mediaType, id, pinned });
export const deleteCommentAsUploader = (videoId: number, mediaType: MediaType, commentRoute: string) =>
  call('DELETE video/comment/uploaderDeleteComment', { videoId, mediaType, commentRoute });
/** Like, or (cancel) take one's like back: both answer the count as it is now. */
export const setLiked = (videoId: number, mediaType: MediaType, liked: boolean) =>
  call(liked ? 'POST video/like' : 'DELETE video/like/cancel', { videoId, mediaType });
/** A vote, or (cancel) taking one's own vote of that kind back. */
export const voteComment = (
  kind: 'upvote' | 'downvote',
  videoId: number,
  id: number,
  cancel = false,
  mediaType: MediaType = 'video',
) => call(cancel ? `DELETE video/comment/${kind}/cancel` : `POST video/comment/${kind}`, { videoId, id, mediaType });
export const deleteComment = (
  videoId: number,
  commentRoute: string,
  asAdmin: boolean,
  mediaType: MediaType = 'video',
) =>
  call(asAdmin ? 'DELETE video/comment/adminDeleteComment' : 'DELETE video/comment/deleteSelfComment', {
    videoId,
    commentRoute,
    mediaType,
  });

export const recordHistory = (
  videoId: number,
  anchor: number,
  options: { keepalive?: boolean } = {},
  mediaType: MediaType = 'video',
) => call('POST history/record', { videoId, anchor, mediaType }, { keepalive: options.keepalive });
export const getHistoryAnchor = (videoId: number, mediaType: MediaType = 'video') =>
  call('GET history/anchor', { videoId, mediaType });
export const clearHistory = () => call('DELETE history/clear');
