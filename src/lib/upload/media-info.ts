/**
 * The check before an upload: mediainfo.js (WebAssembly, served from the site root as
 * /MediaInfoModule.wasm) reads the chosen file's duration and codecs in the browser, so a file
 * that is too long or no video at all is refused before any byte is sent. The server's ffprobe
 * still decides; this only spares the visitor a useless upload. mediainfo.js is loaded on the
 * first file chosen, never with the page.
 */
import { MEDIA_INFO_WASM } from '../navigation/routes.ts';

export interface MediaFacts {
  /** Seconds; null when the container does not say. */
  duration: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  width: number | null;
  height: number | null;
}

export type LocalRefusal = 'NOT_A_VIDEO' | 'TOO_LONG';

/** Pure: what the facts refuse, or null to go on. */
export function refusalOf(facts: MediaFacts, maxDurationSeconds: number): LocalRefusal | null {
  if (!facts.videoCodec) return 'NOT_A_VIDEO';
  if (facts.duration !== null && facts.duration > maxDurationSeconds) return 'TOO_LONG';
  return null;
}

interface Track {
  '@type': string;
  Duration?: number | string;
  Format?: string;
  Width?: number | string;
  Height?: number | string;
}

/** Pure: the facts out of mediainfo's object result. */
export function factsFromTracks(tracks: readonly Track[]): MediaFacts {
  const general = tracks.find((t) => t['@type'] === 'General');
  const video = tracks.find((t) => t['@type'] === 'Video');
  const audio = tracks.find((t) => t['@type'] === 'Audio');
  const num = (value: number | string | undefined) =>
    value === undefined || value === '' || !Number.isFinite(Number(value)) ? null : Number(value);
  return {
    duration: num(general?.Duration) ?? num(video?.Duration),
    videoCodec: video?.Format ?? null,
    audioCodec: audio?.Format ?? null,
    width: num(video?.Width),
    height: num(video?.Height),
  };
}

type MediaInfoInstance = import('mediainfo.js').MediaInfo<'object'>;
let instance: Promise<MediaInfoInstance> | undefined;

/** Reads the file's facts; rejects when mediainfo cannot be loaded (the caller then lets the server judge). */
export async function readMediaFacts(file: File): Promise<MediaFacts> {
  instance ??= import('mediainfo.js').then(({ default: mediaInfoFactory }) =>
    mediaInfoFactory<'object'>({ format: 'object', locateFile: () => `/${MEDIA_INFO_WASM}` }),
  );
  let mediaInfo: MediaInfoInstance;
  try {
    mediaInfo = await instance;
  } catch (error) {
    instance = undefined;
    throw error;
  }
  const result = await mediaInfo.analyzeData(
    file.size,
    async (chunkSize, offset) => new Uint8Array(await file.slice(offset, offset + chunkSize).arrayBuffer()),
  );
  return factsFromTracks((result.media?.track ?? []) as unknown as Track[]);
}
