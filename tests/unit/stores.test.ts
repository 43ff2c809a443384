import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, showToast, dismissToast, TOAST_DEFAULT_DURATION_MS } from '../../src/lib/stores/toast.ts';
import {
  $loading,
  startLoading,
  finishLoading,
  failLoading,
  estimatedProgress,
  LOADING,
} from '../../src/lib/stores/loading.ts';
import { createCharacter } from '../../src/lib/shell/easter-egg.ts';
import { safeJson } from '../../src/lib/safe-json.ts';
import { readRuntimeConfig, videoManifestUrl } from '../../src/lib/config.ts';
import { cacheControlFor } from '../../server/site/static-files.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toasts', () => {
  it('remove themselves after their duration (2000 ms by default)', () => {
    const toast = showToast({ message: 'saved', severity: 'success' });
    expect(toast.duration).toBe(TOAST_DEFAULT_DURATION_MS);
    expect($toasts.get().map((t) => t.message)).toContain('saved');
    vi.advanceTimersByTime(1999);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toHaveLength(0);
  });
  it('show the default finish text without a message', () => {
    const toast = showToast({ message: '  ' }, '完成');
    expect(toast.message).toBe('完成');
    expect(toast.severity).toBe('info');
    dismissToast(toast.id);
    expect($toasts.get()).toHaveLength(0);
  });
});

describe('loading indicator', () => {
  it('only appears after the throttle, then finishes, hides and resets', () => {
    startLoading();
    expect($loading.get()).toMatchObject({ isLoading: true, visible: false });
    vi.advanceTimersByTime(LOADING.throttleMs);
    expect($loading.get().visible).toBe(true);
    vi.advanceTimersByTime(1000);
    expect($loading.get().progress).toBeGreaterThan(0);
    finishLoading({ error: true });
    expect($loading.get()).toMatchObject({ progress: 100, error: true, isLoading: false });
    vi.advanceTimersByTime(LOADING.hideDelayMs);
    expect($loading.get().visible).toBe(false);
    vi.advanceTimersByTime(LOADING.resetDelayMs);
    expect($loading.get()).toEqual({ isLoading: false, progress: 0, error: false, visible: false });
  });
  it('shows the error state at once when a call fails outside a navigation, then hides it', () => {
    failLoading();
    expect($loading.get()).toEqual({ isLoading: false, progress: 100, error: true, visible: true });
    vi.advanceTimersByTime(LOADING.hideDelayMs + LOADING.resetDelayMs);
    expect($loading.get()).toEqual({ isLoading: false, progress: 0, error: false, visible: false });
  });
  it('ends a navigation under way in the error state', () => {
    startLoading();
    vi.advanceTimersByTime(LOADING.throttleMs + 300);
    failLoading();
    expect($loading.get()).toMatchObject({ isLoading: false, progress: 100, error: true, visible: true });
    vi.advanceTimersByTime(LOADING.hideDelayMs + LOADING.resetDelayMs);
    expect($loading.get().error).toBe(false);
  });
  it('repaints its progress every 100 ms (SPEC §9 repaint delay), not in between', () => {
    expect(LOADING.repaintMs).toBe(100);
    startLoading();
    vi.advanceTimersByTime(LOADING.repaintMs - 1);
    expect($loading.get().progress).toBe(0);
    vi.advanceTimersByTime(1);
    const first = $loading.get().progress;
    expect(first).toBeCloseTo(estimatedProgress(LOADING.repaintMs));
    vi.advanceTimersByTime(LOADING.repaintMs - 1);
    expect($loading.get().progress).toBe(first);
    vi.advanceTimersByTime(1);
    expect($loading.get().progress).toBeCloseTo(estimatedProgress(2 * LOADING.repaintMs));
    finishLoading();
    vi.advanceTimersByTime(LOADING.hideDelayMs + LOADING.resetDelayMs);
  });
  it('estimates progress that grows and never completes on its own', () => {
    const values = [0, 500, 2000, 10_000, 1e9].map((t) => estimatedProgress(t));
    expect(values[0]).toBe(0);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(Math.max(...values)).toBeLessThanOrEqual(95);
  });
});

