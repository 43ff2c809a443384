/**
 * Puts danmaku over a video element: loads the video's danmaku segment by segment as playback
 * reaches them, runs the engine on the video's clock every animation frame, draws on a canvas
 * that follows its container's size, and sends new comments optimistically.
 *
 * For tests and tools (the stage is a canvas, so its pixels say little): the canvas element
 * carries a read-only `danmakuSnapshot` property, a frozen copy of the stage at the last frame:
 * `{ time, enabled, items: [{ id, text, mode, color, fontSize, rainbow, x, y, width, height }] }`
 * (CSS px from the stage's top left; `id` is negative until the server confirms a sent one;
 * `isNew` when it came live after its moment and flies now, framed).
 */
import type { Danmaku, DanmakuEmitBody } from '../api/contracts/interaction.ts';
import { emitDanmaku, getDanmaku } from '../api/calls/interaction.ts';
import { DanmakuEngine, type ClearZone } from './engine.ts';
import type { DanmakuRenderer } from './canvas-renderer.ts';
import { createDanmakuRenderer } from './worker-renderer.ts';
import { MediaClock } from './clock.ts';
import { danmakuFilter, type DanmakuBlocking } from './filter.ts';
import { segmentsToLoad } from './segments.ts';
import type { DanmakuDensity } from './density.ts';
import { timeInPart, videoTimeOf, type PartSpan } from '../player/part-span.ts';

/** A video of one part: the whole timeline. */
const WHOLE_VIDEO: PartSpan = { offset: 0, length: 0, last: true };

export interface StageSnapshotItem {
  id: number;
  text: string;
  mode: Danmaku['mode'];
  color: string;
  fontSize: Danmaku['fontSize'];
  rainbow: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  isNew: boolean;
}
export interface StageSnapshot {
  time: number;
  enabled: boolean;
  items: readonly StageSnapshotItem[];
}

export interface OverlayOptions {
  enabled: boolean;
  opacity: number;
  fontScale: number;
  speed: number;
  area: number;
  keepSubtitlesClear: boolean;
  density: DanmakuDensity;
  blocking: DanmakuBlocking;
}

export interface OverlayEvents {
  /** The whole list so far (for the side panel and the density curve). */
  onList?: (all: readonly Danmaku[]) => void;
}

let temporaryId = -1;

export class DanmakuOverlay {
  private readonly video: HTMLVideoElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly renderer: DanmakuRenderer;
  private readonly engine: DanmakuEngine;
  private readonly clock: MediaClock;
  private readonly videoId: number;
  private readonly events: OverlayEvents;
  private options: OverlayOptions;
  private all: Danmaku[] = [];
  private loaded = new Set<number>();
  /** Ids of every danmaku here (loaded, sent, received live): each is shown once. */
  private known = new Set<number>();
  /** Live danmaku that arrived after their moment: on stage now, framed as new. */
  private fresh = new Set<number>();
  private segmentSeconds = 360;
  private segmentCount = 1;
  private frame = 0;
  private idle = 0;
  private resizeObserver: ResizeObserver;
  /** Frames drawn and frames slower than 20 ms, comments on stage and waiting for a lane (the statistics panel). */
  stats = { frames: 0, slowFrames: 0, lastFrameMs: 0, onStage: 0, waiting: 0 };
  private lastFrameAt = 0;
  private lastTime = 0;
  private subtitleLines: readonly ClearZone[] = [];

  /** The part shown, on the video's timeline (parts.ts): its danmaku only, at times within it. */
  private readonly span: PartSpan;

  constructor(
    video: HTMLVideoElement,
    canvas: HTMLCanvasElement,
    videoId: number,
    options: OverlayOptions,
    events: OverlayEvents = {},
    span: PartSpan = WHOLE_VIDEO,
  ) {
    this.video = video;
    this.canvas = canvas;
    this.videoId = videoId;
    this.span = span;
    this.options = options;
    this.events = events;
    this.renderer = createDanmakuRenderer(canvas);
    this.renderer.framed = this.fresh;
    this.renderer.configure({ fontScale: options.fontScale, opacity: options.opacity });
    const { width, height } = this.stageSize();
    this.renderer.resize(width, height, this.pixelRatio());
    this.engine = new DanmakuEngine({
      width,
      height,
      area: options.area,
      keepSubtitlesClear: options.keepSubtitlesClear,
      fontScale: options.fontScale,
      speed: options.speed,
      density: options.density,
      measure: this.renderer.measure,
      accept: danmakuFilter(options.blocking),
    });
    this.clock = new MediaClock(video);
    // The canvas's own CSS size is set by the renderer, so its container is what changes.
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(canvas.parentElement ?? canvas);
    canvas.style.visibility = options.enabled ? 'visible' : 'hidden';
    Object.defineProperty(canvas, 'danmakuSnapshot', { configurable: true, get: () => this.snapshot() });
    this.frame = requestAnimationFrame(this.tick);
    if (this.renderer.preparesAhead) this.idle = whenIdle(this.prepare);
    void this.loadSegment(this.segmentAt(0));
  }

