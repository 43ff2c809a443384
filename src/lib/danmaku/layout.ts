/**
 * Danmaku geometry and lane allocation: pure functions of the video's time, so that pause,
 * seek and playback rate are followed exactly (a comment's position depends only on where the
 * video is, never on wall-clock time).
 */
import type { DanmakuMode, DanmakuSize } from '../api/contract.ts';

/** Font sizes at scale 1 (px). */
export const FONT_PX: Record<DanmakuSize, number> = { small: 14, medium: 20, large: 28 };
/** Seconds a scrolling comment takes to cross the stage at speed 1 (Bilibili's feel). */
export const SCROLL_SECONDS = 8;
/** Seconds a top or bottom comment stays. */
export const FIXED_SECONDS = 4;
/** Room kept between two comments in one lane (px). */
export const LANE_GAP_PX = 24;
/** A comment that finds no lane waits at most this long (video seconds), then is dropped. */
export const MAX_WAIT_SECONDS = 1.5;
/** The share of the stage kept clear for subtitles when asked. */
export const SUBTITLE_CLEAR_SHARE = 0.15;
export const LINE_HEIGHT = 1.25;

export interface StageGeometry {
  width: number;
  height: number;
  /** 0.25, 0.5, 0.75 or 1 of the height. */
  area: number;
  keepSubtitlesClear: boolean;
  fontScale: number;
}

/** Lanes are one medium line high; larger comments take several lanes, smaller ones one. */
export function laneHeight(g: Pick<StageGeometry, 'fontScale'>): number {
  return Math.ceil(FONT_PX.medium * g.fontScale * LINE_HEIGHT);
}

export function laneCount(g: StageGeometry): number {
  const usable = g.height * Math.min(g.area, g.keepSubtitlesClear ? 1 - SUBTITLE_CLEAR_SHARE : 1);
  return Math.max(1, Math.floor(usable / laneHeight(g)));
}

export const itemHeight = (size: DanmakuSize, fontScale: number) => Math.ceil(FONT_PX[size] * fontScale * LINE_HEIGHT);
export const lanesFor = (size: DanmakuSize, g: Pick<StageGeometry, 'fontScale'>) => Math.max(1, Math.ceil(itemHeight(size, g.fontScale) / laneHeight(g)));

/** How long an item is on stage, in video seconds. */
export const lifetime = (mode: DanmakuMode, speed: number) => (mode === 'top' || mode === 'bottom' ? FIXED_SECONDS : SCROLL_SECONDS / speed);

/**
 * Where a scrolling item's leading edge is, measured from the edge it entered at (px), `elapsed`
 * seconds after it entered: it travels stage width + its own width in its lifetime.
 */
export const scrollDistance = (stageWidth: number, itemWidth: number, elapsed: number, duration: number) =>
  ((stageWidth + itemWidth) * elapsed) / duration;

export interface Placed { start: number; width: number; duration: number; mode?: DanmakuMode }

/**
 * Whether a scrolling item of `width` entering at `start` may follow `prev` in the same lane:
 * prev's tail must already be `LANE_GAP_PX` inside the stage, and the newcomer (faster when it
 * is longer) must not reach prev's tail before prev has left the stage.
 */
export function canFollow(prev: Placed, width: number, start: number, duration: number, stageWidth: number): boolean {
  const elapsed = start - prev.start;
  if (elapsed >= prev.duration) return true;
  const prevTravelled = scrollDistance(stageWidth, prev.width, elapsed, prev.duration);
  if (prevTravelled < prev.width + LANE_GAP_PX) return false;
  const newSpeed = (stageWidth + width) / duration;
  const prevSpeed = (stageWidth + prev.width) / prev.duration;
  if (newSpeed <= prevSpeed) return true;
  // Time left until prev's tail leaves the stage; the newcomer's head must not cross the stage
  // (catch that tail) before then.
  const prevLeavesIn = prev.duration - elapsed;
  return newSpeed * prevLeavesIn <= stageWidth;
}

/**
 * Lanes of one kind (scrolling, or fixed at the top or the bottom). Each lane remembers its last
 * item; a new item takes the first run of `span` consecutive lanes that all accept it.
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
  /** The first lane of the run taken, or -1 when every run refuses (the item waits or drops). */
  place(item: Placed, span: number, accepts: (prev: Placed | null) => boolean): number {
    const n = this.last.length;
    for (let lane = 0; lane + span <= Math.max(n, span); lane++) {
      let ok = true;
      for (let k = 0; k < span && ok; k++) ok = lane + k < n ? accepts(this.last[lane + k]) : lane === 0;
      if (!ok) continue;
      for (let k = 0; k < span && lane + k < n; k++) this.last[lane + k] = item;
      return lane;
    }
    return -1;
  }
}
