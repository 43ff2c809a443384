/**
 * libass's worker refuses WebGL drawn in software (src/lib/subtitles/ass-worker-gl.ts): every
 * WebGL context jassub asks for carries `failIfMajorPerformanceCaveat`, with jassub's own options
 * kept; a 2D context is asked as it was.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

class FakeOffscreenCanvas {
  getContext(type: string, options?: Record<string, unknown>) {
    return { type, options };
  }
}

const original = (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas;
beforeAll(async () => {
  (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas = FakeOffscreenCanvas;
  vi.resetModules();
  await import('../../src/lib/subtitles/ass-worker-gl.ts');
});
afterAll(() => {
  (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas = original;
});

describe("libass's worker and software WebGL", () => {
  it('asks every WebGL context to fail rather than be drawn in software, keeping the options given', () => {
    const canvas = new FakeOffscreenCanvas();
    expect(canvas.getContext('webgl2', { alpha: true, premultipliedAlpha: false })).toEqual({
      type: 'webgl2',
      options: { alpha: true, premultipliedAlpha: false, failIfMajorPerformanceCaveat: true },
    });
    expect(canvas.getContext('webgl')).toEqual({ type: 'webgl', options: { failIfMajorPerformanceCaveat: true } });
  });

  it('leaves a 2D context as asked', () => {
    const canvas = new FakeOffscreenCanvas();
    expect(canvas.getContext('2d', { alpha: true })).toEqual({ type: '2d', options: { alpha: true } });
  });
});
