import type { PhotoService } from '../services/photos.ts';
import type { Actor } from '../../src/lib/policy/policy.ts';
import type { PhotoDetail, PhotoThumb } from '../../src/lib/api/contracts/photo.ts';

/** A page of a list; with `viewerUid` (from SiteLocals.listViewer), without what that viewer blocked or hid. */
export interface SitePage {
  page: number;
  pageSize: number;
  viewerUid?: number | null;
}
export interface SitePhotoList {
  photosCount: number;
  photos: PhotoThumb[];
}

/** What the photo pages ask the server while rendering (part of SiteLocals). */
export interface PhotoSiteLocals {
  /** One post as photo?photoId answers it for this request's viewer (unapproved: uploader and staff only). */
  photo(photoId: number, request: Request): Promise<PhotoDetail | null>;
  /** The same answers as photo/home and photo/user. */
  homePhotos(page: SitePage): Promise<SitePhotoList>;
  userPhotos(uid: number, request: Request, page: SitePage): Promise<SitePhotoList>;
  /** Approved posts for the sitemap (the newest `limit`). */
  sitemapPhotos(limit: number): Promise<Array<{ photoId: number; updated: Date }>>;
}

export function photoSiteLocals(
  photos: PhotoService,
  viewerOf: (request: Request) => Promise<Actor | null>,
): PhotoSiteLocals {
  return {
    photo: async (photoId, request) => photos.photo(photoId, await viewerOf(request)),
    homePhotos: (page) => photos.home(page),
    userPhotos: async (uid, request, page) => photos.byUploader(uid, await viewerOf(request), page),
    sitemapPhotos: async (limit) =>
      (await photos.sitemapPhotos(limit)).map((r) => ({ photoId: r.photo_id, updated: r.reviewed_at ?? r.created_at })),
  };
}
