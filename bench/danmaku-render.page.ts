/**
 * The browser side of bench/danmaku-render.ts (bundled with esbuild, loaded from file://).
 * One call of `window.danmakuBench(run)` per page load: it puts the player's danmaku overlay (at
 * a density) or the `danmaku` library on a 1280x720 stage, feeds it a steady stream of comments,
 * waits for the stage to fill, then records requestAnimationFrame deltas (and long animation
 * frames) for `measureSeconds`. `capacity(density)` says what one stage holds at a density.
 */
import Danmaku from 'danmaku';
import type { Danmaku as Comment } from '../src/lib/api/contracts/interaction.ts';
import { DanmakuEngine, type OnStage } from '../src/lib/danmaku/engine.ts';
import { DanmakuOverlay } from '../src/lib/danmaku/overlay.ts';
import {
  CanvasDanmakuRenderer,
  DANMAKU_FONT_FAMILY,
  type DanmakuRenderer,
} from '../src/lib/danmaku/canvas-renderer.ts';
import { WorkerDanmakuRenderer } from '../src/lib/danmaku/worker-renderer.ts';
import type { WorkerStats } from '../src/lib/danmaku/render-protocol.ts';
import type { MediaLike } from '../src/lib/danmaku/clock.ts';
import { FONT_PX, SCROLL_SECONDS } from '../src/lib/danmaku/layout.ts';
import type { DanmakuDensity } from '../src/lib/danmaku/density.ts';
import { DEFAULT_PLAYER_SETTINGS } from '../src/lib/stores/player-settings.ts';
import { median } from './stats.ts';

export interface RenderRun {
  /** 'none': an empty stage, the machine's own frame-time floor in the same run. */
  engine: 'ours' | 'dom' | 'none';
  /** Ours: the density the overlay runs at. */
  density?: DanmakuDensity;
  /** Comments a second in the stream (all scrolling, 8 s a crossing: rate x 8 on stage when nothing is dropped). */
  perSecond: number;
  warmSeconds: number;
  measureSeconds: number;
  /**
   * Ours: where to draw. By default the player's own choice on this machine (a worker with four
   * cores or more, worker-renderer.ts); 'main' hides transferControlToOffscreen (the fallback),
   * 'worker' reports eight cores so the player takes the worker.
   */
  drawIn?: 'main' | 'worker';
}

export interface RenderResult {
  frames: number;
  windowMs: number;
  fps: number;
  /** Share of frames whose rAF delta exceeded 20 ms. */
  slowShare: number;
  deltas: number[];
  onStage: { min: number; median: number; max: number };
  /** Ours: layers of lanes in use at the end ("all" overlaps them). */
  layers: number;
  /** Ours: main-thread ms per frame in the engine's advance() and the renderer's draw(). */
  scriptMsPerFrame?: { advance: number; draw: number };
  /** Ours, drawing in a worker: the frames the worker drew in the window (its own fps, slow share, ms drawing a frame). */
  worker?: { fps: number; slowShare: number; drawMsPerFrame: number };
  /** performance.timeOrigin + now at the start and end of the measured window (to cut a trace). */
  window: { start: number; end: number };
  dropped: number;
  /** Ours: comments waiting for a lane at the end. */
  waiting: number;
  longAnimationFrames: { supported: boolean; count: number; totalMs: number; blockingMs: number };
}

const WIDTH = 1280;
const HEIGHT = 720;

/**
 * A video-like clock: currentTime advances with wall time (performance.now()), as a playing
 * <video> does, and the element API the two libraries read (paused, playbackRate, events).
 */
class FakeVideo extends EventTarget implements MediaLike {
  private readonly t0 = performance.now();
  get currentTime() {
    return (performance.now() - this.t0) / 1000;
  }
  readonly playbackRate = 1;
  readonly paused = false;
  readonly seeking = false;
  readonly readyState = 4;
}

