import { describe, expect, it } from 'vitest';
import { LOCAL_IMAGES, readImageProvider, resizedImageUrl } from '../../src/lib/image/provider.ts';
import { posterSources } from '../../src/lib/catalogue/poster.ts';
import { pictureSources } from '../../src/lib/photo/picture.ts';
import { readRuntimeConfig } from '../../src/lib/config.ts';
import { readServerConfig } from '../../server/config.ts';
import { createSecurityHeaders } from '../../server/http/security-headers.ts';

const TEMPLATE = 'https://img.example/rs:{width}/plain/{src}';
const imgproxy = readImageProvider('template', TEMPLATE);
const POSTER = '/media/videos/4/poster-0123456789ab-640.jpg';

describe('the image provider setting (PUBLIC_IMAGE_PROVIDER, PUBLIC_IMAGE_PROVIDER_URL)', () => {
  it('is local by default and when so named', () => {
    expect(readImageProvider(undefined, undefined)).toEqual(LOCAL_IMAGES);
    expect(readImageProvider('local', 'https://ignored/{width}/{src}')).toEqual(LOCAL_IMAGES);
    const config = readRuntimeConfig({});
    expect(readImageProvider(config.imageProvider, config.imageProviderUrl)).toEqual(LOCAL_IMAGES);
  });

  it('reads the template provider from the environment, PUBLIC_ or not', () => {
    const config = readRuntimeConfig({ PUBLIC_IMAGE_PROVIDER: 'template', PUBLIC_IMAGE_PROVIDER_URL: TEMPLATE });
    expect(readImageProvider(config.imageProvider, config.imageProviderUrl)).toEqual({
      kind: 'template',
      url: TEMPLATE,
    });
  });

  it('refuses a provider it does not know, and a template without {width} or {src}', () => {
    expect(() => readImageProvider('cloudinary', TEMPLATE)).toThrow(/local or template/);
    expect(() => readImageProvider('template', undefined)).toThrow(/PUBLIC_IMAGE_PROVIDER_URL/);
    expect(() => readImageProvider('template', 'https://img.example/{src}')).toThrow(/\{width\}/);
    expect(() => readImageProvider('template', 'https://img.example/{width}/')).toThrow(/\{src\}/);
  });

  it('stops the server from starting with such a setting', () => {
    expect(() => readServerConfig({ PUBLIC_IMAGE_PROVIDER: 'template' })).toThrow(/PUBLIC_IMAGE_PROVIDER_URL/);
    expect(
      readServerConfig({ PUBLIC_IMAGE_PROVIDER: 'template', PUBLIC_IMAGE_PROVIDER_URL: TEMPLATE }).runtime
        .imageProviderUrl,
    ).toBe(TEMPLATE);
  });

  it('fills the template with the width and the percent-encoded source', () => {
    expect(resizedImageUrl(imgproxy as Extract<typeof imgproxy, { kind: 'template' }>, '/media/a b.jpg?v=1', 320)).toBe(
      'https://img.example/rs:320/plain/%2Fmedia%2Fa%20b.jpg%3Fv%3D1',
    );
  });
});

describe('posters and covers', () => {
  it('local: the poster set written beside the poster, per format', () => {
    const local = posterSources(POSTER)!;
    expect(local.src).toBe(POSTER);
    expect(local.sets.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(local.jpgSrcset).toBe(
      [320, 640, 960, 1280].map((w) => `/media/videos/4/poster-0123456789ab-${w}.jpg ${w}w`).join(', '),
    );
    expect(posterSources('/media/covers/old.png')).toBeNull();
  });

  it('template: every width from the largest file of the set, one srcset, the service picks the format', () => {
    const sources = posterSources(POSTER, imgproxy)!;
    const original = encodeURIComponent('/media/videos/4/poster-0123456789ab-1280.jpg');
    expect(sources.src).toBe(`https://img.example/rs:640/plain/${original}`);
    expect(sources.sets).toEqual([]);
    expect(sources.jpgSrcset).toBe(
      [320, 640, 960, 1280].map((w) => `https://img.example/rs:${w}/plain/${original} ${w}w`).join(', '),
    );
  });

  it('template: a picture without a set is resized too; no picture stays none', () => {
    expect(posterSources('/media/covers/old.png', imgproxy)!.src).toBe(
      `https://img.example/rs:640/plain/${encodeURIComponent('/media/covers/old.png')}`,
    );
    expect(posterSources('', imgproxy)).toBeNull();
  });
});

describe('photos', () => {
  const image = { base: '/media/photos/3/7', widths: [320, 640, 1280], animated: false };

  it('local: the files of each width and format', () => {
    expect(pictureSources(image)).toMatchObject({
      src: '/media/photos/3/7/640.jpg',
      smallest: '/media/photos/3/7/320.jpg',
      webp: expect.stringContaining('/media/photos/3/7/1280.webp 1280w'),
    });
  });

  it('template: the largest file resized to each width written', () => {
    const sources = pictureSources(image, imgproxy)!;
    const original = encodeURIComponent('/media/photos/3/7/1280.jpg');
    expect(sources).toMatchObject({
      avif: null,
      webp: null,
      src: `https://img.example/rs:640/plain/${original}`,
      smallest: `https://img.example/rs:320/plain/${original}`,
    });
    expect(sources.jpeg.split(', ')).toHaveLength(3);
    // An animation's original is its WebP, which keeps the motion.
    expect(pictureSources({ ...image, animated: true }, imgproxy)!.src).toContain(
      encodeURIComponent('/media/photos/3/7/1280.webp'),
    );
  });
});

describe('the Content-Security-Policy', () => {
  it('lets pictures come from the resizing service', () => {
    const imgSrc = (imageProviderUrl?: string) => {
      const headers = createSecurityHeaders({
        apiBase: '/api/',
        videoManifestUrl: '/media/videos/{videoId}/master.m3u8',
        inContextScriptUrl: 'https://cdn.example/jipt.js',
        imageProviderUrl,
      });
      return /img-src ([^;]*)/.exec(headers.headersFor('/en')['Content-Security-Policy'] ?? '')?.[1] ?? '';
    };
    expect(imgSrc(TEMPLATE).split(' ')).toContain('https://img.example');
    expect(imgSrc(undefined)).not.toContain('img.example');
  });
});
