/**
 * Resuming from watch history: members come back where they left off, unless that was the very
 * start or the very end (then the video starts over, as people expect).
 */
export const HISTORY_INTERVAL_MS = 10_000;
/** Positions closer than this to the start or the end are not worth resuming (seconds). */
export const RESUME_MARGIN_SECONDS = 3;

export function resumePosition(anchor: number | null, duration: number): number | null {
  if (anchor === null || !Number.isFinite(anchor) || anchor < RESUME_MARGIN_SECONDS) return null;
  if (Number.isFinite(duration) && duration > 0 && anchor > duration - RESUME_MARGIN_SECONDS) return null;
  return anchor;
}

/**
 * The position to write to history now (to a tenth of a second), or null when there is nothing
 * new: still at the very start, or where the last write already was.
 */
export function anchorToRecord(currentTime: number, lastRecorded: number | null): number | null {
  const anchor = Math.floor(currentTime * 10) / 10;
  return !currentTime || anchor === lastRecorded ? null : anchor;
}
