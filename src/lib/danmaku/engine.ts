/**
 * The danmaku engine: which comments are on stage at a given video time, and where. It is
 * driven only by the video's clock (advance(time) every frame, seek on jumps), holds no DOM,
 * and measures text through an injected function, so it runs and is tested anywhere.
 *
 * One model for every density (layout.ts, DanmakuDensity): comments take lanes of a layer; in
 * "readable" and "dense" there is one layer and a comment with no free lane waits (until the
 * lane it fits frees, never polled) or is dropped; in "all" a full layer opens another that
 * overlaps it. Playback is an exact event replay in time order: arrivals at their moment,
 * waiting comments at the moment their lane frees (the first of each line of waiting comments,
 * wait-queue.ts), so a seek rebuilds the same stage.
 */
import type { Danmaku } from '../api/contracts/interaction.ts';
import type { DanmakuMode } from '../api/contracts/interaction.constants.ts';
import {
  LaneSet,
  MAX_WAIT_SECONDS,
  followDelay,
  itemHeight,
  laneCount,
  laneGap,
  laneHeight,
  lanesFor,
  lifetime,
  scrollDistance,
  type Placed,
  type StageGeometry,
} from './layout.ts';
import { WaitQueue, WaitingLine } from './wait-queue.ts';

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
  /** 0 for the first layer of lanes; higher ones overlap it (the "all" density only). */
  layer: number;
}

/** A subtitle line's box on the stage (px from its top left). */
export interface ClearZone {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Lanes of one layer. Right-to-left and left-to-right share one set (they would cross head-on in a lane); top and bottom have their own. */
interface Layer {
  offset: number;
  lanes: Record<DanmakuMode, LaneSet>;
}

/**
 * "all" opens at most this many layers (some 13 000 comments on a 720p stage); past that a
 * comment takes the run of the last layer that frees soonest, over whatever is there.
 */
const MAX_LAYERS = 32;
/** Layer k starts this share of a lane further down (the fractional part of k·φ): no two layers line up. */
const LAYER_STEP = 0.618034;

/** Seeking further than this (or backwards) rebuilds the stage instead of playing through. */
const JUMP_SECONDS = 1;
/** A step back this small (a clock report's jitter) moves comments back without a rebuild. */
const JITTER_SECONDS = 0.1;

export class DanmakuEngine {
  /** Every comment, sorted by time then id; `ids` mirrors it for duplicate checks. */
  private items: Danmaku[] = [];
  private readonly ids = new Set<number>();
  private options: EngineOptions;
  /** The first item not yet reached by playback (items[next].time > lastTime). */
  private next = 0;
  /** The first comment of each waiting line, keyed by when its lanes free. */
  private readonly wakeups = new WaitQueue();
  /** Waiting comments, one line per mode and lane span. */
  private lines = new Map<string, WaitingLine>();
  private active: OnStage[] = [];
  private layers: Layer[] = [];
  private lastTime = 0;
  /** Comments dropped because the stage stayed full (for the statistics panel). */
  dropped = 0;
  /** False while a rebuild replays comments already counted (or skipped by a seek). */
  private counting = true;
  /**
   * The subtitle lines shown now (keep-clear, issue 29), in stage px: comments entering take no
   * lane across them, and a comment already on stage is not shown where it would cover one.
   */
  private zones: readonly ClearZone[] = [];
  private visible: OnStage[] = [];

  constructor(options: EngineOptions) {
    this.options = options;
    this.resetLayers();
  }

  /** Replaces the comment list (any order); the stage is rebuilt at the current time. */
  load(items: readonly Danmaku[]) {
    this.ids.clear();
    this.items = [];
    for (const d of items) {
      if (this.ids.has(d.id)) continue;
      this.ids.add(d.id);
      this.items.push(d);
    }
    this.items.sort(byTime);
    this.rebuild(this.lastTime);
  }