/** The same comment stream for both engines: reproducible, `rate` per second, all scrolling right to left. */
function comments(rate: number, seconds: number): Comment[] {
  let s = 20261122;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = [
    '草',
    '哈哈哈哈',
    '前方高能',
    '来了来了',
    '好耶',
    '名场面',
    'wwww',
    'kawaii',
    '泪目',
    '这里是重点',
    'AWSL',
    '打卡',
    '第一次看',
    '笑死',
    '神作',
    'replay',
    '233333',
    '经典',
  ];
  const palette = ['ffffff', 'ffffff', 'ffffff', 'ffffff', 'fe0302', 'ffff00', '00cd00', '89d5ff', 'cc0273'];
  const count = Math.ceil(rate * seconds);
  return Array.from({ length: count }, (_, i) => {
    const parts = 1 + Math.floor(rand() * 3);
    const text = Array.from({ length: parts }, () => words[Math.floor(rand() * words.length)]).join(' ');
    const r = rand();
    return {
      id: i + 1,
      time: i / rate,
      text,
      color: palette[Math.floor(rand() * palette.length)],
      fontSize: r < 0.2 ? 'small' : r < 0.9 ? 'medium' : 'large',
      mode: 'rtl',
      enableRainbow: false,
      editDateTime: 0,
    } satisfies Comment;
  });
}

/**
 * The player's own danmaku: a DanmakuOverlay (src/lib/danmaku/overlay.ts), as Player.tsx sets it
 * up through use-danmaku-overlay.ts, on a canvas in a 1280x720 stage, at the given density. It
 * loads its comments segment by segment through the API client; the bench answers those calls
 * (fetch) with the stream, as the server would. Engine and renderer are timed by wrapping their
 * prototypes' advance() and draw(): the overlay's own frame, only watched.
 */
