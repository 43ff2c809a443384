/**
 * The player's danmaku renderer where the browser can draw a canvas from a worker
 * (transferControlToOffscreen, OffscreenCanvas 2D, workers) and has four cores or more: the page keeps the engine and
 * sends each frame's stage to render-worker.ts, which renders the bitmaps and blits them. The
 * page's thread then spends well under a millisecond a frame on danmaku even in a storm
 * (bench/danmaku-render.ts), which leaves it to the video, hls.js and input. Elsewhere the
 * overlay draws on the main thread (canvas-renderer.ts): `createDanmakuRenderer` chooses.
 *
 * A canvas hands its drawing to a worker once for its whole life, so the worker belongs to the
 * canvas element: another overlay on the same canvas (the next part of a video) takes it over;
 * it ends when the canvas has left the page and no overlay holds it.
 */
import type { Danmaku } from '../api/contracts/interaction.ts';
import type { OnStage } from './engine.ts';
import { CanvasDanmakuRenderer, type DanmakuRenderer } from './canvas-renderer.ts';
import { FRAME_STRIDE, type FromWorker, type SpriteSpec, type ToWorker, type WorkerStats } from './render-protocol.ts';
import { startRenderWorker } from './render-worker-start.ts';
import { textMeasure } from './sprites.ts';

/**
 * Below this many cores the page draws itself. Measured on two cores with software raster
 * (bench/danmaku-render.ts, 2000 on stage): the worker spent ~21 ms a frame where the page's
 * own renderer spent ~14 in all, and the page's thread still ~7: the extra thread then competes
 * with the page, the video and the compositor for the same two cores and danmaku drew at ~42 fps
 * against ~58. With more cores it has one of its own and spares the page's thread.
 */
const WORKER_MIN_CORES = 4;

/** Whether this browser can draw danmaku from a worker, and has the cores for it to pay. */
export function canDrawInWorker(): boolean {
  return (
    typeof Worker === 'function' &&
    typeof OffscreenCanvas === 'function' &&
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function' &&
    (globalThis.navigator?.hardwareConcurrency ?? WORKER_MIN_CORES) >= WORKER_MIN_CORES
  );
}

/** The renderer for a player canvas: in a worker where the browser can, else on the main thread. */
export function createDanmakuRenderer(canvas: HTMLCanvasElement): DanmakuRenderer {
  if (owners.has(canvas) || canDrawInWorker()) {
    try {
      return new WorkerDanmakuRenderer(canvas);
    } catch (error) {
      // A canvas that already has a 2D context cannot be handed over: draw here.
      console.warn('danmaku: drawing on the main thread', error);
    }
  }
  return new CanvasDanmakuRenderer(canvas);
}

interface Owner {
  worker: Worker;
  holders: number;
}
const owners = new WeakMap<HTMLCanvasElement, Owner>();

/** Sizes the worker was last told for each comment, and the frame it was last on stage. */
interface Sent {
  width: number;
  height: number;
  seen: number;
}
const FORGET_AFTER_FRAMES = 120;

