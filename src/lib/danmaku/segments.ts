/**
 * Danmaku arrive in segments of the video (video/danmaku?segment): the one playing is loaded
 * when playback reaches it, and the next one a little before its start, so comments are there
 * on time without loading a long video's whole pool at once.
 */
export const PRELOAD_SECONDS = 30;

/** The segments that should be loaded at video time `time` (in order, without those loaded). */
export function segmentsToLoad(
  time: number,
  segmentSeconds: number,
  segmentCount: number,
  loaded: ReadonlySet<number>,
): number[] {
  if (!(segmentSeconds > 0)) return [];
  const current = Math.max(0, Math.floor(time / segmentSeconds));
  const wanted = [current];
  if (time - current * segmentSeconds > segmentSeconds - PRELOAD_SECONDS) wanted.push(current + 1);
  return wanted.filter((s) => s < segmentCount && !loaded.has(s));
}