  /**
   * Adds comments (a later segment, one just sent, one pushed live) without disturbing the
   * stage: they are merged into the sorted list in place (only what lies after the first of
   * them moves; appending costs O(k)), and those already known are skipped. One whose moment
   * has just passed (within the waiting limit) enters now if it can.
   */
  add(items: readonly Danmaku[]) {
    const fresh: Danmaku[] = [];
    for (const d of items) {
      if (this.ids.has(d.id)) continue;
      this.ids.add(d.id);
      fresh.push(d);
    }
    if (!fresh.length) return;
    if (fresh.length > 1) fresh.sort(byTime);
    mergeSorted(this.items, fresh);
    const now = this.lastTime;
    const accept = this.options.accept;
    for (const d of fresh) {
      if (d.time > now) break;
      // Items at or before the current time land before `next`.
      this.next++;
      // Older ones are history, not counted as dropped.
      if (now - d.time <= MAX_WAIT_SECONDS && (!accept || accept(d))) this.admit(d, now);
    }
  }

  /** A sent comment confirmed by the server keeps its place on stage under its real id. */
  confirm(temporaryId: number, confirmed: Danmaku) {
    if (!this.ids.has(temporaryId)) return;
    const index = this.items.findIndex((d) => d.id === temporaryId);
    this.items[index] = confirmed;
    this.ids.delete(temporaryId);
    this.ids.add(confirmed.id);
    for (const a of this.active) if (a.item.id === temporaryId) a.item = confirmed;
    for (const line of this.lines.values()) line.rewrite((d) => (d.id === temporaryId ? confirmed : d));
    this.wakeups.rewrite((e) => (e.item.id === temporaryId ? { ...e, item: confirmed } : e));
  }

  /** Takes out one comment (a send the server refused), wherever it is. */
  remove(id: number) {
    if (!this.ids.delete(id)) return;
    const index = this.items.findIndex((d) => d.id === id);
    this.items.splice(index, 1);
    if (index < this.next) this.next--;
    this.active = this.active.filter((a) => a.item.id !== id);
    for (const line of this.lines.values()) line.rewrite((d) => (d.id === id ? null : d));
    let first: Danmaku | undefined;
    this.wakeups.rewrite((e) => {
      if (e.item.id !== id) return e;
      first = e.item;
      return null;
    });
    // It was first in its line: the next one there is scheduled in its place.
    if (first) this.scheduleFirst(this.lineOf(first), this.lastTime);
  }

  /** New stage size, area, scale, speed or density: lanes are recomputed and the stage rebuilt. */
  configure(options: Partial<EngineOptions>) {
    this.options = { ...this.options, ...options };
    this.rebuild(this.lastTime);
  }

  get stage(): readonly OnStage[] {
    return this.zones.length ? this.visible : this.active;
  }

  /** The subtitle lines to keep clear of (none: []); the stage is not rebuilt, entering comments follow. */
  setClearZones(zones: readonly ClearZone[]) {
    this.zones = zones;
    this.filterVisible();
  }

  private filterVisible() {
    const zones = this.zones;
    this.visible = zones.length
      ? this.active.filter(
          (a) =>
            !zones.some((z) => a.y < z.bottom && a.y + a.height > z.top && a.x < z.right && a.x + a.width > z.left),
        )
      : this.active;
  }

