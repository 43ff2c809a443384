import type { PhotoSiteLocals, SitePage } from './photo-locals.ts';
import type { SearchSiteLocals } from './search-locals.ts';
import type { FeedSiteLocals } from './feed-locals.ts';

export type { SitePage };

/** What the on-demand pages may ask the server while rendering (handed in as Astro locals). */
export interface SiteViewer {
  uid: number;
  roles: string[];
}

export interface SiteLocals extends PhotoSiteLocals, SearchSiteLocals, FeedSiteLocals {
  /** Development shows stacks on the generic 500 page; production never does. */
  isDevelopment: boolean;
  /** The logged-in user behind a request's session cookies, or null. */
  viewer(request: Request): Promise<SiteViewer | null>;
  /**
   * Whom a public list is for: `viewerUid`, the logged-in viewer's uid when they blocked or hid
   * uploaders or tags (the list leaves those out, as the API's lists do, and the page is
   * personal), else null; `member`, whether anyone is logged in (their browser must not reuse a
   * page kept from before they blocked someone).
   */
  listViewer(request: Request): Promise<{ viewerUid: number | null; member: boolean }>;
  videoExists(videoId: number): Promise<boolean>;
  publicUser(uid: number): Promise<import('../../src/lib/api/contracts/user.ts').PublicProfile | null>;
  /** One video as video?videoId answers it for this request's viewer (pending: uploader and staff only). */
  video(videoId: number, request: Request): Promise<import('../../src/lib/api/contracts/video.ts').VideoDetail | null>;
  /** The video sitemap's files that hold videos, each with its newest change (see SITEMAP_VIDEOS_PER_FILE). */
  sitemapVideoFiles(): Promise<Array<{ file: number; updated: Date }>>;
  /** The approved videos of one video sitemap file, by id; empty for a file with none. */
  sitemapVideos(file: number): Promise<Array<{ videoId: number; updated: Date }>>;
  /** A collection and a page of its videos as collection/get answers it for this request's viewer; null when not found (or someone else's private one). */
  collection(
    collectionId: number,
    request: Request,
    page: SitePage,
  ): Promise<import('../../src/lib/api/contracts/collection.ts').CollectionGetResponse | null>;
  /** The discovery pages' lists: the same answers as video/home, video/category and video/user. */
  homeVideos(page: SitePage): Promise<SiteVideoList>;
  categoryVideos(
    category: import('../../src/lib/api/contracts/video.constants.ts').VideoCategory,
    page: SitePage,
  ): Promise<SiteVideoList>;
  /** The uploader (by this request's session) also sees their pending videos, marked with status. */
  userVideos(uid: number, request: Request, page: SitePage): Promise<SiteVideoList>;
  /** The audio section: one track as audio?audioId answers it for this request's viewer, the /audio lists, a user's tracks, the sitemap's. */
  audio(audioId: number, request: Request): Promise<import('../../src/lib/api/contracts/audio.ts').AudioDetail | null>;
  audioHome(
    sort: import('../../src/lib/api/contracts/audio.constants.ts').AudioSort,
    page: SitePage,
  ): Promise<SiteAudioList>;
  userAudio(uid: number, request: Request, page: SitePage): Promise<SiteAudioList>;
  /** The audio sitemap's files that hold tracks, each with its newest change (paged as the video sitemap). */
  sitemapAudioFiles(): Promise<Array<{ file: number; updated: Date }>>;
  /** The approved tracks of one audio sitemap file, by id; empty for a file with none. */
  sitemapAudio(file: number): Promise<Array<{ audioId: number; updated: Date }>>;
  /** Whether the first-run page is open (no administrator yet, its token not spent). */
  firstRunOpen(): Promise<boolean>;
}
export interface SiteAudioList {
  count: number;
  tracks: import('../../src/lib/api/contracts/audio.ts').AudioThumb[];
}
export interface SiteVideoList {
  videosCount: number;
  videos: import('../../src/lib/api/contracts/video.ts').VideoThumb[];
}
