import { describe, expect, test } from 'vitest';
import { ROUTES } from '../../src/lib/api/routes/index.ts';
import { splitRouteKey, type RouteDef } from '../../src/lib/api/route.ts';
import { POLICY } from '../../src/lib/policy/policy.ts';
import { call } from '../../src/lib/api/client.ts';
import { LIMITS } from '../../src/lib/api/limits.ts';

const entries = Object.entries(ROUTES) as Array<[string, RouteDef]>;

describe('the route table', () => {
  test('a GET reads its input from the query, every other method from a JSON body (the client relies on it)', () => {
    for (const [key, def] of entries) {
      const [method] = splitRouteKey(key);
      if (method === 'GET') expect(def.body, key).toBeUndefined();
      else if (!def.raw) expect(def.query, key).toBeUndefined();
    }
  });

  test('every entry names an action of the policy table, known rate limits and an answer schema', () => {
    for (const [key, def] of entries) {
      expect(POLICY[def.permission], key).toBeDefined();
      expect(def.response, key).toBeDefined();
      for (const rule of def.rateLimits ?? []) expect(LIMITS[rule.limit], `${key} ${rule.limit}`).toBeDefined();
    }
  });

  test('no path is declared twice under one method, and every key is METHOD path', () => {
    for (const key of Object.keys(ROUTES)) expect(key).toMatch(/^(GET|POST|PUT|PATCH|DELETE) [\w./:{}-]+$/);
    expect(new Set(Object.keys(ROUTES)).size).toBe(entries.length);
  });
});

describe('the client derived from the table', () => {
  const answering = (seen: Array<{ url: string; init: RequestInit }>) =>
    (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(JSON.stringify({ success: true }), { status: 200 });
    }) as typeof fetch;

  test('sends a GET’s input as the query and another method’s as a JSON body, at the key’s path', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    await call('GET video/search', { keyword: '弾幕', page: 2 }, { fetchImpl: answering(seen), base: '/api/' });
    await call(
      'POST video/danmaku/emit',
      { videoId: 1, time: 2, text: 'hi', color: 'ffffff' },
      { fetchImpl: answering(seen), base: '/api/' },
    );
    await call('DELETE history/clear', undefined, { fetchImpl: answering(seen), base: '/api/' });
    expect(seen.map(({ url, init }) => [init.method, url, init.body ?? null])).toEqual([
      ['GET', `/api/video/search?keyword=${encodeURIComponent('弾幕')}&page=2`, null],
      ['POST', '/api/video/danmaku/emit', JSON.stringify({ videoId: 1, time: 2, text: 'hi', color: 'ffffff' })],
      ['DELETE', '/api/history/clear', null],
    ]);
  });
});