describe('shell helpers', () => {
  it('the hidden character accepts only male or female', () => {
    const character = createCharacter();
    character.sex = 'male';
    expect(character.sex).toBe('male');
    expect(() => ((character as { sex: string }).sex = 'other')).toThrow(TypeError);
    expect(character.sex).toBe('male');
  });
  it('embeds JSON that cannot close its script element', () => {
    const text = safeJson({ s: '</script><script>alert(1)</script><!--' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ s: '</script><script>alert(1)</script><!--' });
  });
  it('reads the runtime configuration with working local defaults', () => {
    const config = readRuntimeConfig({});
    expect(config.apiBase).toBe('/api/');
    expect(config.i18n).toMatchObject({
      detectBrowserLanguage: true,
      fallbackLocale: 'zhs',
      rootRedirect: null,
      rootRedirectStatus: 302,
    });
    expect(videoManifestUrl(config, 12)).toBe('/media/videos/12/master.m3u8');
    const custom = readRuntimeConfig({
      PUBLIC_API_BASE: 'https://api.example/v1',
      VIDEO_MANIFEST_URL: 'https://cdn.example/{videoId}/{videoId}.m3u8',
      I18N_DOMAIN_LOCALES: 'en.example=en, bad=xx',
    });
    expect(custom.apiBase).toBe('https://api.example/v1/');
    expect(videoManifestUrl(custom, 3)).toBe('https://cdn.example/3/3.m3u8');
    expect(custom.i18n.domainLocales).toEqual({ 'en.example': 'en' });
  });
  it('caches hashed assets forever and pages briefly', () => {
    expect(cacheControlFor('/_astro/client.abc.js')).toContain('immutable');
    expect(cacheControlFor('/_i18n/en/messages.json')).toBe('public, max-age=86400');
    expect(cacheControlFor('/en/index.html')).toContain('max-age=0');
    expect(cacheControlFor('/sw.js')).toBe('no-cache');
    // Master playlists change in place; a rung's playlist and segments are published whole, once.
    expect(cacheControlFor('/hls/abc/master.m3u8')).toBe('no-cache');
    expect(cacheControlFor('/hls/abc/720p/index.m3u8')).toBe('public, max-age=31536000, immutable');
  });
});

describe('server configuration', () => {
  it('takes PORT=0 as a random port, not the default', async () => {
    const { readServerConfig } = await import('../../server/config.ts');
    expect(readServerConfig({ PORT: '0' }).port).toBe(0);
    expect(readServerConfig({}).port).toBe(4321);
    expect(readServerConfig({ DATA_DIR: ':memory:' }).dataDir).toBe('');
  });
  it('keeps uploads in files unless S3_BUCKET names a bucket, with defaults for self-hosted S3', async () => {
    const { readServerConfig } = await import('../../server/config.ts');
    expect(readServerConfig({}).uploadS3).toBeUndefined();
    const s3 = {
      S3_BUCKET: 'videos',
      S3_ENDPOINT: 'http://127.0.0.1:3900',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(readServerConfig(s3).uploadS3).toEqual({
      bucket: 'videos',
      endpoint: 'http://127.0.0.1:3900',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(
      readServerConfig({ S3_BUCKET: 'videos', S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: '0' }).uploadS3,
    ).toEqual({
      bucket: 'videos',
      endpoint: undefined,
      region: 'eu-west-3',
      credentials: undefined,
      forcePathStyle: false,
    });
  });
  it('refuses a half-configured S3 store with a message naming what is missing', async () => {
    const { readServerConfig } = await import('../../server/config.ts');
    expect(() => readServerConfig({ S3_ENDPOINT: 'http://127.0.0.1:3900', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_ENDPOINT, S3_ACCESS_KEY_ID are set but S3_BUCKET is not/,
    );
    expect(() => readServerConfig({ S3_BUCKET: 'videos', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => readServerConfig({ S3_BUCKET: 'videos', S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT must be a URL/,
    );
  });
});

describe('text file downloads', () => {
  it('append .txt and refuse names over 200 bytes', async () => {
    const { textFileName } = await import('../../src/lib/download.ts');
    expect(textFileName('backup codes')).toBe('backup codes.txt');
    expect(textFileName('codes.TXT')).toBe('codes.TXT');
    expect(textFileName('a'.repeat(200))).toBe(`${'a'.repeat(200)}.txt`);
    expect(textFileName('a'.repeat(201))).toBeNull();
    expect(textFileName('星'.repeat(66))).not.toBeNull(); // 198 bytes
    expect(textFileName('星'.repeat(67))).toBeNull(); // 201 bytes
  });
});