  /** Comments waiting for a lane now. */
  get waitingCount(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  /** Layers of lanes in use (1 unless the "all" density had to overlap). */
  get layerCount(): number {
    return this.layers.length;
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
    if (!this.zones.length) return this.active;
    this.filterVisible();
    return this.visible;
  }

  private resetLayers() {
    this.layers = [];
    this.openLayer();
  }

  private openLayer(): Layer {
    const k = this.layers.length;
    const offset = k === 0 ? 0 : Math.round(((k * LAYER_STEP) % 1) * laneHeight(this.options));
    const n = laneCount(this.options, offset);
    const scrolling = new LaneSet(n);
    const layer = { offset, lanes: { rtl: scrolling, ltr: scrolling, top: new LaneSet(n), bottom: new LaneSet(n) } };
    this.layers.push(layer);
    return layer;
  }

  private rebuild(time: number) {
    this.active = [];
    this.wakeups.clear();
    this.lines.clear();
    this.resetLayers();
    // Replay the window of comments that could still be on stage, in order, so lanes come out
    // exactly as continuous playback would have left them.
    const longest = lifetime('rtl', this.options.speed) + MAX_WAIT_SECONDS;
    this.next = lowerBound(this.items, time - longest);
    this.lastTime = Math.max(0, time - longest);
    this.counting = false;
    this.playTo(time);
    this.counting = true;
  }

  private playTo(time: number) {
    const { items } = this;
    const accept = this.options.accept;
    while (this.next < items.length && items[this.next].time <= time) {
      const item = items[this.next++];
      if (accept && !accept(item)) continue;
      this.wakeUntil(item.time);
      this.admit(item, item.time);
    }
    this.wakeUntil(time);
    this.lastTime = time;
    this.position(time);
  }

  /** The first waiting comments whose lanes have freed by `time` try them, each at the moment they freed. */
  private wakeUntil(time: number) {
    for (let w = this.wakeups.popDue(time); w; w = this.wakeups.popDue(time)) {
      const at = this.place(w.item, w.at);
      if (at > w.at && at - w.item.time <= MAX_WAIT_SECONDS) {
        this.wakeups.push(w.item, at); // another took the run first: the next time it frees
        continue;
      }
      if (at > w.at) this.drop();
      const line = this.lineOf(w.item);
      line.shift();
      this.scheduleFirst(line, w.at);
    }
  }

  /**
   * Puts the item on stage at `start`, or lines it up for the moment a run of lanes it fits
   * frees. First in its line, it is scheduled for that moment, or dropped at once when that is
   * past its waiting limit (lanes only fill up until the stage is rebuilt, so it could never
   * enter in time); behind others, it waits its turn.
   */
  private admit(item: Danmaku, start: number) {
    const at = this.place(item, start);
    if (at <= start) return;
    const line = this.lineOf(item);
    if (line.length) {
      line.push(item);
      return;
    }
    if (at - item.time > MAX_WAIT_SECONDS) return this.drop();
    line.push(item);
    this.wakeups.push(item, at);
  }

  /** The line's new first comment enters now, or is scheduled, or (too late) dropped, and so on down the line. */
  private scheduleFirst(line: WaitingLine, now: number) {
    for (let item = line.first(); item; item = line.first()) {
      const start = Math.max(now, item.time);
      const at = start - item.time > MAX_WAIT_SECONDS ? Infinity : this.place(item, start);
      if (at > start && at - item.time <= MAX_WAIT_SECONDS) {
        this.wakeups.push(item, at);
        return;
      }
      if (at > start) this.drop();
      line.shift();
    }
  }

  private lineOf(item: Danmaku): WaitingLine {
    const key = `${item.mode}/${lanesFor(item.fontSize)}`;
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = new WaitingLine()));
    return line;
  }

  private drop() {
    if (this.counting) this.dropped++;
  }

