import { describe, expect, it } from 'vitest';
import { clampView, zoomAt } from '../../src/lib/photo/zoom.ts';
import { parseKpid, pictureSources } from '../../src/lib/photo/picture.ts';

const stage = { width: 800, height: 600 };
// A 600 × 400 image centred in the stage.
const image = { width: 600, height: 400, left: 100, top: 100 };

describe('photo viewer zoom', () => {
  it('keeps the point under the cursor in place', () => {
    const view = zoomAt({ scale: 1, x: 0, y: 0 }, 2, 150, 100, 6);
    // The image point (150, 100) is drawn at 150·2 + x = 150 before and after.
    expect(view.scale).toBe(2);
    expect(150 * view.scale + view.x).toBe(150);
    expect(100 * view.scale + view.y).toBe(100);
  });

  it('never zooms below 1 or above the limit', () => {
    expect(zoomAt({ scale: 1, x: 0, y: 0 }, 0.5, 10, 10, 6)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(zoomAt({ scale: 5, x: 0, y: 0 }, 4, 0, 0, 6).scale).toBe(6);
  });

  it('keeps a zoomed image over the stage and centres an axis smaller than it', () => {
    // At 2x the image is 1200 × 800: wider and taller than the stage, so no gap may show.
    const panned = clampView({ scale: 2, x: 500, y: -2000 }, image, stage);
    expect(image.left + panned.x).toBe(0);
    expect(image.top + panned.y + image.height * 2).toBe(stage.height);
    // At 1.2x it is 720 × 480: smaller than the stage on both axes, so it is centred.
    const small = clampView({ scale: 1.2, x: 300, y: 300 }, image, stage);
    expect(image.left + small.x).toBe((stage.width - 720) / 2);
    expect(clampView({ scale: 1, x: 40, y: 40 }, image, stage)).toEqual({ scale: 1, x: 0, y: 0 });
  });
});

describe('photo addresses and sources', () => {
  it('reads kp ids and nothing else', () => {
    expect(parseKpid('kp12')).toBe(12);
    expect(parseKpid('KP12')).toBe(12);
    for (const bad of ['kp0', 'kp', '12', 'kp1x', 'kv12', 'kp1234567890123456']) expect(parseKpid(bad)).toBeNull();
  });

  it('lists every width in each format, without AVIF for an animation', () => {
    const sources = pictureSources({ base: '/media/photos/3/7', widths: [320, 640, 1280], animated: false })!;
    expect(sources.avif).toBe(
      '/media/photos/3/7/320.avif 320w, /media/photos/3/7/640.avif 640w, /media/photos/3/7/1280.avif 1280w',
    );
    expect(sources.src).toBe('/media/photos/3/7/640.jpg');
    expect(pictureSources({ base: '/m/1/2', widths: [200], animated: true })).toMatchObject({
      avif: null,
      src: '/m/1/2/200.jpg',
    });
    expect(pictureSources({ base: '', widths: [], animated: false })).toBeNull();
  });
});
