/**
 * Requests under /media/: the manifest alias, who may read the file (media-access.ts), and the
 * answer: the file, a redirect to the public address, or 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RepositoryCaches } from '../repositories/caches.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Catalogue } from '../services/catalogue.ts';
import { aliasedCacheControl, createMediaAccess, privateCacheControl } from './media-access.ts';
import type { MediaStore } from './media-store.ts';
import { hlsPath } from './pipeline.ts';

/**
 * The manifest URL template (/media/videos/{videoId}/…) names a video; its files live under
 * the first part's media folder. Approved videos only; other media paths pass unchanged.
 */
function createManifestAlias(catalogue: Pick<Catalogue, 'mainMediaId'>) {
  return async (path: string): Promise<string | null> => {
    const match = /^\/videos\/(\d{1,15})\/(.+)$/.exec(path);
    if (!match) return path;
    const mediaId = await catalogue.mainMediaId(Number(match[1]));
    return mediaId ? `/${hlsPath(mediaId)}/${match[2]}` : null;
  };
}

export interface MediaServerOptions {
  /** The root's repositories, whose sessions and photos share its caches. */
  repositories: Pick<Repositories, 'sessions' | 'media' | 'photos'>;
  /** The server's caches (media states), forgotten by the repositories' reviews and deletions. */
  caches: Pick<RepositoryCaches, 'mediaStates'>;
  catalogue: Pick<Catalogue, 'mainMediaId'>;
  media: MediaStore;
  /** MEDIA_PUBLIC_BASE_URL: public files are redirected there. */
  publicBaseUrl: string | null | undefined;
}

/** Answers one media request (`path` without the /media prefix); rejects only on a failure to report. */
export function createMediaServer(options: MediaServerOptions) {
  const { media, publicBaseUrl } = options;
  const manifestAlias = createManifestAlias(options.catalogue);
  const mediaAccess = createMediaAccess(options.repositories, options.caches);
  /** The file if this viewer may read it; false answers 404. */
  const serveFile = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const file = await manifestAlias(path);
    const access = file === null ? null : await mediaAccess(file, req.headers.cookie);
    if (file === null || !access) return false;
    if (access === 'public' && publicBaseUrl && (req.method === 'GET' || req.method === 'HEAD')) {
      // Read from the public address instead (a CDN or the bucket); HLS players resolve the
      // playlists' relative segment names against it. Briefly cached: a video taken down stops
      // being redirected within minutes (its files stay at that address until purged there).
      res.writeHead(302, { Location: publicBaseUrl + file.slice(1), 'Cache-Control': 'public, max-age=300' }).end();
      return true;
    }
    const cacheControl =
      access === 'private' ? privateCacheControl(file) : file !== path ? aliasedCacheControl(file) : null;
    return media.serve(req, res, file.slice(1), cacheControl ? { 'Cache-Control': cacheControl } : {});
  };
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    // Not stored by shared caches: the same path may be there for its uploader, or later.
    if (!(await serveFile(req, res, path)))
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Not Found');
  };
}
