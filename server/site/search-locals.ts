import type { Services } from '../services/index.ts';
import { issuesOf, type FieldIssue } from '../domain/errors.ts';
import { searchQuery, tagSearchVideosBody, type Tag, type VideoThumb } from '../../src/lib/api/contracts/video.ts';
import type { AudioThumb } from '../../src/lib/api/contracts/audio.ts';
import type { PhotoThumb } from '../../src/lib/api/contracts/photo.ts';
import { stripControlCharacters } from '../../src/lib/validation/text.ts';

/**
 * /search as the API answers it, for the page's first render: `keyword` (video/search) or `tagIds`
 * (video/search/tag and video/tag/get), with the tracks (audio/search, when `trackRow`) and the
 * photo posts (photo/search or photo/search/tag) shown beside the videos; `viewerUid` from
 * SiteLocals.listViewer.
 */
export interface SiteSearchQuery {
  keyword: string;
  tagIds: number[];
  page: number;
  pageSize: number;
  viewerUid: number | null;
  /** How many tracks to show (by the keyword, else by the first tag; 0: no row) and photo posts. */
  trackRow: number;
  photoRow: number;
}
export type SiteSearch =
  | { issues: FieldIssue[] }
  | {
      videosCount: number;
      videosCountEstimated?: true;
      videos: VideoThumb[];
      tags: Tag[];
      tracks: AudioThumb[] | null;
      photos: { photosCount: number; photos: PhotoThumb[] } | null;
    };

export interface SearchSiteLocals {
  /**
   * Refused with the API's issues when video/search or video/search/tag would refuse the query
   * (control characters stripped first, as from any query string). The tracks and photo posts
   * are null when they could not be had (the page's island asks for them).
   */
  search(query: SiteSearchQuery): Promise<SiteSearch>;
}

export function searchSiteLocals(
  services: Pick<Services, 'catalogue' | 'audio' | 'photos'>,
  onSideFailure: (what: string, error: unknown) => void,
): SearchSiteLocals {
  const { catalogue, audio, photos } = services;
  /** A row beside the videos: without it the results still show. */
  const beside = <T>(what: string, asked: Promise<T>): Promise<T | null> =>
    asked.catch((error: unknown) => {
      onSideFailure(what, error);
      return null;
    });
  return {
    async search({ keyword, tagIds, page, pageSize, viewerUid, trackRow, photoRow }) {
      const parsed = keyword
        ? searchQuery.safeParse({ keyword: stripControlCharacters(keyword), page, pageSize })
        : tagSearchVideosBody.safeParse({ tagId: tagIds, page, pageSize });
      if (!parsed.success) return { issues: issuesOf(parsed.error) };
      const paging = { page: parsed.data.page, pageSize: parsed.data.pageSize, viewerUid };
      const photoPage = { page: 1, pageSize: photoRow, viewerUid };
      const words = 'keyword' in parsed.data ? parsed.data.keyword : null;
      const ids = 'tagId' in parsed.data ? parsed.data.tagId : [];
      const [list, tags, trackList, photoList] = await Promise.all([
        words !== null ? catalogue.search(words, paging) : catalogue.byTags(ids, paging),
        ids.length ? catalogue.tags.tagsById([...new Set(ids)]) : Promise.resolve([]),
        trackRow
          ? beside(
              'search tracks',
              audio
                .search(words !== null ? { keyword: words } : { tagId: ids[0] }, {
                  page: 1,
                  pageSize: trackRow,
                  viewerUid,
                })
                .then((r) => r.tracks),
            )
          : Promise.resolve([]),
        beside('search photos', words !== null ? photos.search(words, photoPage) : photos.byTags(ids, photoPage)),
      ]);
      return {
        ...list,
        tags: ids.flatMap((id) => tags.find((tag) => tag.tagId === id) ?? []),
        tracks: trackList,
        photos: photoList,
      };
    },
  };
}
