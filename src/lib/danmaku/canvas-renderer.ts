/**
 * Draws the engine's stage on a canvas on the page's main thread (sprites.ts: each comment's
 * text rendered once into a bitmap, then only blitted). The player draws in a worker where the
 * browser can (worker-renderer.ts); this is the fallback, and what both have in common is the
 * `DanmakuRenderer` interface the overlay drives.
 */
import type { Danmaku } from '../api/contracts/interaction.ts';
import type { OnStage } from './engine.ts';
import { itemHeight } from './layout.ts';
import { SpritePainter, textMeasure } from './sprites.ts';

export { DANMAKU_FONT_FAMILY } from './sprites.ts';

/** What the overlay needs of a renderer (on the main thread or in a worker). */
export interface DanmakuRenderer {
  /** Comments drawn inside a frame: live ones that arrived after their moment (the overlay marks them). */
  framed: ReadonlySet<number>;
  /** Text width in CSS px at the current scale (the engine's measure function). */
  measure: (item: Danmaku) => number;
  /** Stage size in CSS px; the backing store follows the pixel ratio given. */
  resize(width: number, height: number, dpr?: number): void;
  configure(options: { fontScale?: number; opacity?: number }): void;
  /** Whether `prepare` does anything (the overlay asks for idle time only then). */
  readonly preparesAhead: boolean;
  /** While the browser is idle: bitmaps of comments about to enter, until `timeLeft()` runs out. */
  prepare(upcoming: readonly Danmaku[], timeLeft: () => number): void;
  /**
   * One frame of the stage as it is at `at` (performance.now() time, the frame's timestamp);
   * `rate` is how fast the video's time runs now (0 when it stands still).
   */
  draw(stage: readonly OnStage[], rate?: number, at?: number): void;
  destroy(): void;
}

export class CanvasDanmakuRenderer implements DanmakuRenderer {
  private readonly canvas: HTMLCanvasElement;
  private readonly painter: SpritePainter;
  private fontScale = 1;
  private framedIds: ReadonlySet<number> = new Set();
  readonly preparesAhead = true;
  readonly measure: ReturnType<typeof textMeasure>;

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    this.painter = new SpritePainter(canvas);
    this.painter.isFramed = (id) => this.framedIds.has(id);
    this.measure = textMeasure(document.createElement('canvas').getContext('2d')!);
  }

  get framed() {
    return this.framedIds;
  }

  set framed(ids: ReadonlySet<number>) {
    this.framedIds = ids;
  }

  resize(width: number, height: number, dpr = globalThis.devicePixelRatio || 1) {
    this.painter.dpr = dpr;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
  }

  configure(options: { fontScale?: number; opacity?: number }) {
    if (options.fontScale !== undefined) {
      this.fontScale = options.fontScale;
      this.painter.setFontScale(options.fontScale);
      this.measure.setScale(options.fontScale);
    }
    if (options.opacity !== undefined) this.painter.opacity = options.opacity;
  }

  /**
   * Draws the bitmaps of comments about to enter while the browser is idle, so a frame only
   * blits: drawing text with its outline is the costliest step, and a burst of new comments
   * (a busy moment, a seek) would otherwise land in one frame. Stops when `timeLeft()` runs out.
   */
  prepare(upcoming: readonly Danmaku[], timeLeft: () => number) {
    for (const item of upcoming) {
      if (timeLeft() < 1) return;
      if (!this.painter.has(item.id))
        this.painter.render(item, this.measure(item), itemHeight(item.fontSize, this.fontScale));
    }
  }

  draw(stage: readonly OnStage[]) {
    this.painter.draw(stage);
  }

  destroy() {
    this.painter.clear();
  }
}
