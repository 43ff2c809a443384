/**
 * The audio player's pure rules (kept apart from the island so they are tested on their own):
 * loudness normalisation, waveform seeking, and which danmaku fly at a moment.
 */

/** The loudness tracks are brought to (what streaming services use), and the true-peak ceiling. */
export const TARGET_LUFS = -14;
const PEAK_CEILING_DB = -1;

/** The gain that brings a track to TARGET_LUFS without its true peak passing the ceiling. */
export function normalisationGain(loudness: { integratedLufs: number; truePeakDb: number } | null): number {
  if (!loudness) return 1;
  const wantedDb = TARGET_LUFS - loudness.integratedLufs;
  const roomDb = PEAK_CEILING_DB - loudness.truePeakDb;
  return 10 ** (Math.min(wantedDb, roomDb) / 20);
}

/** The moment (seconds) a point at `x` of a waveform `width` wide stands for. */
export const timeAtX = (x: number, width: number, durationSeconds: number) =>
  Math.max(0, Math.min(durationSeconds, (x / Math.max(1, width)) * durationSeconds));

/** How long a danmaku flies over the waveform after its moment. */
export const DANMAKU_FLIGHT_SECONDS = 5;

/** The danmaku in flight at `now`: sent at a moment within the last `flight` seconds (DANMAKU_FLIGHT_SECONDS at the usual speed). */
export function inFlight<T extends { time: number }>(
  all: readonly T[],
  now: number,
  flight = DANMAKU_FLIGHT_SECONDS,
): T[] {
  return all.filter((d) => d.time <= now && now - d.time < flight);
}

/** The playback rates offered. */
export const AUDIO_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
