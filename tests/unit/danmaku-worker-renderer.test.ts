import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OnStage } from '../../src/lib/danmaku/engine.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';
import { FRAME_STRIDE, HOLD_MS, StageReplica, type ToWorker } from '../../src/lib/danmaku/render-protocol.ts';

/** The worker the renderer starts: records what the page posts (no worker threads in Node). */
class FakeWorker extends EventTarget {
  posted: Array<{ message: ToWorker; transfer: unknown[] }> = [];
  terminated = false;
  postMessage(message: ToWorker, transfer: unknown[] = []) {
    this.posted.push({ message, transfer });
  }
  terminate() {
    this.terminated = true;
  }
  of<T extends ToWorker['type']>(type: T) {
    return this.posted.map((p) => p.message).filter((m): m is Extract<ToWorker, { type: T }> => m.type === type);
  }
}
let workers: FakeWorker[] = [];
vi.mock('../../src/lib/danmaku/render-worker-start.ts', () => ({
  startRenderWorker: () => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  },
}));

const { WorkerDanmakuRenderer, createDanmakuRenderer, canDrawInWorker } = await import(
  '../../src/lib/danmaku/worker-renderer.ts'
);
const { CanvasDanmakuRenderer } = await import('../../src/lib/danmaku/canvas-renderer.ts');

function fakeCanvas() {
  return {
    style: {} as Record<string, string>,
    width: 0,
    height: 0,
    isConnected: true,
    transfers: 0,
    transferControlToOffscreen() {
      if (this.transfers++) throw new Error('InvalidStateError: already transferred');
      return { offscreen: true };
    },
    getContext: () => ({ measureText: () => ({ width: 0 }) }),
  };
}

let nextId = 1;
function onStage(x: number, over: Partial<OnStage> = {}, item: Partial<Danmaku> = {}): OnStage {
  const d: Danmaku = {
    id: nextId++,
    time: 0,
    text: 'hello',
    color: 'ffffff',
    fontSize: 'medium',
    mode: 'rtl',
    enableRainbow: false,
    editDateTime: 0,
    ...item,
  };
  return { item: d, mode: d.mode, start: 0, duration: 8, width: 56, height: 25, y: 50, x, layer: 0, ...over };
}

describe('drawing danmaku in a worker', () => {
  beforeEach(() => {
    workers = [];
    vi.stubGlobal('Worker', FakeWorker);
    vi.stubGlobal('OffscreenCanvas', class {});
    vi.stubGlobal(
      'HTMLCanvasElement',
      class {
        transferControlToOffscreen() {}
      },
    );
    vi.stubGlobal('document', {
      createElement: () => ({
        getContext: () => ({ font: '', measureText: (t: string) => ({ width: t.length * 10 }) }),
      }),
    });
    vi.stubGlobal('navigator', { hardwareConcurrency: 8 });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is chosen where the browser can hand a canvas to a worker and has four cores, else the main thread draws', () => {
    expect(canDrawInWorker()).toBe(true);
    expect(createDanmakuRenderer(fakeCanvas() as unknown as HTMLCanvasElement)).toBeInstanceOf(WorkerDanmakuRenderer);
    vi.stubGlobal('navigator', { hardwareConcurrency: 2 });
    expect(canDrawInWorker()).toBe(false);
    expect(createDanmakuRenderer(fakeCanvas() as unknown as HTMLCanvasElement)).toBeInstanceOf(CanvasDanmakuRenderer);
    vi.stubGlobal('navigator', { hardwareConcurrency: 8 });
    vi.stubGlobal('HTMLCanvasElement', class {});
    expect(canDrawInWorker()).toBe(false);
    expect(createDanmakuRenderer(fakeCanvas() as unknown as HTMLCanvasElement)).toBeInstanceOf(CanvasDanmakuRenderer);
  });

  it('hands the canvas over once, describes each comment once, and sends positions and speeds each frame', () => {
    const canvas = fakeCanvas();
    const renderer = new WorkerDanmakuRenderer(canvas as unknown as HTMLCanvasElement);
    renderer.resize(1280, 720, 1);
    const [worker] = workers;
    expect(worker.posted[0].message.type).toBe('init');
    expect(worker.posted[0].transfer).toHaveLength(1);
    expect(canvas.style.width).toBe('1280px');

    const scrolling = onStage(1000);
    const fixed = onStage(612, { mode: 'top', duration: 4 }, { mode: 'top' });
    renderer.draw([scrolling, fixed], 1, 1000);
    scrolling.x -= 2.7;
    renderer.draw([scrolling, fixed], 1, 1016);
    const frames = worker.of('frame');
    expect(frames).toHaveLength(2);
    expect(frames[0].specs.map((s) => s.item.id)).toEqual([scrolling.item.id, fixed.item.id]);
    expect(frames[1].specs).toEqual([]); // already described
    expect(frames[1].at).toBe(performance.timeOrigin + 1016);
    expect([...frames[1].stage]).toEqual([scrolling.item.id, 997.3, 50, -(1280 + 56) / 8, fixed.item.id, 612, 50, 0]);
    expect(worker.posted.at(-1)!.transfer).toEqual([frames[1].stage.buffer]); // moved, not copied

    // A new size (another font scale) describes it again.
    scrolling.width = 84;
    renderer.draw([scrolling], 1);
    expect(worker.of('frame')[2].specs.map((s) => s.width)).toEqual([84]);
  });

  it('forgets comments gone for a while, and sends one empty frame when the stage empties', () => {
    const renderer = new WorkerDanmakuRenderer(fakeCanvas() as unknown as HTMLCanvasElement);
    const [worker] = workers;
    const gone = onStage(100);
    renderer.draw([gone]);
    for (let i = 0; i < 240; i++) renderer.draw([]);
    const frames = worker.of('frame');
    expect(frames).toHaveLength(2); // the one with it, then one clearing the stage; nothing after
    renderer.draw([onStage(10)]);
    for (let i = 0; i < 120; i++) renderer.draw([onStage(10, {}, { id: 999_999 })]);
    expect(worker.of('frame').flatMap((f) => f.forget)).toContain(gone.item.id);
  });

  it('marks live comments that came late so the worker frames them', () => {
    const renderer = new WorkerDanmakuRenderer(fakeCanvas() as unknown as HTMLCanvasElement);
    const late = onStage(500);
    renderer.framed = new Set([late.item.id]);
    renderer.draw([late, onStage(600)]);
    expect(workers[0].of('frame')[0].specs.map((s) => s.framed)).toEqual([true, false]);
  });

  it('lets the next overlay on the same canvas take the worker over; a canvas gone from the page ends it', async () => {
    const canvas = fakeCanvas();
    const first = new WorkerDanmakuRenderer(canvas as unknown as HTMLCanvasElement);
    first.destroy();
    const second = new WorkerDanmakuRenderer(canvas as unknown as HTMLCanvasElement);
    await new Promise((r) => setTimeout(r, 0));
    expect(workers).toHaveLength(1);
    expect(canvas.transfers).toBe(1);
    expect(workers[0].terminated).toBe(false);
    expect(workers[0].of('reset').length).toBeGreaterThanOrEqual(2);
    canvas.isConnected = false;
    second.destroy();
    await new Promise((r) => setTimeout(r, 0));
    expect(workers[0].terminated).toBe(true);
  });
});

