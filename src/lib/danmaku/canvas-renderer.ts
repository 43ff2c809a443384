/**
 * Draws the engine's stage on a canvas. Each comment's text is rendered once into its own
 * small bitmap (fill plus a dark outline, or a rainbow gradient; an ImageBitmap where the
 * browser has OffscreenCanvas) and then only blitted while it moves, so a frame costs one
 * clearRect and one unsmoothed, whole-pixel drawImage per visible comment. Text is drawn as text: nothing a
 * viewer sends is ever parsed as HTML.
 */
import type { Danmaku } from '../api/contract.ts';
import type { OnStage } from './engine.ts';
import { FONT_PX, itemHeight } from './layout.ts';

export const DANMAKU_FONT_FAMILY = '"Noto Sans CJK SC", "PingFang SC", "Hiragino Sans", "Microsoft YaHei", system-ui, sans-serif';
const OUTLINE_PX = 3;
/** The frame around a comment marked as new (live, arrived after its moment): gold, seen on dark and light video. */
const NEW_FRAME_PX = 2;
const NEW_FRAME_COLOR = 'rgba(255, 214, 64, 0.95)';

interface Sprite { image: HTMLCanvasElement | ImageBitmap; usedAt: number; width: number; height: number }

export class CanvasDanmakuRenderer {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly measureCtx: CanvasRenderingContext2D;
  private sprites = new Map<number, Sprite>();
  private widths = new Map<number, number>();
  private frame = 0;
  private dpr = 1;
  private fontScale = 1;
  private opacity = 1;
  private drewSomething = false;
  /** Comments drawn inside a frame: live ones that arrived after their moment (the overlay marks them). */
  framed: ReadonlySet<number> = new Set();

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d')!;
    this.measureCtx = document.createElement('canvas').getContext('2d')!;
  }

  private font(item: Danmaku) {
    return `${item.fontSize === 'large' ? 600 : 500} ${FONT_PX[item.fontSize] * this.fontScale}px ${DANMAKU_FONT_FAMILY}`;
  }

  /** Text width in CSS px at the current scale (the engine's measure function). */
  measure = (item: Danmaku): number => {
    const known = this.widths.get(item.id);
    if (known !== undefined) return known;
    this.measureCtx.font = this.font(item);
    const width = Math.ceil(this.measureCtx.measureText(item.text).width) + OUTLINE_PX * 2;
    this.widths.set(item.id, width);
    return width;
  };

  /** Stage size in CSS px; the backing store follows the device pixel ratio. */
  resize(width: number, height: number, dpr = globalThis.devicePixelRatio || 1) {
    this.dpr = dpr;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
  }

  configure(options: { fontScale?: number; opacity?: number }) {
    if (options.fontScale !== undefined && options.fontScale !== this.fontScale) {
      this.fontScale = options.fontScale;
      for (const id of [...this.sprites.keys()]) this.dropSprite(id);
      this.widths.clear();
    }
    if (options.opacity !== undefined) this.opacity = options.opacity;
  }

  /** The comment's bitmap, drawn now unless it was prepared ahead (or its size changed since). */
  private sprite(a: OnStage): Sprite {
    let sprite = this.sprites.get(a.item.id);
    if (!sprite || sprite.width !== a.width || sprite.height !== a.height) sprite = this.render(a.item, a.width, a.height);
    sprite.usedAt = this.frame;
    return sprite;
  }

  private render(item: Danmaku, width: number, height: number): Sprite {
    this.dropSprite(item.id);
    const w = Math.max(1, Math.ceil(width * this.dpr));
    const h = Math.max(1, Math.ceil(height * this.dpr));
    const image = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(w, h) : Object.assign(document.createElement('canvas'), { width: w, height: h });
    const g = image.getContext('2d') as CanvasRenderingContext2D;
    g.scale(this.dpr, this.dpr);
    g.font = this.font(item);
    g.textBaseline = 'middle';
    g.lineJoin = 'round';
    const y = height / 2;
    g.lineWidth = OUTLINE_PX;
    g.strokeStyle = item.color.toLowerCase() === '000000' ? 'rgba(255,255,255,0.8)' : 'rgba(0,0,0,0.72)';
    g.strokeText(item.text, OUTLINE_PX, y);
    if (item.enableRainbow) {
      const gradient = g.createLinearGradient(0, 0, width, 0);
      ['#ff5e5e', '#ffb35e', '#fff35e', '#5eff8b', '#5ec8ff', '#9b5eff', '#ff5ed2'].forEach((c, i, all) => gradient.addColorStop(i / (all.length - 1), c));
      g.fillStyle = gradient;
    } else g.fillStyle = `#${item.color}`;
    g.fillText(item.text, OUTLINE_PX, y);
    if (this.framed.has(item.id)) {
      g.lineWidth = NEW_FRAME_PX;
      g.strokeStyle = NEW_FRAME_COLOR;
      g.strokeRect(NEW_FRAME_PX / 2, NEW_FRAME_PX / 2, width - NEW_FRAME_PX, height - NEW_FRAME_PX);
    }
    // An ImageBitmap is immutable: the cheapest thing to blit (bench/danmaku-render.ts).
    const sprite: Sprite = { image: 'transferToImageBitmap' in image ? image.transferToImageBitmap() : image, usedAt: this.frame, width, height };
    this.sprites.set(item.id, sprite);
    return sprite;
  }

  /**
   * Draws the bitmaps of comments about to enter while the browser is idle, so a frame only
   * blits: drawing text with its outline is the costliest step, and a burst of new comments
   * (a busy moment, a seek) would otherwise land in one frame. Stops when `timeLeft()` runs out.
   */
  prepare(upcoming: readonly Danmaku[], timeLeft: () => number) {
    for (const item of upcoming) {
      if (timeLeft() < 1) return;
      if (!this.sprites.has(item.id)) this.render(item, this.measure(item), itemHeight(item.fontSize, this.fontScale));
    }
  }

  draw(stage: readonly OnStage[]) {
    this.frame++;
    const { ctx } = this;
    if (!stage.length && !this.drewSomething) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.globalAlpha = this.opacity;
    // Sprites land on whole pixels at their own size: a plain copy, no resampling.
    ctx.imageSmoothingEnabled = false;
    const { dpr } = this;
    const right = this.canvas.width;
    for (const a of stage) {
      const x = Math.round(a.x * dpr);
      // A comment just entering (or just leaving) is wholly off the canvas: nothing to draw.
      if (x >= right || x + a.width * dpr <= 0) continue;
      ctx.drawImage(this.sprite(a).image, x, Math.round(a.y * dpr));
    }
    this.drewSomething = stage.length > 0;
    // Bitmaps of comments that left the stage a while ago are let go.
    if (this.frame % 120 === 0) for (const [id, s] of this.sprites) if (this.frame - s.usedAt > 120) this.dropSprite(id);
  }

  private dropSprite(id: number) {
    const image = this.sprites.get(id)?.image;
    if (image && 'close' in image) image.close();
    this.sprites.delete(id);
  }
}
