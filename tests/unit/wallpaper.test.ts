import { describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_ITEM,
  applyShifts,
  canOperate,
  clampPosition,
  nextDisplayIndex,
  orderedWithPlaceholder,
  shiftsAfterDelete,
  shiftsForMove,
  type Placed,
} from '../../src/lib/wallpaper/list.ts';
import {
  BRIGHTNESS_THRESHOLD,
  brightness,
  dominantColour,
  textColourOver,
  toHex,
} from '../../src/lib/wallpaper/colour.ts';
import { WorkerPool, type PoolWorker } from '../../src/lib/wallpaper/worker-pool.ts';
import { DEFAULT_BACKGROUND_IMAGE, parseBackgroundImage } from '../../src/lib/stores/background-image.ts';
import { fitWithin, WALLPAPER_MAX_EDGE } from '../../src/lib/wallpaper/downscale.ts';

// Keys deliberately unrelated to positions: displayIndex is the order, the key only names the row.
const list = (): Placed[] => [
  { key: 7, displayIndex: 0 },
  { key: 3, displayIndex: 1 },
  { key: 9, displayIndex: 2 },
  { key: 4, displayIndex: 3 },
];
const order = (items: Placed[]) => [...items].sort((a, b) => a.displayIndex - b.displayIndex).map((i) => i.key);

describe('wallpaper list operations (SPEC §4-§5)', () => {
  it('does nothing when the database is closed or the key is negative', () => {
    expect(canOperate(false, 3)).toBe(false);
    expect(canOperate(true, -1)).toBe(false);
    expect(canOperate(true, -7)).toBe(false);
    expect(canOperate(true, 1.5)).toBe(false);
    expect(canOperate(true, 0)).toBe(true);
  });

  it('puts the -1 placeholder first, then the images by displayIndex', () => {
    const ordered = orderedWithPlaceholder(list().reverse(), PLACEHOLDER_ITEM as Placed);
    expect(ordered.map((i) => i.key)).toEqual([-1, 7, 3, 9, 4]);
    expect(PLACEHOLDER_ITEM).toMatchObject({ key: -1, displayIndex: -1, filename: '', url: '', color: '' });
  });

  it('adds at the end', () => {
    expect(nextDisplayIndex([])).toBe(0);
    expect(nextDisplayIndex(list())).toBe(4);
  });

  it('shifts every later image down by one on delete, and only those', () => {
    const shifts = shiftsAfterDelete(list(), 3)!;
    expect([...shifts]).toEqual([
      [9, 1],
      [4, 2],
    ]);
    const after = applyShifts(
      list().filter((i) => i.key !== 3),
      shifts,
    );
    expect(after.map((i) => i.displayIndex).sort()).toEqual([0, 1, 2]);
    expect(order(after)).toEqual([7, 9, 4]);
    expect(shiftsAfterDelete(list(), 4)!.size).toBe(0); // the last one: nobody moves
    expect(shiftsAfterDelete(list(), 42)).toBeNull();
  });

  it('moves later: those between shift up by one', () => {
    const after = applyShifts(list(), shiftsForMove(list(), 7, 2)!);
    expect(order(after)).toEqual([3, 9, 7, 4]);
    expect(after.map((i) => i.displayIndex).sort()).toEqual([0, 1, 2, 3]);
  });

  it('moves earlier: those between shift down by one', () => {
    const shifts = shiftsForMove(list(), 4, 1)!;
    expect(shifts.has(7)).toBe(false); // before the range: untouched
    expect(order(applyShifts(list(), shifts))).toEqual([7, 4, 3, 9]);
  });

  it('clamps the target to 0..count-1', () => {
    expect(order(applyShifts(list(), shiftsForMove(list(), 3, 99)!))).toEqual([7, 9, 4, 3]);
    expect(order(applyShifts(list(), shiftsForMove(list(), 9, -5)!))).toEqual([9, 7, 3, 4]);
    expect(clampPosition(Number.POSITIVE_INFINITY, 4)).toBe(3);
    expect(clampPosition(Number.NaN, 4)).toBe(0);
    expect(clampPosition(2.7, 4)).toBe(2);
    expect(clampPosition(5, 0)).toBe(0);
    expect(shiftsForMove(list(), 9, 2)!.size).toBe(0); // already there
    expect(shiftsForMove(list(), 42, 0)).toBeNull();
  });
});

