/**
 * The danmaku engine: which comments are on stage at a given video time, and where. It is
 * driven only by the video's clock (advance(time) every frame, seek on jumps), holds no DOM,
 * and measures text through an injected function, so it runs and is tested anywhere.
 */
import type { Danmaku, DanmakuMode } from '../api/contract.ts';
import {
  LaneSet, MAX_WAIT_SECONDS, canFollow, itemHeight, laneCount, laneHeight, lanesFor, lifetime, scrollDistance,
  type Placed, type StageGeometry,
} from './layout.ts';

export interface EngineOptions extends StageGeometry {
  /** 0.4–1.6: scrolling speed (a longer or shorter crossing time). */
  speed: number;
  /** Width of a comment's text in px at the current scale (canvas measureText in the browser). */
  measure: (item: Danmaku) => number;
  /** Comments that must not show (blocked types, keywords, expressions). */
  accept?: (item: Danmaku) => boolean;
}

export interface OnStage {
  item: Danmaku;
  mode: DanmakuMode;
  /** When it entered (video seconds): its scheduled time, or later if it had to wait. */
  start: number;
  duration: number;
  width: number;
  height: number;
  /** Top edge (px). */
  y: number;
  /** Left edge (px) at the last advance(). */
  x: number;
}

/** Seeking further than this (or backwards) rebuilds the stage instead of playing through. */
const JUMP_SECONDS = 1;
/** A step back this small (a clock report's jitter) moves comments back without a rebuild. */
const JITTER_SECONDS = 0.1;

export class DanmakuEngine {
  private items: Danmaku[] = [];
  private options: EngineOptions;
  private next = 0;
  private waiting: Danmaku[] = [];
  private active: OnStage[] = [];
  /**
   * Right-to-left and left-to-right comments share one lane set (they would cross head-on in
   * the same lane); top and bottom comments have their own.
   */
  private lanes: Record<DanmakuMode, LaneSet>;
  private lastTime = 0;
  /** Comments dropped because the stage stayed full (for the statistics panel). */
  dropped = 0;

  constructor(options: EngineOptions) {
    this.options = options;
    const n = laneCount(options);
    const scrolling = new LaneSet(n);
    this.lanes = { rtl: scrolling, ltr: scrolling, top: new LaneSet(n), bottom: new LaneSet(n) };
  }

  /** Replaces the comment list (any order); the stage is rebuilt at the current time. */
  load(items: readonly Danmaku[]) {
    this.items = [...items].sort(byTime);
    this.rebuild(this.lastTime);
  }

  /**
   * Adds comments (a later segment, or one just sent) without disturbing the stage; one whose
   * moment has just passed enters now if it can.
   */
  add(items: readonly Danmaku[]) {
    const known = new Set(this.items.map((d) => d.id));
    const fresh = items.filter((d) => !known.has(d.id));
    if (!fresh.length) return;
    this.items = [...this.items, ...fresh].sort(byTime);
    this.next = upperBound(this.items, this.lastTime);
    // Only those whose moment is just past can still enter; older ones are not counted as dropped.
    for (const d of fresh) {
      if (d.time <= this.lastTime && this.lastTime - d.time <= MAX_WAIT_SECONDS && (!this.options.accept || this.options.accept(d))) this.waiting.push(d);
    }
  }

  /** A sent comment confirmed by the server keeps its place on stage under its real id. */
  confirm(temporaryId: number, confirmed: Danmaku) {
    const index = this.items.findIndex((d) => d.id === temporaryId);
    if (index >= 0) this.items[index] = confirmed;
    for (const a of this.active) if (a.item.id === temporaryId) a.item = confirmed;
    this.waiting = this.waiting.map((d) => (d.id === temporaryId ? confirmed : d));
  }

  /** Takes out one comment (a send the server refused), wherever it is. */
  remove(id: number) {
    const index = this.items.findIndex((d) => d.id === id);
    if (index >= 0) {
      this.items.splice(index, 1);
      if (index < this.next) this.next--;
    }
    this.active = this.active.filter((a) => a.item.id !== id);
    this.waiting = this.waiting.filter((d) => d.id !== id);
  }

  /** New stage size, area, scale or speed: lanes are recomputed and the stage rebuilt. */
  configure(options: Partial<EngineOptions>) {
    this.options = { ...this.options, ...options };
    const n = laneCount(this.options);
    for (const set of Object.values(this.lanes)) set.reset(n);
    this.rebuild(this.lastTime);
  }

