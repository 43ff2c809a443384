import { request } from '../http.ts';
import type { TagListResponse, VideoExistsResponse, VideoListResponse, VideoResponse } from '../contract.ts';
import { isMissing, withFallback } from './fallback.ts';
import { CALL_MESSAGES as M } from './messages.ts';

const emptyList = (message: string): VideoListResponse => ({ success: false, message, videosCount: 0, videos: [] });

/** GET video/home; `headers` are passed through (SSR forwards the visitor's cookies). */
export function getHomeVideos(query: { page?: number; pageSize?: number } = {}, headers?: HeadersInit) {
  return withFallback(() => request<VideoListResponse>('video/home', { query, headers }), emptyList(M.homeVideosFailed), M.homeVideosFailed);
}

export function videoExists(videoId: number | undefined) {
  if (isMissing(videoId)) return Promise.resolve<VideoExistsResponse>({ success: false, exist: false, message: M.noKvid });
  return withFallback(
    () => request<VideoExistsResponse>('video/exists', { query: { videoId } }),
    { success: false, exist: false, message: M.videoNotFound },
    M.videoNotFound,
  );
}

export function getVideo(videoId: number | undefined, headers?: HeadersInit) {
  if (isMissing(videoId)) return Promise.resolve<VideoResponse>({ success: false, message: M.noKvid });
  return withFallback(() => request<VideoResponse>('video', { query: { videoId }, headers }), { success: false, message: M.getVideoFailed }, M.getVideoFailed);
}

export function getUserVideos(uid: number | undefined, headers?: HeadersInit) {
  if (isMissing(uid)) return Promise.resolve(emptyList(M.noUid));
  return withFallback(() => request<VideoListResponse>('video/user', { query: { uid }, headers }), emptyList(M.userVideosFailed), M.userVideosFailed);
}

export function searchVideos(keyword: string | undefined, query: { page?: number; pageSize?: number } = {}) {
  if (isMissing(keyword)) return Promise.resolve(emptyList(M.noKeyword));
  return withFallback(() => request<VideoListResponse>('video/search', { query: { keyword, ...query } }), emptyList(M.keywordSearchFailed), M.keywordSearchFailed);
}

export function searchVideosByTag(tagId: number[] | undefined) {
  if (isMissing(tagId)) return Promise.resolve(emptyList(M.noTagId));
  return withFallback(() => request<VideoListResponse>('video/search/tag', { method: 'POST', body: { tagId } }), emptyList(M.tagSearchFailed), M.tagSearchFailed);
}

export function getTags(tagId: number[] | undefined) {
  const empty = (message: string): TagListResponse => ({ success: false, message, result: [] });
  if (isMissing(tagId)) return Promise.resolve(empty(M.noTagId));
  return withFallback(() => request<TagListResponse>('video/tag/get', { method: 'POST', body: { tagId } }), empty(M.getTagFailed), M.getTagFailed);
}
