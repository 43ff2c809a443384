/**
 * The frame of the click's moment (src/lib/subtitles/ass-frame.ts), against jassub's own
 * scheduling code (its JASSUB class, the worker faked): jassub's `manualRender` settles only
 * when a draw ends with no video frame having come during it (the chain that held the click's
 * frame back); `drawMomentNow`, with jassub's clock held, asks exactly one draw at the video's
 * time, the video's frames meanwhile draw nothing, and jassub draws again at the first frame
 * after its clock is released. The picture's size reaches libass first when it changed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import JASSUB from 'jassub';
import { drawMomentNow } from '../../src/lib/subtitles/ass-frame.ts';

/** One draw asked of the (fake) worker: its time and repaint flag, finished when `done` is called. */
interface Draw {
  time: number;
  repaint: boolean;
  done: () => void;
}

let draws: Draw[];
let resized: number[][];
let made: JASSUB;

/** A video frame presented at `mediaTime`, as jassub's requestVideoFrameCallback handler passes it on. */
const frame = (mediaTime: number, width = 1920, height = 1080) =>
  made.manualRender({ mediaTime, width, height, expectedDisplayTime: 0 });
const video = (currentTime: number) => ({ currentTime, videoWidth: 1920, videoHeight: 1080, readyState: 4 });
/** Lets the promise callbacks waiting run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeAll(() => vi.stubGlobal('self', { devicePixelRatio: 1 }));
afterAll(() => vi.unstubAllGlobals());

beforeEach(() => {
  draws = [];
  resized = [];
  // jassub's own class and methods, its worker replaced by a recorder (its constructor needs a
  // browser: a Worker, an OffscreenCanvas, a ResizeObserver).
  made = Object.create(JASSUB.prototype) as JASSUB;
  Object.assign(made, {
    busy: false,
    _skipped: false,
    _videoWidth: 1920,
    _videoHeight: 1080,
    timeOffset: 0,
    debug: null,
    prescaleFactor: 1,
    prescaleHeightLimit: 1080,
    maxRenderHeight: 0,
    _canvas: { clientWidth: 1280, clientHeight: 720, offsetLeft: 0, offsetTop: 0, style: {} },
    renderer: {
      _draw: (time: number, repaint = false) =>
        new Promise<void>((resolve) => draws.push({ time, repaint, done: resolve })),
      _resizeCanvas: async (...size: number[]) => {
        resized.push(size);
      },
    },
  });
});

describe("jassub's own frames", () => {
  it('hold the promise of a frame asked while the video plays until a draw ends with no frame come during it', async () => {
    let back = false;
    void frame(2.0).then(() => (back = true));
    expect(draws.map((d) => d.time)).toEqual([2.0]);
    // Two video frames while it draws: one more draw, of the latest.
    void frame(2.04);
    void frame(2.08);
    draws[0]!.done();
    await settle();
    expect(draws.map((d) => d.time)).toEqual([2.0, 2.08]);
    expect(back).toBe(false);
    void frame(2.12);
    draws[1]!.done();
    await settle();
    expect(draws.map((d) => d.time)).toEqual([2.0, 2.08, 2.12]);
    expect(back).toBe(false);
    draws[2]!.done();
    await settle();
    expect(back).toBe(true);
  });
});

describe('the frame of the moment, drawn now', () => {
  it('is one draw at the video’s time, repainted, with no draw of the video’s frames before or after it', async () => {
    made.busy = true;
    let back: boolean | null = null;
    const drawn = drawMomentNow(made, video(2.5)).then((ok) => (back = ok));
    await settle();
    expect(draws.map((d) => [d.time, d.repaint])).toEqual([[2.5, true]]);
    void frame(2.54);
    void frame(2.58);
    await settle();
    expect(draws).toHaveLength(1);
    draws[0]!.done();
    await drawn;
    expect(back).toBe(true);
    expect(draws).toHaveLength(1);
    expect(made.busy).toBe(true);
  });

  it('lets jassub draw again at the first video frame once its clock is released', async () => {
    made.busy = true;
    const drawn = drawMomentNow(made, video(2.5));
    await settle();
    void frame(2.54);
    draws[0]!.done();
    await drawn;
    made.busy = false;
    void frame(2.62);
    expect(draws.map((d) => [d.time, d.repaint])).toEqual([
      [2.5, true],
      [2.62, false],
    ]);
  });

  it('gives libass the picture’s size first when it changed (a paused video presents no frame that would)', async () => {
    made.busy = true;
    Object.assign(made, { _videoWidth: 0, _videoHeight: 0 });
    const drawn = drawMomentNow(made, video(1));
    await settle();
    expect(resized).toEqual([[1280, 720, 1920, 1080]]);
    expect(draws.map((d) => [d.time, d.repaint])).toEqual([[1, true]]);
    draws[0]!.done();
    expect(await drawn).toBe(true);
  });

  it('draws nothing while the video has no frame decoded', async () => {
    made.busy = true;
    expect(await drawMomentNow(made, { ...video(0), readyState: 1 })).toBe(false);
    expect(draws).toEqual([]);
    expect(resized).toEqual([]);
  });
});
