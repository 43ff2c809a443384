/**
 * Every kind of answer carries the security headers (docs/decisions/0013-security-headers.md):
 * prerendered pages, pages rendered on demand, error pages, redirects, static files, 304s, HEAD,
 * API answers and errors, and /media/ files, redirects and refusals. Pages' policies allow each
 * script they carry inline by its hash (computed here from the page as sent) and no inline
 * script otherwise; the origins of the API, the media address and the in-context script are
 * allowed where they are used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { startTestServer, type TestServer } from './harness.ts';
import { readRuntimeConfig } from '../../src/lib/config.ts';

const built = existsSync('dist/server/entry.mjs');
const CDN = 'https://cdn.kiraboshi.test';
const API = 'https://api.kiraboshi.test';

/** The directives of a policy, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) found.set(name, sources);
  }
  return found;
}

/** What every answer must say, whatever it is. */
function expectSecurityHeaders(headers: Headers, what: string): Map<string, string[]> {
  const policy = directives(headers.get('content-security-policy'));
  expect(policy.get('frame-ancestors'), what).toEqual(["'self'"]);
  expect(policy.get('object-src'), what).toEqual(["'none'"]);
  expect(policy.get('base-uri'), what).toEqual(["'self'"]);
  expect(policy.get('form-action'), what).toEqual(["'self'"]);
  expect(policy.get('default-src'), what).toEqual(["'self'"]);
  const scripts = policy.get('script-src') ?? [];
  expect(scripts, what).toContain("'self'");
  expect(
    scripts.filter(
      (source) => source === "'unsafe-inline'" || source === "'unsafe-eval'" || source === '*' || source.endsWith(':'),
    ),
    what,
  ).toEqual([]);
  expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
  const permissions = headers.get('permissions-policy') ?? '';
  for (const granted of ['fullscreen=(self)', 'picture-in-picture=(self)'])
    expect(permissions, what).toContain(granted);
  for (const denied of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()', 'display-capture=()'])
    expect(permissions, what).toContain(denied);
  return policy;
}

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The inline scripts a browser would run (JSON data blocks are not run) and the inline styles. */
function inlineCode(html: string) {
  const scripts = [...html.matchAll(/<script\b(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/type="application\/(ld\+)?json"/.test(attributes))
    .map((match) => match[2]);
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]);
  return { scripts, styles };
}

describe.skipIf(!built)('security headers on every answer (needs `npx astro build`)', () => {
  let server: TestServer;
  let mediaDir = '';
  const get = (path: string, init: RequestInit = {}) => fetch(server.baseUrl + path, { redirect: 'manual', ...init });

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-headers-media-'));
    server = await startTestServer('pglite', {
      site: true,
      env: { MEDIA_DIR: mediaDir, MEDIA_PUBLIC_BASE_URL: `${CDN}/media/`, PUBLIC_API_BASE: `${API}/api/` },
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('pages, prerendered and rendered on demand, error pages included: each inline script allowed by its hash, styles by theirs', async () => {
    const pages: Array<[string, number]> = [
      ['/en/search', 200],
      ['/settings/appearance', 200],
      ['/en/settings/language', 200],
      ['/upload', 200],
      ['/offline', 200],
      ['/dev/components', 200],
      ['/', 200],
      ['/en/', 200],
      ['/user/1', 404],
      ['/video/kv99999999999999999999', 404],
      ['/no-such-page', 404],
      ['/en/error/301', 404],
      ['/error/403', 403],
      ['/en/settings/nonsense', 404],
    ];
    for (const [path, status] of pages) {
      const response = await get(path, { headers: { 'Accept-Language': 'ja' } });
      expect(response.status, path).toBe(status);
      const policy = expectSecurityHeaders(response.headers, path);
      const html = await response.text();
      const { scripts, styles } = inlineCode(html);
      // Event handler attributes cannot be allowed by a hash: none may be written.
      expect(html.match(/<[a-z][^>]*\son[a-z]+=/gi) ?? [], path).toEqual([]);
      expect(scripts.length, `${path} carries the theme script`).toBeGreaterThan(0);
      for (const script of scripts)
        expect(policy.get('script-src'), `${path}: ${script.slice(0, 60)}`).toContain(hashOf(script));
      for (const style of styles)
        expect(policy.get('style-src'), `${path}: ${style.slice(0, 60)}`).toContain(hashOf(style));
      // Style attributes only; a <style> element needs its hash.
      expect(policy.get('style-src'), path).not.toContain("'unsafe-inline'");
      expect(policy.get('style-src-attr'), path).toEqual(["'unsafe-inline'"]);
      // A script written into the page by someone else has no hash: nothing else inline is allowed.
      expect(
        policy
          .get('script-src')!
          .filter((source) => !source.startsWith("'sha256-"))
          .sort(),
        path,
      ).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    }
  });

  it('the origins the pages use: the API, the media address, blob: and data: where the player and images need them', async () => {
    const policy = expectSecurityHeaders((await get('/en/search')).headers, '/en/search');
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(["'self'", API, CDN]));
    expect(policy.get('media-src')).toEqual(expect.arrayContaining(["'self'", 'blob:', API, CDN]));
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:', API, CDN]));
    expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
    // The in-context script is allowed on the ii pages only.
    const inContext = new URL(readRuntimeConfig(process.env).inContextScriptUrl).origin;
    expect(policy.get('script-src')).not.toContain(inContext);
    const ii = expectSecurityHeaders((await get('/ii/search')).headers, '/ii/search');
    expect(ii.get('script-src')).toContain(inContext);
  });

  it('redirects, static files, conditional answers and HEAD', async () => {
    for (const [path, status] of [
      ['/video/1', 301],
      ['/en/settings/content', 302],
      ['/audio/ka999999', 302],
    ] as const) {
      const redirect = await get(path);
      expect(redirect.status, path).toBe(status);
      expectSecurityHeaders(redirect.headers, `redirect from ${path}`);
    }
    for (const path of ['/sw.js', '/favicon.svg', '/en/history/_payload.json']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expectSecurityHeaders(response.headers, path);
      const etag = response.headers.get('etag')!;
      const unchanged = await get(path, { headers: { 'If-None-Match': etag } });
      expect(unchanged.status, path).toBe(304);
      expectSecurityHeaders(unchanged.headers, `${path} (304)`);
    }
    const head = await get('/en/history', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expectSecurityHeaders(head.headers, 'HEAD');
    // Pages rendered on demand and compressed keep them too.
    const compressed = await new Promise<Headers>((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}/en/`, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve(
            new Headers(Object.entries(res.headers).map(([name, value]): [string, string] => [name, String(value)])),
          ),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(compressed.get('content-encoding')).toBe('br');
    expectSecurityHeaders(compressed, 'compressed home');
  });

  it('API answers: success, refusal, not found, bad JSON', async () => {
    const answers = [
      await get('/api/health'),
      await get('/api/history/record', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
      await get('/api/no/such/route'),
      await get('/api/user/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"email":',
      }),
    ];
    expect(answers[0].status).toBe(200);
    expect(answers[1].status).toBe(401);
    expect(answers[2].status).toBe(404);
    expect(answers[3].status).toBe(400);
    for (const answer of answers) expectSecurityHeaders(answer.headers, `${answer.url} ${answer.status}`);
  });

  it('/media/: a file, a redirect to the media address, a refusal', async () => {
    await mkdir(join(mediaDir, 'images', 'avatars'), { recursive: true });
    await writeFile(join(mediaDir, 'images', 'avatars', '3-face.webp'), 'webp');
    const redirected = await get('/media/images/avatars/3-face.webp');
    expect(redirected.status).toBe(302);
    expectSecurityHeaders(redirected.headers, 'media redirect');
    // A video's files nobody approved are neither redirected nor served.
    const missing = await get(`/media/hls/${'ab'.repeat(12)}/master.m3u8`);
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers, 'media 404');
  });
});

describe('security headers with the media served by the process', () => {
  let server: TestServer;
  let mediaDir = '';
  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-headers-local-media-'));
    server = await startTestServer('pglite', { env: { MEDIA_DIR: mediaDir } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('a media file as served, and the API alone (SERVE_SITE=0) answering a page path', async () => {
    await mkdir(join(mediaDir, 'images', 'avatars'), { recursive: true });
    await writeFile(join(mediaDir, 'images', 'avatars', '4-face.webp'), 'webp');
    const file = await fetch(`${server.baseUrl}/media/images/avatars/4-face.webp`);
    expect(file.status).toBe(200);
    const policy = expectSecurityHeaders(file.headers, 'media file');
    // No other origin named anywhere when everything is on this one.
    expect([...policy.values()].flat().filter((source) => /^https?:/.test(source))).toEqual([]);
    const page = await fetch(`${server.baseUrl}/en/`);
    expectSecurityHeaders(page.headers, `page path without the site (${page.status})`);
  });
});
