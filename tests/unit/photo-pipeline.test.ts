import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import exifr from 'exifr';
import { inspectPhoto, readCameraData, renderPhoto, type PhotoFormat } from '../../server/media/photo-pipeline.ts';
import { animatedGif, jpegWithGps, plainPng, pngBomb } from '../fixtures/photos.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'photo-pipeline-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

async function render(path: string) {
  const inspection = await inspectPhoto(path);
  if (!inspection.ok) throw new Error(inspection.reason);
  const outputs = new Map<string, Buffer>();
  const result = await renderPhoto(path, inspection, async (width: number, format: PhotoFormat, bytes: Buffer) => {
    outputs.set(`${width}.${format}`, bytes);
  });
  return { result, outputs };
}

describe('photo pipeline', () => {
  it('strips the GPS position and every EXIF tag from each variant, and keeps the camera only as values', async () => {
    const source = await file('gps.jpg', await jpegWithGps(2000, 1200));
    // The fixture really carries a position (else the test would prove nothing).
    const before = await exifr.gps(source);
    expect(before?.latitude).toBeCloseTo(35.658, 2);
    const { result, outputs } = await render(source);
    expect(result.widths).toEqual([320, 640, 1280]);
    expect([...outputs.keys()].sort()).toEqual([
      '1280.avif',
      '1280.jpg',
      '1280.webp',
      '320.avif',
      '320.jpg',
      '320.webp',
      '640.avif',
      '640.jpg',
      '640.webp',
    ]);
    for (const [name, bytes] of outputs) {
      const tags = await exifr.parse(bytes, { gps: true, tiff: true, exif: true, xmp: true }).catch(() => undefined);
      expect(tags?.latitude, name).toBeUndefined();
      expect(tags?.GPSLatitude, name).toBeUndefined();
      expect(tags?.Make, name).toBeUndefined();
      expect((await sharp(bytes).metadata()).exif, name).toBeUndefined();
    }
    expect(await readCameraData(source)).toEqual({ make: 'KiraCam', model: 'Star 24' });
  });

  it('applies the orientation, so a sideways photo comes out upright', async () => {
    // Orientation 6: stored 1600 × 1000, shown turned a quarter (1000 wide).
    const source = await file('turned.jpg', await jpegWithGps(1600, 1000, 6));
    const { result, outputs } = await render(source);
    expect({ width: result.width, height: result.height }).toEqual({ width: 1000, height: 1600 });
    const meta = await sharp(outputs.get('640.jpg')!).metadata();
    expect({ width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({
      width: 640,
      height: 1024,
      orientation: undefined,
    });
  });

  it('renders one variant at its own width for an image narrower than 320, and a blurred placeholder', async () => {
    const { result, outputs } = await render(await file('small.png', await plainPng(200, 100)));
    expect(result.widths).toEqual([200]);
    expect(outputs.size).toBe(3);
    expect(result.placeholder).toMatch(/^data:image\/webp;base64,/);
    const tiny = await sharp(Buffer.from(result.placeholder.split(',')[1], 'base64')).metadata();
    expect(tiny.width).toBe(16);
  });

  it('keeps an animation moving in WebP, with its first frame as the JPEG and no AVIF', async () => {
    const { result, outputs } = await render(await file('moving.gif', await animatedGif()));
    expect(result.animated).toBe(true);
    expect([...outputs.keys()].sort()).toEqual(['200.jpg', '200.webp']);
    expect((await sharp(outputs.get('200.webp')!, { animated: true }).metadata()).pages).toBe(2);
    expect((await sharp(outputs.get('200.jpg')!).metadata()).height).toBe(120);
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(100_000);
    expect(await inspectPhoto(await file('bomb.png', bomb))).toEqual({ ok: false, reason: 'TOO_MANY_PIXELS' });
  });

  it('refuses what is not an image, and images of other formats', async () => {
    expect(await inspectPhoto(await file('text.jpg', 'just some words, not a picture'))).toEqual({
      ok: false,
      reason: 'NOT_AN_IMAGE',
    });
    const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect(await inspectPhoto(await file('scan.tiff', tiff))).toEqual({
      ok: false,
      reason: 'UNSUPPORTED_IMAGE_FORMAT',
    });
    const avif = await sharp(await plainPng(64, 64))
      .avif()
      .toBuffer();
    expect(await inspectPhoto(await file('ok.avif', avif))).toMatchObject({ ok: true, format: 'heif' });
  });

  it('refuses a file over 50 MB', async () => {
    const path = join(dir, 'huge.jpg');
    await writeFile(path, Buffer.alloc(50 * 1024 * 1024 + 1));
    expect(await inspectPhoto(path)).toEqual({ ok: false, reason: 'IMAGE_TOO_LARGE' });
    expect((await readFile(path)).length).toBeGreaterThan(0);
  });
});
