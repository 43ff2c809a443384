/**
 * The browser side of bench/danmaku-render.ts (bundled with esbuild, loaded from file://).
 * One call of `window.danmakuBench(run)` per page load: it puts one engine on a 1280x720 stage,
 * feeds it a steady stream of comments so that `n` are on stage once the stage has filled,
 * waits for that, then records requestAnimationFrame deltas (and long animation frames) for
 * `measureSeconds`.
 */
import Danmaku from 'danmaku';
import type { Danmaku as Comment } from '../src/lib/api/contract.ts';
import { DanmakuEngine, type OnStage } from '../src/lib/danmaku/engine.ts';
import { CanvasDanmakuRenderer, DANMAKU_FONT_FAMILY } from '../src/lib/danmaku/canvas-renderer.ts';
import { MediaClock, type MediaLike } from '../src/lib/danmaku/clock.ts';
import { FONT_PX, SCROLL_SECONDS, laneCount, laneHeight } from '../src/lib/danmaku/layout.ts';
import { median } from './stats.ts';

export interface RenderRun {
  /** 'none': an empty stage, the machine's own frame-time floor in the same run. */
  engine: 'ours' | 'dom' | 'none';
  /** Comments on stage at once, once it has filled. */
  n: number;
  warmSeconds: number;
  measureSeconds: number;
}

export interface RenderResult {
  frames: number;
  windowMs: number;
  fps: number;
  /** Share of frames whose rAF delta exceeded 20 ms. */
  slowShare: number;
  deltas: number[];
  onStage: { min: number; median: number; max: number };
  layers: number;
  /** Ours: the most one engine held at once, flooded with this stream. */
  capacity: number;
  /** Ours: main-thread ms per frame in engine.advance() (all layers) and renderer.draw(). */
  scriptMsPerFrame?: { advance: number; draw: number };
  dropped: number;
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

/** The same comment stream for both engines: reproducible, `n / 8` per second, all scrolling right to left. */
function comments(n: number, seconds: number): Comment[] {
  let s = 20261122;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = ['草', '哈哈哈哈', '前方高能', '来了来了', '好耶', '名场面', 'wwww', 'kawaii', '泪目', '这里是重点', 'AWSL', '打卡', '第一次看', '笑死', '神作', 'replay', '233333', '经典'];
  const palette = ['ffffff', 'ffffff', 'ffffff', 'ffffff', 'fe0302', 'ffff00', '00cd00', '89d5ff', 'cc0273'];
  const rate = n / SCROLL_SECONDS;
  const count = Math.ceil(rate * seconds);
  return Array.from({ length: count }, (_, i) => {
    const parts = 1 + Math.floor(rand() * 3);
    const text = Array.from({ length: parts }, () => words[Math.floor(rand() * words.length)]).join(' ');
    const r = rand();
    return {
      id: i + 1, time: i / rate, text, color: palette[Math.floor(rand() * palette.length)],
      fontSize: r < 0.2 ? 'small' : r < 0.9 ? 'medium' : 'large', mode: 'rtl', enableRainbow: false, editDateTime: 0,
    } satisfies Comment;
  });
}

/** Our overlay's frame: the engine(s) advance on the clock, the canvas renderer draws what is on stage. */
function startOurs(stage: HTMLElement, video: FakeVideo, list: Comment[], n: number) {
  const canvas = document.createElement('canvas');
  canvas.style.cssText = 'position:absolute;inset:0';
  stage.append(canvas);
  const renderer = new CanvasDanmakuRenderer(canvas);
  renderer.resize(WIDTH, HEIGHT, 1);
  const options = { width: WIDTH, height: HEIGHT, area: 1, keepSubtitlesClear: false, fontScale: 1, speed: 1, measure: renderer.measure };
  // One engine never overlaps comments, so its lanes hold only so many at 1280x720 (see
  // `capacity`). To put n on stage the stream is dealt round-robin to as many engines
  // ("layers") as it takes to stay at most half full (fuller layers start to drop comments), and all layers are drawn by the ONE
  // renderer in one draw() per frame, as the overlay does with one engine.
  const capacity = singleEngineCapacity(list, renderer.measure);
  const layers = Math.max(1, Math.ceil(n / (capacity * 0.5)));
  const engines = Array.from({ length: layers }, (_, k) => {
    const e = new DanmakuEngine(options);
    e.load(list.filter((_, i) => i % layers === k));
    return e;
  });
  const clock = new MediaClock(video);
  const all: OnStage[] = [];
  let frame = 0;
  let onStage = 0;
  const work = { frames: 0, advanceMs: 0, drawMs: 0 };
  const tick = (now: number) => {
    frame = requestAnimationFrame(tick);
    const t0 = performance.now();
    const time = clock.now(now);
    all.length = 0;
    for (const e of engines) for (const a of e.advance(time)) all.push(a);
    const t1 = performance.now();
    renderer.draw(all);
    const t2 = performance.now();
    onStage = all.length;
    work.frames++;
    work.advanceMs += t1 - t0;
    work.drawMs += t2 - t1;
  };
  frame = requestAnimationFrame(tick);
  // As the overlay does: the next second's bitmaps are drawn while the browser is idle.
  let idle = 0;
  const prepare = (deadline: IdleDeadline) => {
    for (const e of engines) renderer.prepare(e.upcoming(1), () => deadline.timeRemaining());
    idle = requestIdleCallback(prepare, { timeout: 500 });
  };
  idle = requestIdleCallback(prepare, { timeout: 500 });
  return {
    layers,
    capacity,
    onStage: () => onStage,
    work,
    dropped: () => engines.reduce((sum, e) => sum + e.dropped, 0),
    stop: () => {
      cancelAnimationFrame(frame);
      cancelIdleCallback(idle);
    },
  };
}

/** The most comments one engine holds at once at 1280x720 when flooded with this stream. */
function singleEngineCapacity(list: Comment[], measure: (d: Comment) => number) {
  const e = new DanmakuEngine({ width: WIDTH, height: HEIGHT, area: 1, keepSubtitlesClear: false, fontScale: 1, speed: 1, measure });
  // 400 a second (3200 per crossing) floods any 720p stage; ids apart from the real ones,
  // since the renderer caches widths by id.
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
      text: d.text, mode: d.mode, time: d.time,
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
    layers: 1,
    capacity: 0,
    onStage: () => internal._.runningList.length,
    work: undefined,
    dropped: () => 0,
    stop: () => danmaku.destroy(),
  };
}