  get stage(): readonly OnStage[] {
    return this.active;
  }

  /**
   * Comments due within `seconds` of the current time that have not entered yet (the viewer's
   * filter applied), soonest first: what a renderer can prepare while the browser is idle.
   */
  upcoming(seconds: number, limit = 64): Danmaku[] {
    const due: Danmaku[] = [];
    const until = this.lastTime + seconds;
    for (let i = this.next; i < this.items.length && due.length < limit && this.items[i].time <= until; i++) {
      const item = this.items[i];
      if (!this.options.accept || this.options.accept(item)) due.push(item);
    }
    return due;
  }

  /**
   * Moves to video time `time`: forward steps play through (new comments enter, old ones
   * leave); a jump (seek) rebuilds the stage as it would look had playback reached `time`.
   */
  advance(time: number): readonly OnStage[] {
    if (time < this.lastTime - JITTER_SECONDS || time - this.lastTime > JUMP_SECONDS) this.rebuild(time);
    else if (time < this.lastTime) this.position(time);
    else this.playTo(time);
    return this.active;
  }

  private rebuild(time: number) {
    this.active = [];
    this.waiting = [];
    for (const set of Object.values(this.lanes)) set.reset();
    // Replay the window of comments that could still be on stage, in order, so lanes come out
    // exactly as continuous playback would have left them.
    const longest = lifetime('rtl', this.options.speed) + MAX_WAIT_SECONDS;
    this.next = lowerBound(this.items, time - longest);
    this.lastTime = Math.max(0, time - longest);
    this.playTo(time);
  }

  private playTo(time: number) {
    const { items } = this;
    // Placement happens at each comment's own time (or when a lane frees up while it waits).
    while (this.next < items.length && items[this.next].time <= time) {
      const item = items[this.next++];
      if (this.options.accept && !this.options.accept(item)) continue;
      this.retryWaiting(item.time);
      if (!this.place(item, item.time)) this.waiting.push(item);
    }
    this.retryWaiting(time);
    this.lastTime = time;
    this.position(time);
  }

  /** Where each comment on stage is at `time`; it leaves once its lifetime is over. */
  private position(time: number) {
    const { width } = this.options;
    this.active = this.active.filter((a) => time - a.start < a.duration);
    for (const a of this.active) {
      const elapsed = Math.max(0, time - a.start);
      if (a.mode === 'rtl') a.x = width - scrollDistance(width, a.width, elapsed, a.duration);
      else if (a.mode === 'ltr') a.x = scrollDistance(width, a.width, elapsed, a.duration) - a.width;
      else a.x = (width - a.width) / 2;
    }
  }

  /** Waiting comments take a lane as soon as one frees; past MAX_WAIT_SECONDS they are dropped. */
  private retryWaiting(time: number) {
    if (!this.waiting.length) return;
    const still: Danmaku[] = [];
    for (const item of this.waiting) {
      if (time - item.time > MAX_WAIT_SECONDS) {
        this.dropped++;
        continue;
      }
      if (!this.place(item, Math.max(item.time, time))) still.push(item);
    }
    this.waiting = still;
  }

  private place(item: Danmaku, start: number): boolean {
    const { options } = this;
    const duration = lifetime(item.mode, options.speed);
    const width = options.measure(item);
    const span = lanesFor(item.fontSize, options);
    const scrolling = item.mode === 'rtl' || item.mode === 'ltr';
    const placed: Placed = { start, width, duration, mode: item.mode };
    const gone = (prev: Placed) => start >= prev.start + prev.duration;
    // Opposite directions in one lane meet head-on: the lane is free for the other only once empty.
    const lane = this.lanes[item.mode].place(placed, span, (prev) =>
      prev === null || (scrolling && prev.mode === item.mode ? canFollow(prev, width, start, duration, options.width) : gone(prev)));
    if (lane < 0) return false;
    const unit = laneHeight(options);
    const height = itemHeight(item.fontSize, options.fontScale);
    const y = item.mode === 'bottom' ? laneCount(options) * unit - (lane + span) * unit + (span * unit - height) : lane * unit;
    this.active.push({ item, mode: item.mode, start, duration, width, height, y, x: options.width });
    return true;
  }
}

const byTime = (a: Danmaku, b: Danmaku) => a.time - b.time || a.id - b.id;

/** First index whose time is > t (items sorted by time). */
function upperBound(items: readonly Danmaku[], t: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose time is >= t (items sorted by time). */
function lowerBound(items: readonly Danmaku[], t: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].time < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
