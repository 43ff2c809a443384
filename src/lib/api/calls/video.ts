import { request, UPLOAD_TIMEOUT_MS } from '../http.ts';
import type {
  CoverPreUploadResponse, ImageUploadResponse, MediaStatusResponse, PendingVideosResponse, TagCreateBody, TagCreateResponse, TagListResponse,
  TagSearchResponse, VideoCategory, VideoExistsResponse, VideoListResponse, VideoResponse, VideoUploadBody, VideoUploadResponse, WatchResponse,
} from '../contract.ts';
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

export function getUserVideos(uid: number | undefined, headers?: HeadersInit, query: { page?: number; pageSize?: number } = {}) {
  if (isMissing(uid)) return Promise.resolve(emptyList(M.noUid));
  return withFallback(() => request<VideoListResponse>('video/user', { query: { uid, ...query }, headers }), emptyList(M.userVideosFailed), M.userVideosFailed);
}

export function getCategoryVideos(category: VideoCategory, query: { page?: number; pageSize?: number } = {}) {
  return withFallback(() => request<VideoListResponse>('video/category', { query: { category, ...query } }), emptyList(M.homeVideosFailed), M.homeVideosFailed);
}

export function searchVideos(keyword: string | undefined, query: { page?: number; pageSize?: number } = {}) {
  if (isMissing(keyword)) return Promise.resolve(emptyList(M.noKeyword));
  return withFallback(() => request<VideoListResponse>('video/search', { query: { keyword, ...query } }), emptyList(M.keywordSearchFailed), M.keywordSearchFailed);
}

export function searchVideosByTag(tagId: number[] | undefined, query: { page?: number; pageSize?: number } = {}) {
  if (isMissing(tagId)) return Promise.resolve(emptyList(M.noTagId));
  return withFallback(() => request<VideoListResponse>('video/search/tag', { method: 'POST', body: { tagId, ...query } }), emptyList(M.tagSearchFailed), M.tagSearchFailed);
}

export function getTags(tagId: number[] | undefined) {
  const empty = (message: string): TagListResponse => ({ success: false, message, result: [] });
  if (isMissing(tagId)) return Promise.resolve(empty(M.noTagId));
  return withFallback(() => request<TagListResponse>('video/tag/get', { method: 'POST', body: { tagId } }), empty(M.getTagFailed), M.getTagFailed);
}

// Calls whose failure the caller shows (they throw HttpError with the server's code and message).
export const searchTags = (tagName: string) => request<TagSearchResponse>('video/tag/search', { query: { tagName } });
export const createTag = (body: TagCreateBody) => request<TagCreateResponse>('video/tag/create', { method: 'POST', body });
export const commitVideo = (body: VideoUploadBody) => request<VideoUploadResponse>('video/upload', { method: 'POST', body });
export const getMediaStatus = (mediaId: string) => request<MediaStatusResponse>('video/media/status', { query: { mediaId } });
export const getPendingVideos = (query: { page: number; pageSize: number }, headers?: HeadersInit) =>
  request<PendingVideosResponse>('video/pending', { query, headers });
export const approvePendingVideo = (videoId: number) => request<{ success: true }>('video/pending/approved', { method: 'POST', body: { videoId } });
export const deleteVideo = (videoId: number) => request<{ success: true }>('video/delete', { method: 'DELETE', body: { videoId } });
export const countWatch = (videoId: number) => request<WatchResponse>('video/watch', { method: 'POST', body: { videoId } });

/**
 * Gets a signed URL from video/cover/preUpload and uploads the (browser-cropped, 16:9) cover
 * to our image service with the 60000 ms timeout. Answers the cover's URL, or false (logged).
 */
export async function uploadCover(image: Blob): Promise<string | false> {
  try {
    const { result } = await request<CoverPreUploadResponse>('video/cover/preUpload');
    const form = new FormData();
    form.set('file', image, 'cover');
    const { url } = await request<ImageUploadResponse>(result.signedUrl, { method: 'POST', body: form, base: '', timeoutMs: UPLOAD_TIMEOUT_MS });
    return url;
  } catch (error) {
    console.error('cover upload failed', error);
    return false;
  }
}