function startPlayer(
  stage: HTMLElement,
  video: FakeVideo,
  list: Comment[],
  density: DanmakuDensity,
  drawIn: RenderRun['drawIn'],
) {
  const segmentSeconds = 360;
  const segmentCount = Math.max(1, Math.ceil((list.at(-1)?.time ?? 0) / segmentSeconds));
  globalThis.fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://bench.invalid');
    if (!url.pathname.endsWith('/video/danmaku')) return new Response('{}', { status: 404 });
    const segment = Number(url.searchParams.get('segment') ?? 0);
    const danmaku = list.filter((d) => d.time >= segment * segmentSeconds && d.time < (segment + 1) * segmentSeconds);
    return new Response(JSON.stringify({ success: true, danmaku, segment, segmentSeconds, segmentCount }), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  const work = { frames: 0, advanceMs: 0, drawMs: 0 };
  const advance = DanmakuEngine.prototype.advance;
  DanmakuEngine.prototype.advance = function timed(this: DanmakuEngine, time: number) {
    const t0 = performance.now();
    const stage = advance.call(this, time);
    work.advanceMs += performance.now() - t0;
    return stage;
  };
  for (const Renderer of [CanvasDanmakuRenderer, WorkerDanmakuRenderer] as Array<{ prototype: DanmakuRenderer }>) {
    const draw = Renderer.prototype.draw;
    Renderer.prototype.draw = function timed(
      this: DanmakuRenderer,
      onStage: readonly OnStage[],
      rate?: number,
      at?: number,
    ) {
      const t0 = performance.now();
      draw.call(this, onStage, rate, at);
      work.drawMs += performance.now() - t0;
      work.frames++;
    };
  }
  if (drawIn === 'main') {
    // The fallback: as in a browser without OffscreenCanvas in workers.
    Object.defineProperty(HTMLCanvasElement.prototype, 'transferControlToOffscreen', {
      value: undefined,
      configurable: true,
    });
  }
  if (drawIn === 'worker') Object.defineProperty(navigator, 'hardwareConcurrency', { value: 8, configurable: true });
  const layer = document.createElement('div');
  layer.style.cssText = 'position:absolute;inset:0';
  const canvas = document.createElement('canvas');
  layer.append(canvas);
  stage.append(layer);
  const settings = DEFAULT_PLAYER_SETTINGS.danmaku;
  const overlay = new DanmakuOverlay(video as unknown as HTMLVideoElement, canvas, 1, {
    enabled: true,
    opacity: settings.opacity,
    fontScale: settings.fontSizeScale,
    speed: settings.speed,
    area: settings.area,
    keepSubtitlesClear: settings.keepSubtitlesClear,
    density,
    blocking: { ...settings.block, keywords: [], regexes: [] },
  });
  const engine = (overlay as unknown as { engine: DanmakuEngine }).engine;
  const renderer = (overlay as unknown as { renderer: DanmakuRenderer }).renderer;
  const inWorker = renderer instanceof WorkerDanmakuRenderer ? renderer : undefined;
  return {
    workerStats: inWorker && (() => inWorker.workerStats()),
    layers: () => engine.layerCount,
    onStage: () => overlay.stats.onStage,
    work,
    dropped: () => overlay.dropped,
    waiting: () => engine.waitingCount,
    stop: () => overlay.destroy(),
  };
}

/** What one engine at this density holds at most, flooded with this stream: the stage's capacity. */
function capacityOf(list: Comment[], density: DanmakuDensity): number {
  const canvas = document.createElement('canvas');
  const renderer = new CanvasDanmakuRenderer(canvas);
  const e = new DanmakuEngine({
    width: WIDTH,
    height: HEIGHT,
    area: 1,
    keepSubtitlesClear: false,
    fontScale: 1,
    speed: 1,
    density,
    measure: renderer.measure,
  });
  e.load(Array.from({ length: 400 * 12 }, (_, i) => ({ ...list[i % list.length], id: 1e7 + i, time: i / 400 })));
  let most = 0;
  for (let t = 0; t < 12; t += 1 / 30) most = Math.max(most, e.advance(t).length);
  return most;
}

/** weizhenye/Danmaku's DOM engine on the same clock and stream, styled like our comments. */
function startDom(stage: HTMLElement, video: FakeVideo, list: Comment[]) {
  const outline = 'rgba(0,0,0,0.72)';
  const danmaku = new Danmaku({
    container: stage,
    engine: 'dom',
    media: video as unknown as HTMLMediaElement,
    // Its duration is stage width / speed: the same 8 s crossing as ours.
    speed: WIDTH / SCROLL_SECONDS,
    comments: list.map((d) => ({
      text: d.text,
      mode: d.mode,
      time: d.time,
      style: {
        font: `${d.fontSize === 'large' ? 600 : 500} ${FONT_PX[d.fontSize]}px ${DANMAKU_FONT_FAMILY}`,
        color: `#${d.color}`,
        // The outline our canvas strokes, as the library's README draws it.
        textShadow: `-1px -1px ${outline}, -1px 1px ${outline}, 1px -1px ${outline}, 1px 1px ${outline}`,
      },
    })),
  });
  const internal = danmaku as unknown as { _: { runningList: unknown[] } };
  return {
    workerStats: undefined,
    layers: () => 1,
    onStage: () => internal._.runningList.length,
    work: undefined,
    dropped: () => 0,
    waiting: () => 0,
    stop: () => danmaku.destroy(),
  };
}

async function danmakuBench(run: RenderRun): Promise<RenderResult> {
  const stage = document.getElementById('stage')!;
  const video = new FakeVideo();
  // A stream far longer than the run: setting up can take seconds at 4x throttling on a busy
  // machine, and the clock runs from here, so the stage must not run dry before the end.
  const list = comments(run.perSecond, run.warmSeconds + run.measureSeconds + 60);
  const engine =
    run.engine === 'ours'
      ? startPlayer(stage, video, list, run.density ?? 'readable', run.drawIn)
      : run.engine === 'dom'
        ? startDom(stage, video, list)
        : {
            workerStats: undefined,
            layers: () => 0,
            onStage: () => 0,
            work: undefined,
            dropped: () => 0,
            waiting: () => 0,
            stop: () => {},
          };

  const loaf = {
    supported: PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'),
    count: 0,
    totalMs: 0,
    blockingMs: 0,
  };
  let measuring = false;
  let observer: PerformanceObserver | undefined;
  if (loaf.supported) {
    observer = new PerformanceObserver((entries) => {
      if (!measuring) return;
      for (const e of entries.getEntries() as Array<PerformanceEntry & { blockingDuration?: number }>) {
        loaf.count++;
        loaf.totalMs += e.duration;
        loaf.blockingMs += e.blockingDuration ?? 0;
      }
    });
    observer.observe({ type: 'long-animation-frame' });
  }

  await new Promise((r) => setTimeout(r, run.warmSeconds * 1000));
  const workAtStart = engine.work ? { ...engine.work } : undefined;
  const workerAtStart: WorkerStats | undefined = await engine.workerStats?.();
  const windowStart = performance.timeOrigin + performance.now();
  performance.mark('danmaku-bench-start');
  const deltas: number[] = [];
  const counts: number[] = [];
  const result = await new Promise<{ windowMs: number }>((resolve) => {
    let first = 0;
    let last = 0;
    const record = (now: number) => {
      if (!first) {
        first = last = now;
        measuring = true;
      } else {
        deltas.push(now - last);
        counts.push(engine.onStage());
        last = now;
      }
      if (now - first < run.measureSeconds * 1000) requestAnimationFrame(record);
      else resolve({ windowMs: now - first });
    };
    requestAnimationFrame(record);
  });
  measuring = false;
  observer?.disconnect();
  const windowEnd = performance.timeOrigin + performance.now();
  performance.mark('danmaku-bench-end');
  const workerAtEnd = await engine.workerStats?.();
  const w = engine.work;
  const perFrame =
    w && workAtStart && w.frames > workAtStart.frames
      ? {
          advanceMs: (w.advanceMs - workAtStart.advanceMs) / (w.frames - workAtStart.frames),
          drawMs: (w.drawMs - workAtStart.drawMs) / (w.frames - workAtStart.frames),
        }
      : undefined;
  engine.stop();
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    frames: deltas.length,
    windowMs: round(result.windowMs),
    fps: round((deltas.length * 1000) / result.windowMs),
    slowShare: round((deltas.filter((d) => d > 20).length / deltas.length) * 1000) / 1000,
    deltas: deltas.map(round),
    onStage: { min: Math.min(...counts), median: median(counts), max: Math.max(...counts) },
    layers: engine.layers(),
    scriptMsPerFrame: perFrame && { advance: round(perFrame.advanceMs), draw: round(perFrame.drawMs) },
    dropped: engine.dropped(),
    waiting: engine.waiting(),
    longAnimationFrames: { ...loaf, totalMs: round(loaf.totalMs), blockingMs: round(loaf.blockingMs) },
    worker:
      workerAtStart && workerAtEnd && workerAtEnd.frames > workerAtStart.frames
        ? {
            fps: round(((workerAtEnd.frames - workerAtStart.frames) * 1000) / (windowEnd - windowStart)),
            slowShare:
              round(
                ((workerAtEnd.slowFrames - workerAtStart.slowFrames) / (workerAtEnd.frames - workerAtStart.frames)) *
                  1000,
              ) / 1000,
            drawMsPerFrame: round(
              (workerAtEnd.drawMs - workerAtStart.drawMs) / (workerAtEnd.frames - workerAtStart.frames),
            ),
          }
        : undefined,
    window: { start: windowStart, end: windowEnd },
  };
}

Object.assign(globalThis, {
  danmakuBench,
  capacity: (density: DanmakuDensity) => capacityOf(comments(400, 12), density),
});
