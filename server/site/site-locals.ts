/**
 * What the on-demand pages ask the server (SiteLocals, handed in as Astro locals), over the
 * services the API uses: each answer as the API's own call gives it to that viewer.
 */
import type { Logger } from '../logger.ts';
import type { Services } from '../services/index.ts';
import { DomainError } from '../domain/errors.ts';
import type { SiteLocals } from './locals.ts';
import { photoSiteLocals } from './photo-locals.ts';
import { searchSiteLocals } from './search-locals.ts';
import { feedSiteLocals } from './feed-locals.ts';

export function createSiteLocals(
  services: Services,
  options: { isDevelopment: boolean; sitemapVideosPerFile: number; logger: Logger },
): SiteLocals {
  const { catalogue, sessions } = services;
  const { sitemapVideosPerFile, logger } = options;
  const viewerOf = (request: Request) => sessions.viewerFromCookies(request.headers.get('cookie'));
  return {
    isDevelopment: options.isDevelopment,
    viewer: viewerOf,
    listViewer: async (request) => {
      const viewer = await viewerOf(request);
      if (!viewer) return { viewerUid: null, member: false };
      return { viewerUid: (await services.blockLists.filtersFor(viewer.uid)).videos ? viewer.uid : null, member: true };
    },
    videoExists: (id) => catalogue.videoExists(id),
    publicUser: (uid) => services.profiles.publicProfile(uid, null),
    video: async (videoId, request) => catalogue.video(videoId, await viewerOf(request)),
    collection: async (collectionId, request, page) => {
      const viewer = await viewerOf(request);
      return services.collections.get(collectionId, viewer?.uid ?? null, page).then(
        (found) => ({ success: true as const, ...found }),
        (error) => (error instanceof DomainError && error.code === 'NOT_FOUND' ? null : Promise.reject(error)),
      );
    },
    sitemapVideoFiles: () => catalogue.sitemapVideoFiles(sitemapVideosPerFile),
    sitemapVideos: (file) => catalogue.sitemapVideos(file, sitemapVideosPerFile),
    homeVideos: (page) => catalogue.home(page),
    categoryVideos: (category, page) => catalogue.byCategory(category, page),
    userVideos: async (uid, request, page) => catalogue.byUploader(uid, await viewerOf(request), page),
    audio: async (audioId, request) => services.audio.track(audioId, await viewerOf(request)),
    audioHome: (sort, page) => services.audio.home(sort, page),
    userAudio: async (uid, request, page) => services.audio.byUploader(uid, await viewerOf(request), page),
    sitemapAudioFiles: () => services.audio.sitemapFiles(sitemapVideosPerFile),
    sitemapAudio: (file) => services.audio.sitemapTracks(file, sitemapVideosPerFile),
    firstRunOpen: () => services.firstRun.open(),
    ...searchSiteLocals(services, (what, error) => logger.warn(`${what} failed`, { err: error })),
    ...feedSiteLocals(services),
    ...photoSiteLocals(services.photos, viewerOf),
  };
}
