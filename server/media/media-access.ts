import { posix } from 'node:path';
import { viewerFromCookies } from '../services/sessions.ts';
import type { Repositories } from '../repositories/index.ts';
import { can, type Resource } from '../../src/lib/policy/policy.ts';
import { hlsPath } from './pipeline.ts';
import { photoPath } from './paths.ts';
import type { RepositoryCaches } from '../repositories/caches.ts';
import { cacheControlFor } from '../site/static-files.ts';

/**
 * Who may read a file under the media folder: 'public' (anyone, shared caches too), 'private'
 * (this viewer only: no shared cache), or null (answered 404, as if it were not there).
 */
export type MediaAccess = 'public' | 'private' | null;

const HLS_PREFIX = `/${hlsPath('')}`; // '/hls/'
const PHOTOS_PREFIX = `/${photoPath(0).replace(/0$/, '')}`; // '/photos/'
const STATE_MS = 1000;
const MEDIA_ID = /^[0-9a-f]{24}$/;
const STATES_KEPT = 10_000;

/**
 * The rule for a media item's HLS files (renditions, poster, storyboard; a track's streams and
 * cover), which anyone can name since the poster URL shows the path: public while its video
 * (or audio track) is approved; its uploader
 * and staff only while it is not yet in a video or its video is pending (the uploader's cover
 * preview, the review queue and the pending video's page); nobody once its video is deleted.
 * Everything else under the media folder (avatars, covers) stays public.
 */
export function createMediaAccess(
  repositories: Pick<Repositories, 'sessions' | 'media' | 'photos'>,
  caches: Pick<RepositoryCaches, 'mediaStates'>,
) {
  // A playing video asks for a segment every few seconds per viewer: its media's state is read
  // once per STATE_MS, not per request. Changes made here show at once (forgetMediaAccess);
  // those made by another process, within STATE_MS.
  const states = caches.mediaStates;
  const { media: mediaRows, photos } = repositories;
  const sessions = { sessions: repositories.sessions };
  const stateOf = (mediaId: string) => {
    const now = Date.now();
    const kept = states.get(mediaId);
    if (kept && now - kept.at < STATE_MS) return kept.row;
    if (states.size >= STATES_KEPT) states.clear();
    const row = mediaRows.accessState(mediaId);
    states.set(mediaId, { at: now, row });
    row.catch(() => states.delete(mediaId));
    return row;
  };
  /** Public when anyone may see the item; private when only this viewer may (its uploader, staff); else none (a missing item too). */
  async function access(
    action: 'photo.view' | 'media.view',
    item: Resource,
    cookieHeader: string | null | undefined,
  ): Promise<MediaAccess> {
    if (item.ownerUid === undefined) return null;
    if (can(null, action, item)) return 'public';
    return can(await viewerFromCookies(sessions, cookieHeader), action, item) ? 'private' : null;
  }
  /** A photo post's images: the same rule as a video's files (public once approved; uploader and staff before; nobody once deleted). */
  async function photoAccess(id: string, cookieHeader: string | null | undefined): Promise<MediaAccess> {
    if (!/^\d{1,15}$/.test(id)) return null;
    const row = await photos.access(Number(id));
    return access('photo.view', { ownerUid: row?.uploader_uid, status: row?.status }, cookieHeader);
  }
  return async function mediaAccess(path: string, cookieHeader: string | null | undefined): Promise<MediaAccess> {
    // Decided on the path as the file server will resolve it, so `/images/../hls/…` is no way round.
    let decoded: string;
    try {
      decoded = posix.normalize(decodeURIComponent(path));
    } catch {
      return null;
    }
    if (decoded.startsWith(PHOTOS_PREFIX))
      return photoAccess(decoded.slice(PHOTOS_PREFIX.length).split('/')[0], cookieHeader);
    if (!decoded.startsWith(HLS_PREFIX)) return 'public';
    const mediaId = decoded.slice(HLS_PREFIX.length).split('/')[0];
    // Only a media id is looked up: anything else names no media (and never reaches the database).
    if (!MEDIA_ID.test(mediaId)) return null;
    const row = await stateOf(mediaId);
    return access('media.view', { ownerUid: row?.uid, status: row?.status }, cookieHeader);
  };
}

/** The file's usual cache policy, for the browser alone: a shared cache must not keep what one viewer may see. */
export const privateCacheControl = (path: string) => `private, ${cacheControlFor(path).replace(/^public, /, '')}`;

/**
 * The policy of a file reached through the video address (/media/videos/{videoId}/…), which
 * follows the video's first part: another media may take its place, so at most an hour.
 */
export const aliasedCacheControl = (path: string) => {
  const policy = cacheControlFor(path);
  return policy.includes('immutable') ? 'public, max-age=3600' : policy;
};
