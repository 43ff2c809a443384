/** Danmaku, comments and history calls (they throw HttpError; the islands show the message). */
import { request } from '../http.ts';
import type {
  CommentEmitResponse, CommentListResponse, CommentVoteResponse, DanmakuEmitBody, DanmakuEmitResponse, DanmakuListResponse, HistoryListResponse,
} from '../contract.ts';

export const getDanmaku = (videoId: number, segment?: number) => request<DanmakuListResponse>('video/danmaku', { query: { videoId, segment } });
export const emitDanmaku = (body: DanmakuEmitBody) => request<DanmakuEmitResponse>('video/danmaku/emit', { method: 'POST', body });

export const getComments = (videoId: number, page: number, pageSize: number) =>
  request<CommentListResponse>('video/comment', { query: { videoId, page, pageSize } });
export const emitComment = (videoId: number, text: string) => request<CommentEmitResponse>('video/comment/emit', { method: 'POST', body: { videoId, text } });
export const voteComment = (kind: 'upvote' | 'downvote', videoId: number, id: number, cancel = false) =>
  request<CommentVoteResponse>(`video/comment/${kind}${cancel ? '/cancel' : ''}`, { method: cancel ? 'DELETE' : 'POST', body: { videoId, id } });
export const deleteComment = (videoId: number, commentRoute: string, asAdmin: boolean) =>
  request<{ success: true }>(`video/comment/${asAdmin ? 'adminDeleteComment' : 'deleteSelfComment'}`, { method: 'DELETE', body: { videoId, commentRoute } });

export const recordHistory = (videoId: number, anchor: number, options: { keepalive?: boolean } = {}) =>
  request<{ success: true; recorded: boolean }>('history/record', { method: 'POST', body: { videoId, anchor }, keepalive: options.keepalive });
export const getHistoryAnchor = (videoId: number) => request<{ success: true; anchor: number | null }>('history/anchor', { query: { videoId } });
export const filterHistory = (videoTitle?: string) => request<HistoryListResponse>('history/filter', { query: { videoTitle: videoTitle?.trim() || undefined } });
export const clearHistory = () => request<{ success: true }>('history/clear', { method: 'DELETE' });