  /** Enters the item at `start` if a run of lanes is free then (and returns `start` or earlier); else returns when one frees. */
  private place(item: Danmaku, start: number): number {
    const { options } = this;
    const duration = lifetime(item.mode, options.speed);
    const width = options.measure(item);
    const span = lanesFor(item.fontSize);
    const scrolling = item.mode === 'rtl' || item.mode === 'ltr';
    const gap = laneGap(options.density);
    // Opposite directions in one lane meet head-on: the lane is free for the other only once empty.
    const freeAt = (prev: Placed | null) =>
      prev === null
        ? -Infinity
        : scrolling && prev.mode === item.mode
          ? prev.start + followDelay(prev, width, duration, options.width, gap)
          : prev.start + prev.duration;
    const overlap = options.density === 'all';
    const unit = laneHeight(options);
    const lanesInAll = laneCount(options);
    // A lane across a subtitle line shown now is not free while it shows.
    const zones = this.zones;
    const layerFree = (offset: number) =>
      zones.length
        ? (prev: Placed | null, lane: number) => {
            const top = item.mode === 'bottom' ? lanesInAll * unit - offset - (lane + 1) * unit : offset + lane * unit;
            return zones.some((z) => top < z.bottom && top + unit > z.top) ? Infinity : freeAt(prev);
          }
        : freeAt;
    let layerIndex = 0;
    let run = this.layers[0].lanes[item.mode].soonest(span, start, layerFree(this.layers[0].offset));
    while (overlap && run.at > start) {
      if (++layerIndex === this.layers.length) {
        if (this.layers.length === MAX_LAYERS) {
          layerIndex--;
          run.at = start;
          break;
        }
        this.openLayer();
      }
      run = this.layers[layerIndex].lanes[item.mode].soonest(span, start, layerFree(this.layers[layerIndex].offset));
    }
    if (run.lane < 0) return Infinity; // every lane runs across a subtitle line
    if (run.at > start) return run.at;
    const layer = this.layers[layerIndex];
    layer.lanes[item.mode].take(run.lane, span, { start, width, duration, mode: item.mode });
    const height = itemHeight(item.fontSize, options.fontScale);
    // Centred on its run of lanes (a dense lane is shorter than a comment's bitmap, never than its text).
    const top =
      item.mode === 'bottom'
        ? laneCount(options) * unit - layer.offset - (run.lane + span) * unit
        : layer.offset + run.lane * unit;
    const y = top + (span * unit - height) / 2;
    this.active.push({ item, mode: item.mode, start, duration, width, height, y, x: options.width, layer: layerIndex });
    return start;
  }

  /** Where each comment on stage is at `time`; it leaves once its lifetime is over. */
  private position(time: number) {
    const { width } = this.options;
    const active = this.active;
    let kept = 0;
    for (const a of active) {
      if (time - a.start >= a.duration) continue;
      active[kept++] = a;
      const elapsed = Math.max(0, time - a.start);
      if (a.mode === 'rtl') a.x = width - scrollDistance(width, a.width, elapsed, a.duration);
      else if (a.mode === 'ltr') a.x = scrollDistance(width, a.width, elapsed, a.duration) - a.width;
      else a.x = (width - a.width) / 2;
    }
    active.length = kept;
  }
}

const byTime = (a: Danmaku, b: Danmaku) => a.time - b.time || a.id - b.id;

/** Below this many, each fresh comment is put in at its binary-searched place (a native move of the tail). */
const SPLICE_BELOW = 16;

/**
 * Merges `fresh` (sorted) into `items` (sorted) in place. A few (one sent or pushed live): each
 * is found its place by binary search, O(log n), and spliced in. Many (a segment): the array
 * grows by fresh.length and only the items after the first fresh one's place move, from the
 * back, each once. Either way adding at the end touches nothing already there.
 */
function mergeSorted(items: Danmaku[], fresh: readonly Danmaku[]) {
  if (fresh.length < SPLICE_BELOW) {
    for (const d of fresh) {
      const at = placeOf(items, d);
      if (at === items.length) items.push(d);
      else items.splice(at, 0, d);
    }
    return;
  }
  let i = items.length - 1;
  let j = fresh.length - 1;
  items.length += fresh.length;
  for (let k = items.length - 1; j >= 0; k--) {
    if (i >= 0 && byTime(items[i], fresh[j]) > 0) items[k] = items[i--];
    else items[k] = fresh[j--];
  }
}

/** Where `d` goes in `items` (sorted by time, then id). */
function placeOf(items: readonly Danmaku[], d: Danmaku): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byTime(items[mid], d) < 0) lo = mid + 1;
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
