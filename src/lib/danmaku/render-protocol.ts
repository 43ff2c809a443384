/**
 * Messages between the page (worker-renderer.ts) and the danmaku drawing worker
 * (render-worker.ts). The page runs the engine and sends, each frame, where every comment on
 * stage is and how fast it moves; the worker draws at its own animation frames, moving each
 * comment on from there, so a busy page thread never makes danmaku stutter.
 */
import type { Danmaku } from '../api/contracts/interaction.ts';

/** A comment the worker is told about once (again when its size changes): what its bitmap needs. */
export interface SpriteSpec {
  item: Danmaku;
  width: number;
  height: number;
  framed: boolean;
}

/** Numbers per comment in a frame's `stage`: id, x, y (CSS px), and x's speed in px per second of video time. */
export const FRAME_STRIDE = 4;

export type ToWorker =
  | { type: 'init'; canvas: OffscreenCanvas }
  | { type: 'resize'; width: number; height: number; dpr: number }
  | { type: 'configure'; fontScale: number; opacity: number }
  /**
   * One frame: the stage at `at` (ms since the epoch, performance.timeOrigin + now) while the
   * video's time runs at `rate`; comments first seen (or resized) in `specs`; ids to forget.
   */
  | { type: 'frame'; at: number; rate: number; stage: Float64Array; specs: SpriteSpec[]; forget: number[] }
  /** Another video (or part) on this canvas: nothing on stage, every bitmap let go. */
  | { type: 'reset' }
  /** What the worker has drawn so far (answered with a `stats` message). */
  | { type: 'stats' };

/** Frames drawn since the worker started, those more than 20 ms after the one before, ms spent drawing. */
export interface WorkerStats {
  frames: number;
  slowFrames: number;
  drawMs: number;
}
export type FromWorker = { type: 'stats'; stats: WorkerStats };

/** Moving comments on without news from the page for longer than this would guess too much. */
export const HOLD_MS = 100;

/**
 * The worker's copy of the stage: what the page last sent, and where each comment is a little
 * later (scrolling ones move on at their speed while the video's time runs, for at most HOLD_MS).
 */
export class StageReplica {
  private readonly specs = new Map<number, SpriteSpec>();
  private latest: { at: number; rate: number; stage: Float64Array } = { at: 0, rate: 0, stage: new Float64Array(0) };
  private readonly drawables: Array<{ item: Danmaku; x: number; y: number; width: number; height: number }> = [];

  apply(frame: Extract<ToWorker, { type: 'frame' }>) {
    for (const id of frame.forget) this.specs.delete(id);
    for (const spec of frame.specs) this.specs.set(spec.item.id, spec);
    this.latest = frame;
  }

  reset() {
    this.specs.clear();
    this.latest = { at: 0, rate: 0, stage: new Float64Array(0) };
  }

  isFramed(id: number) {
    return this.specs.get(id)?.framed ?? false;
  }

  /** Whether comments on stage still move at `now` (ms since the epoch) without news from the page. */
  moving(now: number) {
    return this.latest.rate !== 0 && this.latest.stage.length > 0 && now - this.latest.at < HOLD_MS;
  }

  /** The stage at `now` (ms since the epoch); the array is reused from call to call. */
  at(now: number) {
    const { stage, rate, at } = this.latest;
    const step = (Math.min(HOLD_MS, Math.max(0, now - at)) / 1000) * rate;
    const out = this.drawables;
    let n = 0;
    for (let i = 0; i < stage.length; i += FRAME_STRIDE) {
      const spec = this.specs.get(stage[i]);
      if (!spec) continue;
      const d = (out[n++] ??= { item: spec.item, x: 0, y: 0, width: 0, height: 0 });
      d.item = spec.item;
      d.x = stage[i + 1] + stage[i + 3] * step;
      d.y = stage[i + 2];
      d.width = spec.width;
      d.height = spec.height;
    }
    out.length = n;
    return out;
  }
}
