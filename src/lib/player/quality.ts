/**
 * Which HLS rung plays: automatic (hls.js's bandwidth estimate decides) or the viewer's chosen
 * height, remembered across videos. A video without that exact height gets the nearest rung
 * at or below it (never a heavier one than asked), else the lowest.
 */
export interface QualityLevel {
  index: number;
  height: number;
  bitrate: number;
}
export interface QualityChoice {
  auto: boolean /** A rung height (e.g. 720); 0: none chosen yet. */;
  preferred: number;
}

/** -1 for automatic, otherwise an index into `levels`. */
export function levelFor(levels: readonly QualityLevel[], choice: QualityChoice): number {
  if (choice.auto || !choice.preferred || !levels.length) return -1;
  const exact = levels.find((l) => l.height === choice.preferred);
  if (exact) return exact.index;
  const below = levels
    .filter((l) => l.height <= choice.preferred)
    .sort((a, b) => b.height - a.height || b.bitrate - a.bitrate)[0];
  return (below ?? [...levels].sort((a, b) => a.height - b.height)[0]).index;
}

/** The top rung (tallest, then heaviest): the source's own resolution (server/media/hls.ts ladderFor). */
export function topLevel(levels: readonly QualityLevel[]): QualityLevel | null {
  return levels.reduce<QualityLevel | null>(
    (top, l) => (!top || l.height > top.height || (l.height === top.height && l.bitrate > top.bitrate) ? l : top),
    null,
  );
}

/** Rungs as a menu lists them: highest first, one per height. */
export function menuLevels(levels: readonly QualityLevel[]): QualityLevel[] {
  const byHeight = new Map<number, QualityLevel>();
  for (const l of levels)
    if (!byHeight.has(l.height) || byHeight.get(l.height)!.bitrate < l.bitrate) byHeight.set(l.height, l);
  return [...byHeight.values()].sort((a, b) => b.height - a.height);
}

/** '1080p', '720p'; sources without a height show their bitrate. */
export const levelLabel = (level: Pick<QualityLevel, 'height' | 'bitrate'>) =>
  level.height ? `${level.height}p` : `${Math.round(level.bitrate / 1000)} kb/s`;
