import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CanvasDanmakuRenderer } from '../../src/lib/danmaku/canvas-renderer.ts';
import type { OnStage } from '../../src/lib/danmaku/engine.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';

/** A 2D context that records what is asked of it (no canvas in Node). */
class FakeContext {
  calls: Array<[string, ...unknown[]]> = [];
  font = '';
  fillStyle: unknown = '';
  strokeStyle = '';
  lineWidth = 1;
  lineJoin = '';
  textBaseline = '';
  globalAlpha = 1;
  imageSmoothingEnabled = true;
  private record =
    (name: string) =>
    (...args: unknown[]) =>
      void this.calls.push([name, ...args]);
  scale = this.record('scale');
  setTransform = this.record('setTransform');
  clearRect = this.record('clearRect');
  strokeText = this.record('strokeText');
  fillText = this.record('fillText');
  drawImage = (...args: unknown[]) =>
    void this.calls.push(['drawImage', ...args, { smoothing: this.imageSmoothingEnabled, alpha: this.globalAlpha }]);
  /** Half an em per character at the font's size. */
  measureText = (text: string) => ({ width: (text.length * Number(/([\d.]+)px/.exec(this.font)?.[1] ?? 0)) / 2 });
  createLinearGradient = () => ({ addColorStop() {} });
  count(name: string) {
    return this.calls.filter((c) => c[0] === name).length;
  }
}

/** A rendered bitmap, with what was drawn into it (the surface's calls since its last resize). */
class FakeBitmap {
  closed = false;
  readonly width: number;
  readonly height: number;
  readonly drawn: FakeContext;
  constructor(width: number, height: number, drawn: FakeContext) {
    this.width = width;
    this.height = height;
    this.drawn = drawn;
  }
  close() {
    this.closed = true;
  }
}

/** Every bitmap rendered, so tests can see how often text was rendered. */
let bitmaps: FakeBitmap[] = [];
/** A sprite surface: resizing it clears it and its context (as a canvas does). */
class FakeOffscreen {
  ctx = new FakeContext();
  private w: number;
  private h: number;
  constructor(width: number, height: number) {
    this.w = width;
    this.h = height;
  }
  get width() {
    return this.w;
  }
  set width(w: number) {
    this.w = w;
    this.ctx = new FakeContext();
  }
  get height() {
    return this.h;
  }
  set height(h: number) {
    this.h = h;
    this.ctx = new FakeContext();
  }
  getContext() {
    return this.ctx;
  }
  transferToImageBitmap() {
    const bitmap = new FakeBitmap(this.w, this.h, this.ctx);
    this.ctx = new FakeContext();
    bitmaps.push(bitmap);
    return bitmap;
  }
}

function fakeCanvas() {
  const ctx = new FakeContext();
  return { ctx, canvas: { width: 0, height: 0, style: {} as Record<string, string>, getContext: () => ctx } };
}

let nextId = 1;
function onStage(x: number, text = 'hello', over: Partial<Danmaku> = {}): OnStage {
  const item: Danmaku = {
    id: nextId++,
    time: 0,
    text,
    color: 'ffffff',
    fontSize: 'medium',
    mode: 'rtl',
    enableRainbow: false,
    editDateTime: 0,
    ...over,
  };
  return { item, mode: item.mode, start: 0, duration: 8, width: text.length * 10 + 6, height: 25, y: 50, x, layer: 0 };
}

