import { describe, expect, it } from 'vitest';
import {
  PREFETCH_REUSE_MS,
  READS_SENT_AS_POST,
  isSiteWrite,
  localeShellUrls,
  navigationSkipsPreload,
  offlinePageFor,
  strategyFor,
} from '../../src/lib/offline/rules.ts';
import { assetsOfPage, webManifest } from '../../src/integrations/offline-app.ts';
import { ROUTES } from '../../src/lib/api/routes/index.ts';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const request = (
  path: string,
  extra: Partial<{ method: string; mode: string; keepalive: boolean; sameOrigin: boolean; accept: string }> = {},
) => ({
  method: 'GET',
  mode: 'cors',
  keepalive: false,
  sameOrigin: true,
  accept: '*/*',
  url: new URL(path, 'https://kira.example'),
  ...extra,
});

describe('service worker rules', () => {
  it('counts changes made through the API as writes, and asks the server for pages in the preload window after one', () => {
    expect(isSiteWrite(request('/api/user/update/info', { method: 'POST' }))).toBe(true);
    expect(isSiteWrite(request('/api/video/danmaku/emit', { method: 'PUT' }))).toBe(true);
    expect(isSiteWrite(request('/api/user/self'))).toBe(false);
    // Reads the spec sends as POST (each page's shell asks for them) are not writes.
    expect(isSiteWrite(request('/api/user/self', { method: 'POST' }))).toBe(false);
    expect(isSiteWrite(request('/api/user/settings', { method: 'POST' }))).toBe(false);
    expect(isSiteWrite(request('/api/user/settings/update', { method: 'POST' }))).toBe(true);
    expect(isSiteWrite(request('/api/user/update/info', { method: 'POST', sameOrigin: false }))).toBe(false);
    expect(isSiteWrite(request('/en/search', { method: 'POST' }))).toBe(false);
    const now = 1_000_000_000;
    expect(navigationSkipsPreload(0, now)).toBe(false);
    expect(navigationSkipsPreload(now - 1_000, now)).toBe(true);
    expect(navigationSkipsPreload(now - PREFETCH_REUSE_MS + 1, now)).toBe(true);
    expect(navigationSkipsPreload(now - PREFETCH_REUSE_MS, now)).toBe(false);
  });

  it('knows the reads sent as POST from the route table: POST routes with no body, kept by no cache', () => {
    for (const path of READS_SENT_AS_POST) {
      const route = (ROUTES as Record<string, { body?: unknown; cache?: string }>)[`POST ${path}`];
      expect(route, path).toBeDefined();
      expect(route.body, path).toBeUndefined();
      expect(route.cache, path).toBe('no-store');
    }
  });

  it('sends each kind of request to its strategy', () => {
    expect(strategyFor(request('/en/search', { mode: 'navigate' }))).toBe('page');
    expect(strategyFor(request('/_astro/app.1234.js'))).toBe('asset');
    expect(strategyFor(request('/_i18n/ja/messages.json'))).toBe('messages');
    expect(strategyFor(request('/api/video/home'))).toBe('api');
    expect(strategyFor(request('/api/history/report', { keepalive: true, method: 'POST' }))).toBe('keepalive');
  });

  it('never keeps writes, other origins, uploads or media', () => {
    expect(strategyFor(request('/api/comment/emit', { method: 'POST' }))).toBe('network');
    expect(strategyFor(request('/api/video/tus/abc'))).toBe('network');
    expect(strategyFor(request('/media/videos/3/master.m3u8'))).toBe('network');
    expect(strategyFor(request('/x', { sameOrigin: false, mode: 'navigate' }))).toBe('network');
  });

  it('leaves event streams to the page: a stream the worker kept would hold a connection after the page left', () => {
    expect(strategyFor(request('/api/notification/live', { accept: 'text/event-stream' }))).toBe('network');
    expect(strategyFor(request('/api/video/danmaku/live?videoId=2', { accept: 'text/event-stream' }))).toBe('network');
    expect(strategyFor(request('/api/notification/unread', { accept: '' }))).toBe('api');
  });

  it('answers a failed navigation with the offline page of its locale', () => {
    expect(offlinePageFor('/video/kv12')).toBe('/offline');
    expect(offlinePageFor('/ja/video/kv12')).toBe('/ja/offline');
    expect(offlinePageFor('/en/')).toBe('/en/offline');
    expect(localeShellUrls('fr')).toEqual(['/_i18n/fr/messages.json', '/fr/offline']);
    expect(localeShellUrls('nope' as never)).toEqual([]);
  });
});

describe('offline app build', () => {
  it("finds the shell: a page's hashed files and what its scripts import statically, not dynamically", async () => {
    const root = mkdtempSync(join(tmpdir(), 'kiraboshi-shell-'));
    mkdirSync(join(root, '_astro'));
    mkdirSync(join(root, 'offline'));
    writeFileSync(
      join(root, 'offline', 'index.html'),
      '<link rel="stylesheet" href="/_astro/a.css"><script type="module" src="/_astro/boot.js"></script>',
    );
    writeFileSync(
      join(root, '_astro', 'boot.js'),
      'import{x}from"./shared.js";import"./side.js";const l=()=>import("./lazy.js");',
    );
    writeFileSync(join(root, '_astro', 'shared.js'), 'export const x=1;');
    writeFileSync(join(root, '_astro', 'side.js'), 'import {x} from "./shared.js";');
    const assets = await assetsOfPage(root, join(root, 'offline', 'index.html'));
    expect(assets.sort()).toEqual(['/_astro/a.css', '/_astro/boot.js', '/_astro/shared.js', '/_astro/side.js']);
  });

  it("writes a standalone manifest started at the locale's home", () => {
    const manifest = webManifest('ja', '綺羅星', '綺羅星', '…', 'ja-JP');
    expect(manifest).toMatchObject({ start_url: '/ja/', scope: '/', display: 'standalone', lang: 'ja-JP' });
    expect(manifest.icons.filter((i) => i.purpose === 'any').map((i) => i.sizes)).toContain('512x512');
  });
});
