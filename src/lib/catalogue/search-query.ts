/**
 * /search's query, read the same way by the page (rendered on demand) and by its island: the query
 * lives in the address (?keyword= or ?tag=1,2, &page=, &pageSize=), so results can be shared and
 * reloaded. What the page renders first is handed to the island as `SearchInitial`.
 */
import type { Tag, VideoThumb } from '../api/contracts/video.ts';
import type { AudioThumb } from '../api/contracts/audio.ts';
import type { PhotoThumb } from '../api/contracts/photo.ts';
import { pagingFrom } from './format.ts';

export const MAX_SEARCH_TAGS = 10;
/** The tracks shown above the videos (a keyword, or one tag; first page only). */
export const SEARCH_TRACK_ROW = 12;
/** The photo posts shown under the videos. */
export const SEARCH_PHOTO_ROW = 12;

export interface SearchQuery {
  keyword: string;
  tagIds: number[];
  page: number;
  pageSize: number;
}

export function readSearchQuery(params: URLSearchParams): SearchQuery {
  const tagIds = (params.get('tag') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
    .slice(0, MAX_SEARCH_TAGS);
  return { keyword: (params.get('keyword') ?? '').trim(), tagIds, ...pagingFrom(params) };
}

export const hasSearchQuery = (query: SearchQuery) => !!query.keyword || query.tagIds.length > 0;

/** Which tracks a query shows: by its keyword, or by its only tag; none on later pages or for several tags. */
export function trackQueryOf(query: SearchQuery): { keyword: string } | { tagId: number } | null {
  if (query.page !== 1) return null;
  if (query.keyword) return { keyword: query.keyword };
  return query.tagIds.length === 1 ? { tagId: query.tagIds[0]! } : null;
}

export interface SearchPhotos {
  photosCount: number;
  photos: PhotoThumb[];
}

/**
 * What the page found before the island hydrated: nothing asked (`idle`); the results (`done`:
 * the videos, the chosen tags, and the tracks and photo posts when they could be had, else null
 * and the island asks for them); a query the API would refuse (`invalid`: its message and
 * issues); or a failure (`error`: the island offers to try again).
 */
export type SearchInitial =
  | { state: 'idle' }
  | { state: 'error' }
  | { state: 'invalid'; message: string; issues: Array<{ path: string; message: string }> }
  | {
      state: 'done';
      videosCount: number;
      /** Several words past 100 matches: the count is an estimate (shown as "about N"). */
      videosCountEstimated?: true;
      videos: VideoThumb[];
      tags: Tag[];
      tracks: AudioThumb[] | null;
      photos: SearchPhotos | null;
    };