describe('the canvas danmaku renderer', () => {
  let screen: ReturnType<typeof fakeCanvas>;
  let renderer: CanvasDanmakuRenderer;
  beforeEach(() => {
    bitmaps = [];
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    vi.stubGlobal('document', { createElement: () => fakeCanvas().canvas });
    screen = fakeCanvas();
    renderer = new CanvasDanmakuRenderer(screen.canvas as unknown as HTMLCanvasElement);
    renderer.resize(1280, 720, 1);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("renders each comment's text once, then only blits its bitmap, frame after frame", () => {
    const stage = [onStage(100), onStage(400, 'another one'), onStage(900, '弹幕')];
    for (let frame = 0; frame < 30; frame++) {
      for (const a of stage) a.x -= 2.5;
      renderer.draw(stage);
    }
    expect(bitmaps).toHaveLength(3);
    for (const b of bitmaps) {
      expect(b.drawn.count('fillText')).toBe(1);
      expect(b.drawn.count('strokeText')).toBe(1);
    }
    // One clear and one drawImage per comment per frame; no text drawing on the screen.
    expect(screen.ctx.count('clearRect')).toBe(30);
    expect(screen.ctx.count('drawImage')).toBe(90);
    expect(screen.ctx.count('fillText') + screen.ctx.count('strokeText')).toBe(0);
  });

  it('draws immutable bitmaps on whole pixels without smoothing, at the chosen opacity', () => {
    renderer.configure({ opacity: 0.5 });
    renderer.draw([onStage(100.4), onStage(200.6)]);
    const draws = screen.ctx.calls.filter((c) => c[0] === 'drawImage');
    expect(draws.map((c) => [c[2], c[3]])).toEqual([
      [100, 50],
      [201, 50],
    ]);
    for (const c of draws) {
      expect(c[1]).toBeInstanceOf(FakeBitmap);
      expect(c[4]).toEqual({ smoothing: false, alpha: 0.5 });
    }
  });

  it('scales positions and bitmaps by the device pixel ratio', () => {
    renderer.resize(640, 360, 2);
    expect([screen.canvas.width, screen.canvas.height]).toEqual([1280, 720]);
    renderer.draw([onStage(10.3)]);
    const draw = screen.ctx.calls.find((c) => c[0] === 'drawImage')!;
    expect([draw[2], draw[3]]).toEqual([21, 100]);
    expect(bitmaps[0].width).toBe(Math.ceil((5 * 10 + 6) * 2));
  });

  it('skips comments wholly off the canvas (just entering or just leaving)', () => {
    renderer.draw([onStage(1280), onStage(-56), onStage(1279), onStage(-55)]);
    expect(screen.ctx.count('drawImage')).toBe(2);
    expect(bitmaps).toHaveLength(2); // no bitmap is made for a comment nobody sees yet
  });

  it('lets go of bitmaps of comments that left a while ago, and re-renders after a font scale change', () => {
    const gone = onStage(100);
    const staying = onStage(300);
    renderer.draw([gone, staying]);
    const goneBitmap = screen.ctx.calls.find((c) => c[0] === 'drawImage')![1] as FakeBitmap;
    for (let frame = 0; frame < 240; frame++) renderer.draw([staying]);
    expect(goneBitmap.closed).toBe(true);

    const before = bitmaps.length;
    renderer.configure({ fontScale: 1.5 });
    renderer.draw([staying]);
    expect(bitmaps.length).toBe(before + 1);
    expect(bitmaps.at(-1)!.drawn.font).toContain('30px');
  });

  it('measures each comment once at the current scale', () => {
    const item = onStage(0, 'abcd').item;
    const first = renderer.measure(item);
    expect(first).toBe(40 + 6);
    expect(renderer.measure(item)).toBe(first);
    renderer.configure({ fontScale: 2 });
    expect(renderer.measure(item)).toBe(80 + 6);
  });

  it('leaves an empty canvas alone until something comes on stage, and clears it once after', () => {
    renderer.draw([]);
    expect(screen.ctx.count('clearRect')).toBe(0);
    renderer.draw([onStage(10)]);
    renderer.draw([]);
    renderer.draw([]);
    expect(screen.ctx.count('clearRect')).toBe(2);
  });
  it('prepares bitmaps of coming comments while idle, so their first frame only blits', () => {
    const coming = [onStage(1280, 'soon'), onStage(1280, 'later'), onStage(1280, 'much later')];
    const height = 25; // itemHeight('medium', 1): the same size the engine gives them on stage
    for (const a of coming) {
      a.width = renderer.measure(a.item);
      a.height = height;
    }
    let budget = 2;
    renderer.prepare(
      coming.map((a) => a.item),
      () => (budget-- > 0 ? 5 : 0),
    ); // idle time for two
    expect(bitmaps).toHaveLength(2);
    for (const a of coming) a.x = 600;
    renderer.draw(coming);
    expect(bitmaps).toHaveLength(3); // only the one that was not ready is drawn in the frame
    expect(bitmaps.every((b) => b.drawn.count('fillText') === 1)).toBe(true);
    // Prepared at a size the stage no longer uses (the font scale changed in between): redrawn.
    const resized = onStage(500, 'resized');
    renderer.prepare([resized.item], () => 5);
    resized.width = renderer.measure(resized.item) + 4;
    renderer.draw([resized]);
    expect(bitmaps.at(-1)!.width).toBe(resized.width);
  });
});
