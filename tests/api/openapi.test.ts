import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { ROUTES } from '../../src/lib/api/routes/index.ts';
import { splitRouteKey } from '../../src/lib/api/route.ts';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { OPENAPI_FILE } from '../../scripts/openapi.ts';

describe.each(BACKENDS)('the OpenAPI document on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server?.close());

  test('lists every endpoint of the route table with its input, its answer and its permission', async () => {
    const response = await server.api('openapi.json');
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/api' }]);
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        key: `${method.toUpperCase()} ${path.slice(1).replace(/\{(\w+)\}/g, ':$1')}`,
        op,
      })),
    );
    expect(operations.map((o) => o.key).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const { key, op } of operations) {
      const def = ROUTES[key as keyof typeof ROUTES] as { stream?: object };
      // A stream entry answers text/event-stream, with each kind of event's data described.
      if (def.stream)
        expect(
          Object.keys(op.responses['200'].content['text/event-stream']['x-events'].message.properties ?? {}),
          key,
        ).not.toHaveLength(0);
      else expect(op.responses['200'].content['application/json'].schema, key).toBeTypeOf('object');
      expect(op.description, key).toMatch(/^Permission: `[\w.]+`/);
    }
    const emit = operations.find((o) => o.key === 'POST video/danmaku/emit')!.op;
    expect(emit.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['videoId', 'time', 'text', 'color']),
    );
    expect(emit.security).toEqual([{ session: [] }]);
    // The entry's rate limits and resource are data, and reach the document as such.
    for (const { key, op } of operations) {
      const def = ROUTES[key as keyof typeof ROUTES] as {
        rateLimits?: ReadonlyArray<{ limit: string }>;
        resource?: string;
      };
      expect(
        (op['x-rate-limit'] ?? []).map((r: { name: string }) => r.name),
        key,
      ).toEqual((def.rateLimits ?? []).map((r) => r.limit));
      expect(op['x-resource'], key).toBe(def.resource);
    }
    expect(emit['x-rate-limit']).toEqual([
      { name: 'danmakuPerUser', limit: 1, windowSeconds: 3, per: 'uid', countedBy: 'service' },
      { name: 'danmakuBurstPerUser', limit: 20, windowSeconds: 60, per: 'uid', countedBy: 'service' },
    ]);
    expect(emit['x-resource']).toBe('writableTarget');
    const search = operations.find((o) => o.key === 'GET video/search')!.op;
    expect(search.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['keyword', 'page', 'pageSize']),
    );
    expect(search.security).toBeUndefined();
  });

  test('is the committed docs/openapi.json, so that a change to the contract shows in review', async () => {
    const served = await (await server.api('openapi.json')).json();
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    const paths = [...new Set([...Object.keys(served.paths), ...Object.keys(committed.paths)])];
    const differingPaths = paths.filter((path) => !isDeepStrictEqual(served.paths[path], committed.paths[path]));
    expect(
      { differingPaths, sameDocument: isDeepStrictEqual(served, committed) },
      'The served OpenAPI document differs from docs/openapi.json: run `npm run openapi` and commit the file',
    ).toEqual({ differingPaths: [], sameDocument: true });
  });

  test('is readable as a page without a script', async () => {
    const response = await server.api('docs');
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    for (const key of ['POST video/danmaku/emit', 'GET history/filter']) {
      const [method, path] = splitRouteKey(key);
      expect(html).toContain(`${method} /${path}`);
    }
  });
});
