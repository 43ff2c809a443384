/**
 * How crowded the stage may get (the viewer's choice, SPEC §3 danmaku settings; the
 * lanes of each are in layout.ts, kept apart so the settings do not carry the layout):
 * - readable: lanes a line and a quarter high, a 24 px gap, no overlap; what finds no lane
 *   within MAX_WAIT_SECONDS is dropped (Bilibili's overlap prevention);
 * - dense: the same rules with tighter lanes and gaps, so more fit;
 * - all: dense lanes, and when every lane is taken the comment goes on another layer of lanes
 *   offset from the first, overlapping it: nothing waits, nothing is dropped (a Niconico storm).
 */
export type DanmakuDensity = 'readable' | 'dense' | 'all';
export const DANMAKU_DENSITIES: readonly DanmakuDensity[] = ['readable', 'dense', 'all'];