async function danmakuBench(run: RenderRun): Promise<RenderResult> {
  const stage = document.getElementById('stage')!;
  const video = new FakeVideo();
  // A stream far longer than the run: setting up can take seconds at 4x throttling on a busy
  // machine, and the clock runs from here, so the stage must not run dry before the end.
  const list = comments(run.n, run.warmSeconds + run.measureSeconds + 60);
  const engine = run.engine === 'ours' ? startOurs(stage, video, list, run.n)
    : run.engine === 'dom' ? startDom(stage, video, list)
    : { layers: 0, capacity: 0, onStage: () => 0, work: undefined, dropped: () => 0, stop: () => {} };

  const loaf = { supported: PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'), count: 0, totalMs: 0, blockingMs: 0 };
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
  const w = engine.work;
  const perFrame = w && workAtStart && w.frames > workAtStart.frames
    ? { advanceMs: (w.advanceMs - workAtStart.advanceMs) / (w.frames - workAtStart.frames), drawMs: (w.drawMs - workAtStart.drawMs) / (w.frames - workAtStart.frames) }
    : undefined;
  engine.stop();
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    frames: deltas.length,
    windowMs: round(result.windowMs),
    fps: round((deltas.length * 1000) / result.windowMs),
    slowShare: round(deltas.filter((d) => d > 20).length / deltas.length * 1000) / 1000,
    deltas: deltas.map(round),
    onStage: { min: Math.min(...counts), median: median(counts), max: Math.max(...counts) },
    layers: engine.layers,
    capacity: engine.capacity,
    scriptMsPerFrame: perFrame && { advance: round(perFrame.advanceMs), draw: round(perFrame.drawMs) },
    dropped: engine.dropped(),
    longAnimationFrames: { ...loaf, totalMs: round(loaf.totalMs), blockingMs: round(loaf.blockingMs) },
  };
}

Object.assign(globalThis, { danmakuBench, laneGeometry: { lanes: laneCount({ width: WIDTH, height: HEIGHT, area: 1, keepSubtitlesClear: false, fontScale: 1 }), laneHeight: laneHeight({ fontScale: 1 }) } });
