import { call } from '../client.ts';
import { request, UPLOAD_TIMEOUT_MS } from '../http.ts';
import type { ImageUploadResponse } from '../contracts/system.ts';
import type { TagCreateBody, TagListResponse, VideoListResponse, VideoUpdateBody } from '../contracts/video.ts';
import type { VideoUploadBody } from '../contracts/upload.ts';
import { isMissing, withFallback } from './fallback.ts';
import { CALL_MESSAGES as M } from './messages.ts';

type Page = { page?: number; pageSize?: number };
const emptyList = (message: string): VideoListResponse => ({ success: false, message, videosCount: 0, videos: [] });
/** A list call that resolves to an empty list with the spec's message when it fails. */
const listOr = (message: string, list: () => Promise<VideoListResponse>) =>
  withFallback(list, emptyList(message), message);

// The home page, a video's page, a member's videos and the categories render on the server from
// the services (docs/decisions/0019-server-rendered-lists.md): the browser asks for none of those
// lists, so they have no call, and no fallback, here. Search and the history page are islands.

export function searchVideos(keyword: string | undefined, query: Page = {}) {
  if (keyword === undefined || isMissing(keyword)) return Promise.resolve(emptyList(M.noKeyword));
  return listOr(M.keywordSearchFailed, () => call('GET video/search', { keyword, ...query }));
}

export function searchVideosByTag(tagId: number[] | undefined, query: Page = {}) {
  if (tagId === undefined || isMissing(tagId)) return Promise.resolve(emptyList(M.noTagId));
  return listOr(M.tagSearchFailed, () => call('POST video/search/tag', { tagId, ...query }));
}

export function getTags(tagId: number[] | undefined) {
  const empty = (message: string): TagListResponse => ({ success: false, message, result: [] });
  if (tagId === undefined || isMissing(tagId)) return Promise.resolve(empty(M.noTagId));
  return withFallback<TagListResponse>(
    () => call('POST video/tag/get', { tagId }),
    empty(M.getTagFailed),
    M.getTagFailed,
  );
}

// Calls whose failure the caller shows (they throw HttpError with the server's code and message).
export const searchTags = (tagName: string) => call('GET video/tag/search', { tagName });
export const createTag = (body: TagCreateBody) => call('POST video/tag/create', body);
export const commitVideo = (body: VideoUploadBody) => call('POST video/upload', body);
export const getMediaStatus = (mediaId: string) => call('GET video/media/status', { mediaId });
export const getPendingVideos = (query: { page: number; pageSize: number }, headers?: HeadersInit) =>
  call('GET video/pending', query, { headers });
export const approvePendingVideo = (videoId: number) => call('POST video/pending/approved', { videoId });
export const deleteVideo = (videoId: number) => call('DELETE video/delete', { videoId });
export const getMyVideos = (query: { page: number; pageSize: number }) => call('GET video/mine', query);
export const updateVideo = (body: VideoUpdateBody) => call('POST video/update', body);
export const countWatch = (videoId: number) => call('POST video/watch', { videoId });

/**
 * Gets a signed URL from video/cover/preUpload and uploads the (browser-cropped, 16:9) cover
 * to our image service with the 60000 ms timeout. Answers the cover's URL, or false (logged).
 */
export async function uploadCover(image: Blob): Promise<string | false> {
  try {
    const { result } = await call('GET video/cover/preUpload');
    const form = new FormData();
    form.set('file', image, 'cover');
    // The signed address is absolute and carries its own query: not a call of the table's client.
    const { url } = await request<ImageUploadResponse>(result.signedUrl, {
      method: 'POST',
      body: form,
      base: '',
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
    return url;
  } catch (error) {
    console.error('cover upload failed', error);
    return false;
  }
}
