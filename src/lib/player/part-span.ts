/**
 * A part's place on its video's timeline, and times moved between the two: what the history and
 * the danmaku overlay need of parts (kept apart from parts.ts, whose stream addresses they do not
 * need, so the audio player, whose track is one part, carries only this).
 */
/** Where a part lies on the video's timeline, in seconds; the last part also owns anything past its end. */
export interface PartSpan {
  offset: number;
  length: number;
  last: boolean;
}

/** A time on the video's timeline as a time in the part, or null when it lies in another part. */
export function timeInPart(videoTime: number, span: PartSpan): number | null {
  const local = videoTime - span.offset;
  return local >= 0 && (span.last || local < span.length) ? local : null;
}

/**
 * A time in the part as a time on the video's timeline, kept inside the part (players report the
 * last frame a hair past the probed length, which would land on the next part).
 */
export function videoTimeOf(partTime: number, span: PartSpan): number {
  const inside =
    span.length > 0 && !span.last
      ? Math.min(Math.max(0, partTime), Math.max(0, span.length - 0.05))
      : Math.max(0, partTime);
  return span.offset + inside;
}
