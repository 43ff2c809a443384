/**
 * Danmaku geometry and lane allocation: pure functions of the video's time, so that pause,
 * seek and playback rate are followed exactly (a comment's position depends only on where the
 * video is, never on wall-clock time).
 */
import type { DanmakuMode, DanmakuSize } from '../api/contracts/interaction.constants.ts';
import type { DanmakuDensity } from './density.ts';

/** Font sizes at scale 1 (px). */
export const FONT_PX: Record<DanmakuSize, number> = { small: 14, medium: 20, large: 28 };
/** Seconds a scrolling comment takes to cross the stage at speed 1 (Bilibili's feel). */
export const SCROLL_SECONDS = 8;
/** Seconds a top or bottom comment stays. */
export const FIXED_SECONDS = 4;
/** Room kept between two comments in one lane (px), readable density. */
export const LANE_GAP_PX = 24;
/** A comment that finds no lane waits at most this long (video seconds), then is dropped. */
export const MAX_WAIT_SECONDS = 1.5;
/** The share of the stage kept clear for subtitles when asked. */
export const SUBTITLE_CLEAR_SHARE = 0.15;
export const LINE_HEIGHT = 1.25;

const DENSITY: Record<DanmakuDensity, { lineHeight: number; gap: number }> = {
  readable: { lineHeight: LINE_HEIGHT, gap: LANE_GAP_PX },
  dense: { lineHeight: 1.1, gap: 8 },
  all: { lineHeight: 1.1, gap: 8 },
};
export const laneGap = (density: DanmakuDensity = 'readable') => DENSITY[density].gap;

export interface StageGeometry {
  width: number;
  height: number;
  /** 0.25, 0.5, 0.75 or 1 of the height. */
  area: number;
  keepSubtitlesClear: boolean;
  fontScale: number;
  /** readable when absent. */
  density?: DanmakuDensity;
}

/** Lanes are one medium line high (tighter when dense); larger comments take several lanes, smaller ones one. */
export function laneHeight(g: Pick<StageGeometry, 'fontScale' | 'density'>): number {
  return Math.ceil(FONT_PX.medium * g.fontScale * DENSITY[g.density ?? 'readable'].lineHeight);
}

/** The height comments may use (px): the display area, above the subtitle band when asked. */
export const usableHeight = (g: StageGeometry) =>
  g.height * Math.min(g.area, g.keepSubtitlesClear ? 1 - SUBTITLE_CLEAR_SHARE : 1);

/**
 * Lanes that fit below `offset` px (a layer of the "all" density starts part of a lane down).
 * Tighter lanes than a comment's own height leave room for the last one's overhang.
 */
export function laneCount(g: StageGeometry, offset = 0): number {
  const unit = laneHeight(g);
  const overhang = Math.max(0, itemHeight('medium', g.fontScale) - unit);
  return Math.max(1, Math.floor((usableHeight(g) - offset - overhang) / unit));
}

export const itemHeight = (size: DanmakuSize, fontScale: number) => Math.ceil(FONT_PX[size] * fontScale * LINE_HEIGHT);
/** Lanes a comment of this size takes: one for small and medium, two for large (at any density). */
export const lanesFor = (size: DanmakuSize) => Math.max(1, Math.ceil(FONT_PX[size] / FONT_PX.medium));

/** How long an item is on stage, in video seconds. */
export const lifetime = (mode: DanmakuMode, speed: number) =>
  mode === 'top' || mode === 'bottom' ? FIXED_SECONDS : SCROLL_SECONDS / speed;

/**
 * Where a scrolling item's leading edge is, measured from the edge it entered at (px), `elapsed`
 * seconds after it entered: it travels stage width + its own width in its lifetime.
 */
export const scrollDistance = (stageWidth: number, itemWidth: number, elapsed: number, duration: number) =>
  ((stageWidth + itemWidth) * elapsed) / duration;

export interface Placed {
  start: number;
  width: number;
  duration: number;
  mode?: DanmakuMode;
}

/**
 * How long after `prev` entered a scrolling item of `width` (crossing in `duration`) may follow
 * it in the same lane: once prev's tail is `gap` px inside the stage, and, when the newcomer is
 * faster (longer), late enough that it cannot catch prev's tail before prev has left.
 */
export function followDelay(
  prev: Placed,
  width: number,
  duration: number,
  stageWidth: number,
  gap = LANE_GAP_PX,
): number {
  const prevSpeed = (stageWidth + prev.width) / prev.duration;
  const tailIn = (prev.width + gap) / prevSpeed;
  const newSpeed = (stageWidth + width) / duration;
  const noCatchUp = newSpeed > prevSpeed ? prev.duration - stageWidth / newSpeed : 0;
  return Math.min(prev.duration, Math.max(tailIn, noCatchUp));
}

/** Whether a scrolling item may follow `prev` in the same lane entering at `start` (followDelay). */
export function canFollow(
  prev: Placed,
  width: number,
  start: number,
  duration: number,
  stageWidth: number,
  gap = LANE_GAP_PX,
): boolean {
  return start - prev.start >= followDelay(prev, width, duration, stageWidth, gap);
}

/** The run of lanes an item may take, and the video time from which it may (−Infinity: any time). */
export interface LaneRun {
  lane: number;
  at: number;
}

/**
 * Lanes of one kind (scrolling, or fixed at the top or the bottom). Each lane remembers its last
 * item; an item takes a run of `span` consecutive lanes, each free for it from a time
 * `freeAt(prev)` says. The run is the first one already free at `start` (top first), else the
 * one that frees soonest, so a waiting comment knows when to try again.
 */
export class LaneSet {
  private last: Array<Placed | null>;
  constructor(count: number) {
    this.last = Array.from({ length: count }, () => null);
  }
  get count() {
    return this.last.length;
  }
  reset(count = this.last.length) {
    this.last = Array.from({ length: count }, () => null);
  }
  soonest(span: number, start: number, freeAt: (prev: Placed | null, lane: number) => number): LaneRun {
    const n = this.last.length;
    const s = Math.min(span, n);
    let best: LaneRun = { lane: -1, at: Infinity };
    for (let lane = 0; lane + s <= n; lane++) {
      let at = -Infinity;
      for (let k = 0; k < s && at < best.at; k++) at = Math.max(at, freeAt(this.last[lane + k], lane + k));
      if (at <= start) return { lane, at };
      if (at < best.at) best = { lane, at };
    }
    return best;
  }
  take(lane: number, span: number, item: Placed) {
    for (let k = 0; k < span && lane + k < this.last.length; k++) this.last[lane + k] = item;
  }
}