  /** The segment holding this second of the part (segments are of the video's timeline). */
  private segmentAt(partTime: number): number {
    return Math.floor((this.span.offset + partTime) / this.segmentSeconds);
  }

  /** The part's own danmaku of a loaded list, at their times within the part. */
  private ofPart(list: readonly Danmaku[]): Danmaku[] {
    const mine: Danmaku[] = [];
    for (const d of list) {
      const time = timeInPart(d.time, this.span);
      if (time !== null) mine.push(time === d.time ? d : { ...d, time });
    }
    return mine;
  }

  /** The stage as the last frame left it (see the module comment). */
  snapshot(): StageSnapshot {
    const items = this.engine.stage.map((a) =>
      Object.freeze({
        id: a.item.id,
        text: a.item.text,
        mode: a.mode,
        color: a.item.color,
        fontSize: a.item.fontSize,
        rainbow: a.item.enableRainbow,
        x: a.x,
        y: a.y,
        width: a.width,
        height: a.height,
        isNew: this.fresh.has(a.item.id),
      }),
    );
    return Object.freeze({
      time: this.lastTime,
      enabled: this.options.enabled,
      items: Object.freeze(this.options.enabled ? items : []),
    });
  }

  private stageSize() {
    const box = (this.canvas.parentElement ?? this.canvas).getBoundingClientRect();
    return { width: box.width, height: box.height };
  }

  /** Every danmaku loaded so far, in time order. */
  get list(): readonly Danmaku[] {
    return this.all;
  }

  get dropped() {
    return this.engine.dropped;
  }

  /**
   * The subtitle lines shown now (CSS px on the stage, which the subtitle layer shares): with
   * "keep subtitles clear" on, comments keep out of them (engine.ts, setClearZones).
   */
  setSubtitleLines(lines: readonly ClearZone[]) {
    this.subtitleLines = lines;
    this.engine.setClearZones(this.options.keepSubtitlesClear ? lines : []);
  }

  configure(options: Partial<OverlayOptions>) {
    const previous = this.options;
    this.options = { ...this.options, ...options };
    const o = this.options;
    this.renderer.configure({ fontScale: o.fontScale, opacity: o.opacity });
    this.canvas.style.visibility = o.enabled ? 'visible' : 'hidden';
    const layoutChanged = ['fontScale', 'speed', 'area', 'keepSubtitlesClear', 'density', 'blocking'].some(
      (k) => previous[k as keyof OverlayOptions] !== o[k as keyof OverlayOptions],
    );
    if (o.density !== previous.density) this.resize();
    if (o.keepSubtitlesClear !== previous.keepSubtitlesClear)
      this.engine.setClearZones(o.keepSubtitlesClear ? this.subtitleLines : []);
    if (layoutChanged) {
      this.engine.configure({
        fontScale: o.fontScale,
        speed: o.speed,
        area: o.area,
        keepSubtitlesClear: o.keepSubtitlesClear,
        density: o.density,
        accept: danmakuFilter(o.blocking),
      });
    }
  }

  /**
   * Shows the comment at once at the current time, then sends it; the server's copy replaces
   * it, or it is taken back and the error rethrown for the sender bar to show.
   */
  async send(body: Omit<DanmakuEmitBody, 'videoId' | 'time'>): Promise<Danmaku> {
    const time = this.video.currentTime;
    const optimistic: Danmaku = {
      id: temporaryId--,
      time,
      text: body.text.trim(),
      color: (body.color ?? 'ffffff').replace('#', '').toLowerCase(),
      fontSize: body.fontSize ?? 'medium',
      mode: body.mode ?? 'rtl',
      enableRainbow: body.enableRainbow ?? false,
      editDateTime: Date.now(),
    };
    this.engine.add([optimistic]);
    try {
      const answer = await emitDanmaku({ ...body, videoId: this.videoId, time: videoTimeOf(time, this.span) });
      const danmaku = { ...answer.danmaku, time: timeInPart(answer.danmaku.time, this.span) ?? time };
      // The live stream may have brought this very danmaku back first: keep that one.
      if (this.known.has(danmaku.id)) {
        this.engine.remove(optimistic.id);
        return danmaku;
      }
      this.known.add(danmaku.id);
      this.engine.confirm(optimistic.id, danmaku);
      this.all = insertSorted(this.all, danmaku);
      this.events.onList?.(this.all);
      return danmaku;
    } catch (error) {
      this.engine.remove(optimistic.id);
      throw error;
    }
  }

