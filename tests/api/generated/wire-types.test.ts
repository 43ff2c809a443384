/**
 * The edge of the wire, generated from the route table (issue 24): type confusion for every field
 * (nested ones too) of every JSON-body endpoint (booleans, arrays, nested arrays, numbers as hex,
 * exponent, padded or signed text, floats, numbers out of range); JSON nested 7000 levels deep to
 * every endpoint; a control character (encoded NUL and others) in every segment of every
 * endpoint's path and of the media paths. Sent as root, each from an address of its own. Every
 * answer is 4xx (never 5xx, never a hang), and the database is exactly as it was before.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '../harness.ts';
import { insertVideo, member } from '../media-helpers.ts';
import {
  answerText,
  controlPathCases,
  DEEP_ARRAYS,
  DEEP_OBJECTS,
  JSON_ROUTES,
  typeConfusionCases,
} from './route-cases.ts';
import { databaseFingerprint } from './db-fingerprint.ts';
import { splitRouteKey } from '#lib/api/route.ts';

const CONFUSED = typeConfusionCases();
const CONTROL_PATHS = controlPathCases();
const BODY_ROUTES = JSON_ROUTES.filter(([route, def]) => def.body && splitRouteKey(route)[0] !== 'GET').map(
  ([route]) => route,
);
const PARALLEL = 12;

interface Sent {
  name: string;
  method: string;
  url: string;
  body?: string;
  contentType?: string;
}

describe.each(BACKENDS)('the edge of the wire on %s', (backend) => {
  let server: TestServer;
  let cookie: string;
  let sent = 0;
  const started = performance.now();
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { TRUST_PROXY: '1' } });
    cookie = await member(server, 'wireroot', ['root']);
    // Something for a wrongly read id to act on: videos 1 and 2, and a collection holding one.
    const first = await insertVideo(server, cookie, 10_000);
    await insertVideo(server, cookie, 10_000);
    const created = await server.api('collection/create', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'kept', videoId: first }),
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    console.log(
      `the edge of the wire on ${backend}: ${sent} requests (${CONFUSED.length} type confusion, ${BODY_ROUTES.length * 2} deep nesting, ${CONTROL_PATHS.length} control-character paths), all 4xx, database unchanged, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await server?.close();
  });

  /** Sends every request, a few at a time; answers the failures (anything but 4xx with a code, when the answer is the API's). */
  async function sendAll(requests: Sent[]): Promise<string[]> {
    const failures: string[] = [];
    const run = async (r: Sent) => {
      const address = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
      sent += 1;
      let response: Response;
      try {
        response = await fetch(r.url, {
          method: r.method,
          body: r.body,
          signal: AbortSignal.timeout(20_000),
          headers: {
            Cookie: cookie,
            'X-Forwarded-For': address,
            ...(r.contentType ? { 'Content-Type': r.contentType } : {}),
          },
        });
      } catch (error) {
        failures.push(`${r.name}: no answer (${(error as Error).name})`);
        return;
      }
      const text = await answerText(response);
      if (response.status < 400 || response.status >= 500)
        return void failures.push(`${r.name}: ${response.status} ${text.slice(0, 200)}`);
      if (
        response.headers.get('content-type')?.startsWith('application/json') &&
        !(JSON.parse(text) as { code?: string }).code
      )
        failures.push(`${r.name}: ${response.status} without a code`);
    };
    for (let i = 0; i < requests.length; i += PARALLEL) await Promise.all(requests.slice(i, i + PARALLEL).map(run));
    return failures;
  }

  test(`type confusion: ${CONFUSED.length} cases over every field of ${BODY_ROUTES.length} JSON-body endpoints, all refused, nothing changed`, async () => {
    expect(CONFUSED.length).toBeGreaterThan(500);
    const before = await databaseFingerprint(server.db);
    const failures = await sendAll(
      CONFUSED.map((c) => {
        const [method, path] = splitRouteKey(c.route);
        return {
          name: `${c.route} ${c.name}`,
          method,
          url: `${server.baseUrl}/api/${path}`,
          body: c.body,
          contentType: 'application/json',
        };
      }),
    );
    expect(failures).toEqual([]);
    expect(await databaseFingerprint(server.db)).toEqual(before);
  }, 300_000);

  test('JSON nested 7000 levels deep: every JSON-body endpoint refuses it (400), nothing changed', async () => {
    const before = await databaseFingerprint(server.db);
    const requests = BODY_ROUTES.flatMap((route) => {
      const [method, path] = splitRouteKey(route);
      return [
        ['arrays', DEEP_ARRAYS],
        ['objects', DEEP_OBJECTS],
      ].map(([kind, body]) => ({
        name: `${route} (${kind})`,
        method,
        url: `${server.baseUrl}/api/${path}`,
        body,
        contentType: 'application/json',
      }));
    });
    expect(await sendAll(requests)).toEqual([]);
    expect(await databaseFingerprint(server.db)).toEqual(before);
  }, 300_000);

  test(`a control character in every path segment: ${CONTROL_PATHS.length} paths, API and /media/, all 4xx, nothing changed`, async () => {
    const before = await databaseFingerprint(server.db);
    expect(
      await sendAll(CONTROL_PATHS.map((c) => ({ name: c.name, method: c.method, url: `${server.baseUrl}${c.path}` }))),
    ).toEqual([]);
    expect(await databaseFingerprint(server.db)).toEqual(before);
  }, 300_000);
});