describe("the worker's copy of the stage", () => {
  const item = (id: number): Danmaku => ({
    id,
    time: 0,
    text: 'x',
    color: 'ffffff',
    fontSize: 'medium',
    mode: 'rtl',
    enableRainbow: false,
    editDateTime: 0,
  });
  const frame = (
    at: number,
    rate: number,
    entries: number[][],
    specs = entries.map(([id]) => ({ item: item(id), width: 40, height: 25, framed: id === 2 })),
  ) => ({ type: 'frame' as const, at, rate, stage: new Float64Array(entries.flat()), specs, forget: [] });

  it('moves scrolling comments on at their speed while the video runs, for a short while only', () => {
    const replica = new StageReplica();
    replica.apply(
      frame(1000, 1, [
        [1, 500, 10, -160],
        [2, 620, 40, 0],
      ]),
    );
    expect(FRAME_STRIDE).toBe(4);
    expect(replica.at(1000).map((d) => [d.item.id, d.x, d.y])).toEqual([
      [1, 500, 10],
      [2, 620, 40],
    ]);
    expect(replica.at(1050).map((d) => d.x)).toEqual([492, 620]);
    expect(replica.at(1000 + HOLD_MS * 5).map((d) => d.x)).toEqual([500 - 0.16 * HOLD_MS, 620]); // no guessing far ahead
    expect(replica.moving(1050)).toBe(true);
    expect(replica.moving(1000 + HOLD_MS)).toBe(false);
    expect(replica.isFramed(2)).toBe(true);
  });

  it('stands still when the video does, at double speed moves twice as far', () => {
    const replica = new StageReplica();
    replica.apply(frame(0, 0, [[1, 500, 10, -160]]));
    expect(replica.at(50)[0].x).toBe(500);
    expect(replica.moving(10)).toBe(false);
    replica.apply(frame(100, 2, [[1, 500, 10, -160]], []));
    expect(replica.at(150)[0].x).toBe(484);
  });

  it('draws only comments it was told about, forgets on request and empties on reset', () => {
    const replica = new StageReplica();
    replica.apply(frame(0, 1, [[1, 1, 1, 0]]));
    replica.apply({
      ...frame(
        10,
        1,
        [
          [1, 1, 1, 0],
          [3, 2, 2, 0],
        ],
        [],
      ),
      forget: [1],
    });
    expect(replica.at(10)).toEqual([]);
    replica.apply(frame(20, 1, [[3, 2, 2, 0]]));
    expect(replica.at(20)).toHaveLength(1);
    replica.reset();
    expect(replica.at(30)).toEqual([]);
  });
});