describe('wallpaper colours (SPEC §9)', () => {
  it('switches text to white below brightness 200 for titles and 150 for body text', () => {
    expect(BRIGHTNESS_THRESHOLD).toEqual({ title: 200, body: 150 });
    expect(brightness('#ffffff')).toBe(255);
    expect(brightness('#000000')).toBe(0);
    const mid = '#b4b4b4'; // 180: between the two thresholds
    expect(brightness(mid)).toBe(180);
    expect(textColourOver(mid, 'title')).toBe('#ffffff');
    expect(textColourOver(mid, 'body')).toBe('#000000');
    expect(textColourOver('#c8c8c8', 'title')).toBe('#000000'); // exactly 200 is not below
    expect(textColourOver('#969696', 'body')).toBe('#000000'); // exactly 150
    expect(textColourOver('', 'title')).toBeNull();
  });

  it('finds the dominant colour, skipping transparent and near-white pixels', () => {
    const pixels: number[] = [];
    const push = (rgb: number[], a: number, n: number) => {
      for (let i = 0; i < n; i++) pixels.push(...rgb, a);
    };
    push([30, 120, 200], 255, 3000); // blue: most of the image
    push([240, 60, 60], 255, 1000);
    push([255, 255, 255], 255, 6000); // white background: ignored
    push([0, 255, 0], 0, 6000); // transparent: ignored
    const hex = dominantColour(new Uint8ClampedArray(pixels))!;
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    expect(Math.abs(r - 30) + Math.abs(g - 120) + Math.abs(b - 200)).toBeLessThan(24);
    expect(dominantColour(new Uint8ClampedArray(400).fill(255))).toBeNull();
    expect(dominantColour(new Uint8ClampedArray([10, 20, 30, 255, 10, 20, 30, 255]), 1)).toBe(toHex([10, 20, 30]));
  });
});

class FakeWorker implements PoolWorker {
  static started = 0;
  static live: FakeWorker[] = [];
  private listeners: ((event: MessageEvent) => void)[] = [];
  pending: { id: number; payload: unknown }[] = [];
  constructor() {
    FakeWorker.started++;
    FakeWorker.live.push(this);
  }
  postMessage(message: unknown) {
    this.pending.push(message as { id: number; payload: unknown });
  }
  addEventListener(type: string, listener: (event: never) => void) {
    if (type === 'message') this.listeners.push(listener as never);
  }
  terminate() {}
  answer() {
    const task = this.pending.shift()!;
    this.listeners.forEach((l) => l({ data: { id: task.id, result: `done ${String(task.payload)}` } } as MessageEvent));
  }
}

describe('palette worker pool', () => {
  it('never starts more than its maximum, queues the rest in order and reuses free workers', async () => {
    FakeWorker.started = 0;
    FakeWorker.live = [];
    const pool = new WorkerPool<string>(() => new FakeWorker(), 5);
    const results = Array.from({ length: 12 }, (_, i) => pool.run(i));
    expect(FakeWorker.started).toBe(5);
    expect(FakeWorker.live.every((w) => w.pending.length === 1)).toBe(true);
    while (FakeWorker.live.some((w) => w.pending.length))
      for (const w of FakeWorker.live) if (w.pending.length) w.answer();
    expect(await Promise.all(results)).toEqual(Array.from({ length: 12 }, (_, i) => `done ${i}`));
    expect(FakeWorker.started).toBe(5);
    expect(() => new WorkerPool(() => new FakeWorker(), 0)).toThrow();
  });
});

describe('BackgroundImage setting (SPEC §3)', () => {
  it('defaults to no image, opacity 0.2, tint 0.75, blur 0 and repairs bad stored values', () => {
    expect(DEFAULT_BACKGROUND_IMAGE).toEqual({ imageIndex: -1, opacity: 0.2, tint: 0.75, blur: 0 });
    expect(parseBackgroundImage(null)).toEqual(DEFAULT_BACKGROUND_IMAGE);
    expect(parseBackgroundImage('{not json')).toEqual(DEFAULT_BACKGROUND_IMAGE);
    expect(parseBackgroundImage('{"imageIndex":-4,"opacity":3,"tint":-1,"blur":"x"}')).toEqual({
      imageIndex: -1,
      opacity: 1,
      tint: 0,
      blur: 0,
    });
    expect(parseBackgroundImage('{"imageIndex":5,"opacity":0.5,"tint":0.5,"blur":8}')).toEqual({
      imageIndex: 5,
      opacity: 0.5,
      tint: 0.5,
      blur: 8,
    });
  });

  it('downscales large images to the maximum edge, keeping the aspect ratio', () => {
    expect(fitWithin(6000, 4000)).toEqual({
      width: WALLPAPER_MAX_EDGE,
      height: Math.round((4000 * WALLPAPER_MAX_EDGE) / 6000),
    });
    expect(fitWithin(1000, 800)).toEqual({ width: 1000, height: 800 });
  });
});
