import { describe, expect, it } from 'vitest';
import { clampCrop, sourceRect, sourceSquare } from '../../src/lib/image/crop.ts';

describe('avatar crop', () => {
  it('shows the centred square of the picture at zoom 1', () => {
    expect(sourceSquare(800, 600, 240, { zoom: 1, dx: 0, dy: 0 })).toEqual({ x: 100, y: 0, side: 600 });
    expect(sourceSquare(600, 900, 240, { zoom: 1, dx: 0, dy: 0 })).toEqual({ x: 0, y: 150, side: 600 });
  });
  it('zooms into the centre and follows a move', () => {
    expect(sourceSquare(800, 600, 240, { zoom: 2, dx: 0, dy: 0 })).toEqual({ x: 250, y: 150, side: 300 });
    // Moving the picture right by 40 viewport px shows what was to its left: 40 / (240/600*2) = 50 px.
    expect(sourceSquare(800, 600, 240, { zoom: 2, dx: 40, dy: 0 })).toEqual({ x: 200, y: 150, side: 300 });
  });
  it('never leaves a gap or zooms out of range', () => {
    expect(clampCrop(800, 600, 240, { zoom: 1, dx: 1000, dy: 50 })).toEqual({ zoom: 1, dx: 40, dy: 0 });
    expect(clampCrop(800, 600, 240, { zoom: 9, dx: 0, dy: 0 }).zoom).toBe(4);
    expect(clampCrop(800, 600, 240, { zoom: 0.2, dx: 0, dy: 0 }).zoom).toBe(1);
    const square = sourceSquare(800, 600, 240, { zoom: 1, dx: -9999, dy: 9999 });
    expect(square.x + square.side).toBeLessThanOrEqual(800);
    expect(square.y).toBeGreaterThanOrEqual(0);
  });
});

describe('16:9 cover crop', () => {
  const viewport = { width: 320, height: 180 };
  it('shows the centred 16:9 band of a taller or wider picture at zoom 1', () => {
    expect(sourceRect(1600, 1200, viewport, { zoom: 1, dx: 0, dy: 0 })).toEqual({
      x: 0,
      y: 150,
      width: 1600,
      height: 900,
    });
    expect(sourceRect(2000, 900, viewport, { zoom: 1, dx: 0, dy: 0 })).toEqual({
      x: 200,
      y: 0,
      width: 1600,
      height: 900,
    });
  });
  it('keeps a 16:9 picture whole and only lets it move once zoomed', () => {
    expect(clampCrop(1280, 720, viewport, { zoom: 1, dx: 50, dy: 50 })).toEqual({ zoom: 1, dx: 0, dy: 0 });
    const rect = sourceRect(1280, 720, viewport, { zoom: 2, dx: 9999, dy: -9999 });
    expect(rect).toEqual({ x: 0, y: 360, width: 640, height: 360 });
  });
});