export class WorkerDanmakuRenderer implements DanmakuRenderer {
  private readonly canvas: HTMLCanvasElement;
  private readonly owner: Owner;
  private readonly sent = new Map<number, Sent>();
  private frame = 0;
  private stageWidth = 0;
  private fontScale = 1;
  private opacity = 1;
  private drewSomething = false;
  private destroyed = false;
  framed: ReadonlySet<number> = new Set();
  readonly preparesAhead = false;
  readonly measure: ReturnType<typeof textMeasure>;

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    let owner = owners.get(canvas);
    if (!owner) {
      const offscreen = canvas.transferControlToOffscreen();
      const worker = startRenderWorker();
      // The canvas is handed over already: a worker that cannot start leaves the stage empty, and says so.
      worker.addEventListener('error', (event) => console.warn('danmaku: the drawing worker failed', event.message));
      owner = { worker, holders: 0 };
      worker.postMessage({ type: 'init', canvas: offscreen } satisfies ToWorker, [offscreen]);
      owners.set(canvas, owner);
    } else this.post({ type: 'reset' }, owner);
    owner.holders++;
    this.owner = owner;
    this.measure = textMeasure(document.createElement('canvas').getContext('2d')!);
  }

  /** What the worker has drawn so far (benchmarks; the statistics panel counts the page's frames). */
  workerStats(): Promise<WorkerStats> {
    const { worker } = this.owner;
    return new Promise((resolve) => {
      const answer = (event: MessageEvent<FromWorker>) => {
        if (event.data.type !== 'stats') return;
        worker.removeEventListener('message', answer);
        resolve({ ...event.data.stats });
      };
      worker.addEventListener('message', answer);
      this.post({ type: 'stats' });
    });
  }

  private post(message: ToWorker, owner = this.owner, transfer: Transferable[] = []) {
    owner.worker.postMessage(message, transfer);
  }

  resize(width: number, height: number, dpr = globalThis.devicePixelRatio || 1) {
    this.stageWidth = width;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.post({ type: 'resize', width, height, dpr });
  }

  configure(options: { fontScale?: number; opacity?: number }) {
    if (options.fontScale !== undefined && options.fontScale !== this.fontScale) {
      this.fontScale = options.fontScale;
      this.measure.setScale(options.fontScale);
      this.sent.clear(); // the worker lets its bitmaps go: every comment is described again
    }
    if (options.opacity !== undefined) this.opacity = options.opacity;
    this.post({ type: 'configure', fontScale: this.fontScale, opacity: this.opacity });
  }

  /**
   * Nothing ahead of time: the worker renders a comment's bitmap when it first shows (entering
   * at the edge, a few per frame within a budget), so comments a flood will drop or that still
   * wait cost nothing, and the page's idle time stays the page's.
   */
  prepare(_upcoming: readonly Danmaku[], _timeLeft: () => number) {}

  draw(stage: readonly OnStage[], rate = 1, at = performance.now()) {
    if (this.destroyed) return;
    this.frame++;
    if (!stage.length && !this.drewSomething) return;
    this.drewSomething = stage.length > 0;
    const numbers = new Float64Array(stage.length * FRAME_STRIDE);
    const specs: SpriteSpec[] = [];
    const width = this.stageWidth;
    let i = 0;
    for (const a of stage) {
      const id = a.item.id;
      const known = this.sent.get(id);
      if (!known || known.width !== a.width || known.height !== a.height) {
        specs.push({ item: a.item, width: a.width, height: a.height, framed: this.framed.has(id) });
        this.sent.set(id, { width: a.width, height: a.height, seen: this.frame });
      } else known.seen = this.frame;
      numbers[i] = id;
      numbers[i + 1] = a.x;
      numbers[i + 2] = a.y;
      // Scrolling comments cross stage width + their own in their lifetime (layout.ts scrollDistance).
      numbers[i + 3] =
        a.mode === 'rtl' ? -(width + a.width) / a.duration : a.mode === 'ltr' ? (width + a.width) / a.duration : 0;
      i += FRAME_STRIDE;
    }
    const forget: number[] = [];
    if (this.frame % FORGET_AFTER_FRAMES === 0) {
      for (const [id, s] of this.sent) if (this.frame - s.seen > FORGET_AFTER_FRAMES) forget.push(id);
      for (const id of forget) this.sent.delete(id);
    }
    this.post({ type: 'frame', at: performance.timeOrigin + at, rate, stage: numbers, specs, forget }, this.owner, [
      numbers.buffer,
    ]);
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    const { owner, canvas } = this;
    this.post({ type: 'reset' });
    owner.holders--;
    // Another overlay may take the canvas over in the same task (a part switch); a canvas that
    // has left the page with none holding it takes its worker with it.
    setTimeout(() => {
      if (owner.holders === 0 && !canvas.isConnected && owners.get(canvas) === owner) {
        owner.worker.terminate();
        owners.delete(canvas);
      }
    }, 0);
  }
}
