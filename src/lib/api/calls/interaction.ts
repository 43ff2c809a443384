/** Danmaku, comments and history calls (they throw HttpError; the islands show the message). */
import { call } from '../client.ts';
import type { DanmakuEmitBody, MediaType } from '../contract.ts';

export const getDanmaku = (videoId: number, segment?: number) => call('GET video/danmaku', { videoId, segment });
export const emitDanmaku = (body: DanmakuEmitBody) => call('POST video/danmaku/emit', body);

/** Comments are on a video unless `mediaType` names an audio track or a photo post. */
export const getComments = (videoId: number, page: number, pageSize: number, mediaType: MediaType = 'video') => call('GET video/comment', { videoId, page, pageSize, mediaType });
export const emitComment = (videoId: number, text: string, mediaType: MediaType = 'video') => call('POST video/comment/emit', { videoId, text, mediaType });
/** A vote, or (cancel) taking one's own vote of that kind back. */
export const voteComment = (kind: 'upvote' | 'downvote', videoId: number, id: number, cancel = false, mediaType: MediaType = 'video') =>
  call(cancel ? `DELETE video/comment/${kind}/cancel` : `POST video/comment/${kind}`, { videoId, id, mediaType });
export const deleteComment = (videoId: number, commentRoute: string, asAdmin: boolean, mediaType: MediaType = 'video') =>
  call(asAdmin ? 'DELETE video/comment/adminDeleteComment' : 'DELETE video/comment/deleteSelfComment', { videoId, commentRoute, mediaType });

export const recordHistory = (videoId: number, anchor: number, options: { keepalive?: boolean } = {}) =>
  call('POST history/record', { videoId, anchor }, { keepalive: options.keepalive });
export const getHistoryAnchor = (videoId: number) => call('GET history/anchor', { videoId });
export const filterHistory = (videoTitle?: string) => call('GET history/filter', { videoTitle: videoTitle?.trim() || undefined });
export const clearHistory = () => call('DELETE history/clear');
