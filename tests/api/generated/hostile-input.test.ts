/**
 * Hostile input, generated from the route table: for every JSON endpoint, missing and extra
 * fields, wrong types, empty and 1 MB strings, numbers past 2^53, NaN and Infinity as text,
 * negative and fractional ids, unknown enum values, arrays for objects, malformed JSON, wrong
 * Content-Types and 10 KB query strings. Sent as root (so no permission stops a case before its
 * input is read), each from an address of its own (so no per-address limit does either).
 * Every answer: never 5xx, never a hang; a refusal is 4xx with a code and the message in the
 * request's language; whatever the table's schema refuses is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '../harness.ts';
import { member } from '../media-helpers.ts';
import {
  answerText,
  expectedMessage,
  hostileCases,
  JSON_ROUTES,
  localeFor,
  requestOf,
  type HostileCase,
} from './route-cases.ts';
import { ROUTES } from '#lib/api/routes/index.ts';
import { LIMITS } from '#lib/api/limits.ts';

const CASES = hostileCases();
const byRoute = Map.groupBy(CASES, (c) => c.route);
/** Cases of one endpoint run this many at a time. */
const PARALLEL = 6;

/**
 * How many cases one member may send to a route before its per-member limit would answer instead
 * (429). Limits the service counts only for writes it could store (a danmaku, a comment) are not
 * reached by hostile cases, which are refused before; a valid case past them answers 429, a clear refusal.
 */
function casesPerMember(route: string): number {
  const rules =
    (
      ROUTES[route as keyof typeof ROUTES] as {
        rateLimits?: ReadonlyArray<{ limit: keyof typeof LIMITS; by: string; counted?: string }>;
      }
    ).rateLimits ?? [];
  const perMember = rules
    .filter((rule) => rule.by === 'uid' && rule.counted !== 'service')
    .map((rule) => LIMITS[rule.limit].limit);
  return perMember.length ? Math.max(1, Math.min(...perMember) - 1) : Number.POSITIVE_INFINITY;
}

describe.each(BACKENDS)('hostile input on %s', (backend) => {
  let server: TestServer;
  let sent = 0;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    console.log(`hostile input on ${backend}: ${sent} cases over ${byRoute.size} endpoints, none answered 5xx`);
    await server?.close();
  });

  test(`the table has ${JSON_ROUTES.length} JSON endpoints and yields over a thousand cases`, () => {
    expect(byRoute.size).toBe(JSON_ROUTES.length);
    expect(CASES.length).toBeGreaterThan(1000);
  });

  test.each([...byRoute.keys()])('%s', async (route) => {
    // A fresh root per endpoint (a case may log it out or change its password), and another
    // whenever the endpoint's per-member limit would otherwise refuse the next case.
    const newRoot = () => member(server, `root${Math.random().toString(36).slice(2, 10)}`, ['root']);
    const perMember = casesPerMember(route);
    const roots: Array<Promise<string>> = [];
    const rootFor = (index: number) => (roots[Math.floor(index / perMember)] ??= newRoot());
    const failures: string[] = [];
    const cases = byRoute.get(route)!;
    const run = async (c: HostileCase, index: number) => {
      const locale = localeFor(index);
      const address = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
      sent += 1;
      const { url, init } = requestOf(server.baseUrl, c, {
        Cookie: await rootFor(index),
        'X-Client-Language': locale,
        'X-Forwarded-For': address,
      });
      let response: Response;
      try {
        response = await fetch(url, init);
      } catch (error) {
        failures.push(`${c.name}: no answer (${(error as Error).name})`);
        return;
      }
      const text = await answerText(response);
      const status = response.status;
      if (status >= 500) return failures.push(`${c.name}: ${status} ${text.slice(0, 200)}`);
      if (c.expectStatus && status !== c.expectStatus)
        return failures.push(`${c.name}: expected ${c.expectStatus}, got ${status}`);
      if (c.schemaRefuses && status < 400)
        return failures.push(`${c.name}: the schema refuses it, the server answered ${status}`);
      if (status >= 400) {
        let body: { code?: string; message?: string } = {};
        try {
          body = JSON.parse(text);
        } catch {
          return failures.push(`${c.name}: ${status} without a JSON error body`);
        }
        if (!body.code) return failures.push(`${c.name}: ${status} without a code`);
        if (body.message !== expectedMessage(locale, body.code as never))
          failures.push(`${c.name}: ${body.code} message not in ${locale}: ${body.message}`);
      }
    };
    for (let i = 0; i < cases.length; i += PARALLEL)
      await Promise.all(cases.slice(i, i + PARALLEL).map((c, j) => run(c, i + j)));
    expect(failures).toEqual([]);
  });
});
