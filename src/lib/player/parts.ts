/**
 * A video of several parts. The address names the part as ?p=N (1-based, as Bilibili's), and
 * the parts lie end to end on one timeline of the video: part k's second t is the video's
 * second (sum of the earlier parts' durations) + t. Danmaku and watch history are stored on that
 * timeline, so each part shows its own danmaku and the server's checks (a time within the
 * video's length, which is the sum of its parts) hold unchanged.
 */

import type { Storyboard } from '../api/contracts/video.ts';
import { DEFAULT_VIDEO_MANIFEST_URL, videoManifestUrl } from '../config.ts';

/** A part as the player plays it (duration in ms, from the server's probe). */
export interface PlayerPart {
  id: number;
  title: string;
  link: string | null;
  poster: string | null;
  storyboard: Storyboard | null;
  duration: number;
}

import type { PartSpan } from './part-span.ts';

/**
 * The stream the player opens for a part. The video manifest template of SPEC §7
 * (PUBLIC_VIDEO_MANIFEST_URL, `{videoId}`) names a video's default part, the first: when it is set
 * (a CDN or another host in front of the media), part 1 plays from there; otherwise, and for the
 * other parts, which the template cannot name, each part plays its own link. A part without a
 * link (not published) has no stream, whatever the template says.
 */
export function partStreamUrl(
  config: { videoManifestUrl: string },
  videoId: number,
  partIndex: number,
  link: string | null | undefined,
): string | null {
  if (!link) return null;
  if (partIndex !== 0 || config.videoManifestUrl === DEFAULT_VIDEO_MANIFEST_URL) return link;
  return videoManifestUrl(config, videoId);
}

/** The part ?p names (0-based), P1 when absent or not one of the parts. */
export function partFromSearch(search: string | URLSearchParams, count: number): number {
  const raw = (typeof search === 'string' ? new URLSearchParams(search) : search).get('p');
  const n = raw !== null && /^\d{1,4}$/.test(raw) ? Number(raw) : 1;
  return n >= 1 && n <= count ? n - 1 : 0;
}

/** The address with ?p set to this part (0-based index), other parameters kept. */
export function partSearch(href: string, index: number): string {
  const url = new URL(href);
  url.searchParams.set('p', String(index + 1));
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The part's span: its start after the earlier parts, and its length (durations in ms). */
export function partSpan(parts: ReadonlyArray<{ duration: number }>, index: number): PartSpan {
  let offset = 0;
  for (let i = 0; i < index && i < parts.length; i++) offset += parts[i].duration;
  return { offset: offset / 1000, length: (parts[index]?.duration ?? 0) / 1000, last: index >= parts.length - 1 };
}

/** The part (0-based) a time on the video's timeline lies in; the last part for anything past the end. */
export function partAt(parts: ReadonlyArray<{ duration: number }>, videoTime: number): number {
  let end = 0;
  for (const [index, part] of parts.entries()) {
    end += part.duration / 1000;
    if (videoTime < end) return index;
  }
  return Math.max(0, parts.length - 1);
}