  /**
   * A danmaku another viewer just sent (the live stream): it enters at its moment when that is
   * still ahead; when the viewer is past it, it flies at once, framed as new. One already here
   * (this viewer's own send, or a loaded segment) is not shown twice.
   */
  receive(live: Danmaku) {
    if (this.known.has(live.id)) return;
    const time = timeInPart(live.time, this.span);
    if (time === null) return;
    this.known.add(live.id);
    const item = time === live.time ? live : { ...live, time };
    this.all = insertSorted(this.all, item);
    this.events.onList?.(this.all);
    const now = this.video.currentTime;
    if (time > now) this.engine.add([item]);
    else {
      this.fresh.add(live.id);
      this.engine.add([{ ...item, time: now }]);
    }
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    cancelIdle(this.idle);
    this.resizeObserver.disconnect();
    this.renderer.destroy();
  }

  /**
   * The canvas's pixels per CSS px: the screen's, but at most 1.5 in the "all" density, where a
   * storm on a phone's 3x screen would blend four times the pixels of 1.5x for text that overlaps anyway.
   */
  private pixelRatio() {
    const screen = globalThis.devicePixelRatio || 1;
    return this.options.density === 'all' ? Math.min(screen, ALL_DENSITY_MAX_DPR) : screen;
  }

  private resize() {
    const { width, height } = this.stageSize();
    if (!width || !height) return;
    this.renderer.resize(width, height, this.pixelRatio());
    this.engine.configure({ width, height });
  }

  private async loadSegment(segment: number) {
    if (this.loaded.has(segment) || (segment > 0 && segment >= this.segmentCount && this.loaded.size > 0)) return;
    this.loaded.add(segment);
    try {
      const answer = await getDanmaku(this.videoId, segment);
      this.segmentSeconds = answer.segmentSeconds;
      this.segmentCount = answer.segmentCount;
      const mine = this.ofPart(answer.danmaku).filter((d) => !this.known.has(d.id));
      for (const d of mine) this.known.add(d.id);
      this.engine.add(mine);
      this.all = [...this.all, ...mine].sort((a, b) => a.time - b.time || a.id - b.id);
      this.events.onList?.(this.all);
    } catch (error) {
      this.loaded.delete(segment); // tried again when playback comes back to it
      console.error('danmaku segment failed to load', error);
    }
  }

  /** Between frames: the bitmaps of the next second's comments (see CanvasDanmakuRenderer.prepare; the worker renderer needs none). */
  private prepare = (deadline: IdleDeadline) => {
    if (this.options.enabled)
      this.renderer.prepare(this.engine.upcoming(PREPARE_AHEAD_SECONDS), () => deadline.timeRemaining());
    this.idle = whenIdle(this.prepare);
  };

  private tick = (now: number) => {
    this.frame = requestAnimationFrame(this.tick);
    const time = this.clock.now(now);
    this.lastTime = time;
    for (const segment of segmentsToLoad(this.span.offset + time, this.segmentSeconds, this.segmentCount, this.loaded))
      void this.loadSegment(segment);
    if (!this.options.enabled) return;
    const stage = this.engine.advance(time);
    this.renderer.draw(stage, this.clock.rate, now);
    const frameMs = this.lastFrameAt ? now - this.lastFrameAt : 0;
    this.lastFrameAt = now;
    this.stats = {
      frames: this.stats.frames + 1,
      slowFrames: this.stats.slowFrames + (frameMs > 20 ? 1 : 0),
      lastFrameMs: frameMs,
      onStage: stage.length,
      waiting: this.engine.waitingCount,
    };
  };
}

/** The most canvas pixels per CSS px in the "all" density (see DanmakuOverlay.pixelRatio). */
const ALL_DENSITY_MAX_DPR = 1.5;
/** How far ahead comments are prepared: within the renderer's bitmap lifetime (120 frames). */
const PREPARE_AHEAD_SECONDS = 1;
// Browsers without idle callbacks (Safari) simply draw each bitmap in the frame it is first needed.
const whenIdle = (callback: IdleRequestCallback) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(callback, { timeout: 500 }) : 0;
const cancelIdle = (handle: number) => {
  if (handle && typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
};

function insertSorted(list: readonly Danmaku[], item: Danmaku): Danmaku[] {
  const index = list.findIndex((d) => d.time > item.time);
  return index === -1 ? [...list, item] : [...list.slice(0, index), item, ...list.slice(index)];
}
