/**
 * Danmaku as bitmaps: each comment's text is rendered once into its own small bitmap (fill plus
 * a dark outline, or a rainbow gradient; an ImageBitmap where the browser has OffscreenCanvas)
 * and then only blitted while it moves, so a frame costs one clearRect and one unsmoothed,
 * whole-pixel drawImage per visible comment. Shared by the renderer on the page's main thread
 * (canvas-renderer.ts) and the one in a worker (render-worker.ts); it touches no DOM, so it runs
 * in either. Text is drawn as text: nothing a viewer sends is ever parsed as HTML.
 */
import type { Danmaku } from '../api/contracts/interaction.ts';
import { FONT_PX } from './layout.ts';

export const DANMAKU_FONT_FAMILY =
  '"Noto Sans CJK SC", "PingFang SC", "Hiragino Sans", "Microsoft YaHei", system-ui, sans-serif';
export const OUTLINE_PX = 3;
/** The frame around a comment marked as new (live, arrived after its moment): gold, seen on dark and light video. */
const NEW_FRAME_PX = 2;
const NEW_FRAME_COLOR = 'rgba(255, 214, 64, 0.95)';
const RAINBOW = ['#ff5e5e', '#ffb35e', '#fff35e', '#5eff8b', '#5ec8ff', '#9b5eff', '#ff5ed2'];
/** Bitmaps not drawn for this many frames are let go (checked every so many frames). */
const SPRITE_FRAMES = 120;

export const danmakuFont = (item: Pick<Danmaku, 'fontSize'>, fontScale: number) =>
  `${item.fontSize === 'large' ? 600 : 500} ${FONT_PX[item.fontSize] * fontScale}px ${DANMAKU_FONT_FAMILY}`;

/** What drawing needs of a comment on stage (the engine's OnStage is one): CSS px. */
export interface Drawable {
  item: Danmaku;
  x: number;
  y: number;
  width: number;
  height: number;
}

type Surface = HTMLCanvasElement | OffscreenCanvas;
type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
interface Sprite {
  image: HTMLCanvasElement | ImageBitmap | OffscreenCanvas;
  usedAt: number;
  width: number;
  height: number;
}

/** Text widths in CSS px at a font scale, each comment measured once (the engine's measure function). */
export function textMeasure(ctx: Context2D) {
  const widths = new Map<number, number>();
  let scale = 1;
  const measure = (item: Danmaku): number => {
    const known = widths.get(item.id);
    if (known !== undefined) return known;
    ctx.font = danmakuFont(item, scale);
    const width = Math.ceil(ctx.measureText(item.text).width) + OUTLINE_PX * 2;
    widths.set(item.id, width);
    return width;
  };
  return Object.assign(measure, {
    setScale(fontScale: number) {
      if (fontScale === scale) return;
      scale = fontScale;
      widths.clear();
    },
  });
}

export class SpritePainter {
  private readonly target: Surface;
  private readonly ctx: Context2D;
  private sprites = new Map<number, Sprite>();
  /** One surface every bitmap is rendered on, resized to each (cheaper than a new canvas each). */
  private scratch?: OffscreenCanvas;
  private frame = 0;
  private drewSomething = false;
  private pixelRatio = 1;
  private fontScale = 1;
  opacity = 1;
  /** Whether a comment is drawn inside a frame (live, arrived after its moment). */
  isFramed: (id: number) => boolean = () => false;

  constructor(target: Surface) {
    this.target = target;
    this.ctx = target.getContext('2d') as Context2D;
  }

  get dpr() {
    return this.pixelRatio;
  }

  /** Canvas pixels per CSS px: bitmaps made at another ratio are let go. */
  set dpr(dpr: number) {
    if (dpr === this.pixelRatio) return;
    this.pixelRatio = dpr;
    this.clear();
  }

  setFontScale(fontScale: number) {
    if (fontScale === this.fontScale) return;
    this.fontScale = fontScale;
    this.clear();
  }

  /** Lets every bitmap go (a new font scale; another video on the same canvas). */
  clear() {
    for (const id of [...this.sprites.keys()]) this.dropSprite(id);
  }

  has(id: number) {
    return this.sprites.has(id);
  }

  /** The bitmap of a comment at this size (CSS px), rendered now unless it was already. */
  render(item: Danmaku, width: number, height: number): Sprite {
    const known = this.sprites.get(item.id);
    if (known && known.width === width && known.height === height) return known;
    this.dropSprite(item.id);
    const w = Math.max(1, Math.ceil(width * this.dpr));
    const h = Math.max(1, Math.ceil(height * this.dpr));
    let surface: Surface;
    if (typeof OffscreenCanvas === 'function') {
      surface = this.scratch ??= new OffscreenCanvas(w, h);
      // Resizing also clears it and resets its context's state.
      surface.width = w;
      surface.height = h;
    } else surface = Object.assign(document.createElement('canvas'), { width: w, height: h });
    const g = surface.getContext('2d') as Context2D;
    g.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    g.font = danmakuFont(item, this.fontScale);
    g.textBaseline = 'middle';
    g.lineJoin = 'round';
    const y = height / 2;
    g.lineWidth = OUTLINE_PX;
    g.strokeStyle = item.color.toLowerCase() === '000000' ? 'rgba(255,255,255,0.8)' : 'rgba(0,0,0,0.72)';
    g.strokeText(item.text, OUTLINE_PX, y);
    if (item.enableRainbow) {
      const gradient = g.createLinearGradient(0, 0, width, 0);
      RAINBOW.forEach((c, i) => gradient.addColorStop(i / (RAINBOW.length - 1), c));
      g.fillStyle = gradient;
    } else g.fillStyle = `#${item.color}`;
    g.fillText(item.text, OUTLINE_PX, y);
    if (this.isFramed(item.id)) {
      g.lineWidth = NEW_FRAME_PX;
      g.strokeStyle = NEW_FRAME_COLOR;
      g.strokeRect(NEW_FRAME_PX / 2, NEW_FRAME_PX / 2, width - NEW_FRAME_PX, height - NEW_FRAME_PX);
    }
    // An ImageBitmap is immutable: the cheapest thing to blit (bench/danmaku-render.ts).
    const image = 'transferToImageBitmap' in surface ? surface.transferToImageBitmap() : surface;
    const sprite: Sprite = { image, usedAt: this.frame, width, height };
    this.sprites.set(item.id, sprite);
    return sprite;
  }

  /**
   * Clears the canvas and blits every visible comment. A comment just entering (or just leaving)
   * is wholly off the canvas and costs nothing, not even its bitmap. With a `budgetMs`, bitmaps
   * still to render stop once that much time went on them in this frame: those comments appear
   * a frame or two later (they are entering at the edge), and a burst never makes one long frame.
   * Says whether some were left for the next frame.
   */
  draw(stage: readonly Drawable[], budgetMs = Infinity): boolean {
    this.frame++;
    const { ctx } = this;
    if (!stage.length && !this.drewSomething) return false;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.target.width, this.target.height);
    ctx.globalAlpha = this.opacity;
    // Sprites land on whole pixels at their own size: a plain copy, no resampling.
    ctx.imageSmoothingEnabled = false;
    const { dpr } = this;
    const right = this.target.width;
    const limited = budgetMs !== Infinity;
    const t0 = limited ? performance.now() : 0;
    let overBudget = false;
    for (const a of stage) {
      const x = Math.round(a.x * dpr);
      if (x >= right || x + a.width * dpr <= 0) continue;
      let sprite = this.sprites.get(a.item.id);
      if (!sprite || sprite.width !== a.width || sprite.height !== a.height) {
        if (overBudget) continue;
        sprite = this.render(a.item, a.width, a.height);
        if (limited && performance.now() - t0 > budgetMs) overBudget = true;
      }
      sprite.usedAt = this.frame;
      ctx.drawImage(sprite.image, x, Math.round(a.y * dpr));
    }
    this.drewSomething = stage.length > 0;
    // Bitmaps of comments that left the stage a while ago are let go.
    if (this.frame % SPRITE_FRAMES === 0)
      for (const [id, s] of this.sprites) if (this.frame - s.usedAt > SPRITE_FRAMES) this.dropSprite(id);
    return overBudget;
  }

  private dropSprite(id: number) {
    const image = this.sprites.get(id)?.image;
    if (image && 'close' in image) image.close();
    this.sprites.delete(id);
  }
}
