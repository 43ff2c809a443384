/**
 * Rate-limited answers say how long to wait, twice: the Retry-After header and `retryAfterSeconds`
 * in the error body (which the site counts down in the danmaku input and in toasts), equal, and
 * in whole seconds. Each kind of limit: a per-member window (danmaku), a mail cool-down, a
 * member's weekly invitation code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';

describe.each(BACKENDS)('retry times on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  const post = (path: string, body: unknown, cookie?: string) =>
    server.api(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'fr', ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });
  /** A 429's wait, checked to be the same in the header and the body. */
  const waitOf = async (res: Response, code: string) => {
    const body = (await res.json()) as { code: string; message: string; retryAfterSeconds: number };
    expect([res.status, body.code]).toEqual([429, code]);
    expect(body.retryAfterSeconds).toBe(Number(res.headers.get('retry-after')));
    expect(Number.isInteger(body.retryAfterSeconds)).toBe(true);
    expect(body.message).not.toBe('');
    return body.retryAfterSeconds;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    alice = await member(server, 'FastSender');
  });
  afterAll(() => server?.close());

  it('a second danmaku within 3 s is refused with the seconds left', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    const emit = (text: string) => post('video/danmaku/emit', { videoId, time: 1, text, color: 'ffffff' }, alice);
    expect((await emit('first')).status).toBe(200);
    const wait = await waitOf(await emit('second'), 'RATE_LIMITED');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(3);
  });

  it('a second mailed code within the cool-down says when the next may be asked for', async () => {
    expect((await post('user/requestSendVerificationCode', { email: 'new.person@example.com' })).status).toBe(200);
    const wait = await waitOf(
      await post('user/requestSendVerificationCode', { email: 'new.person@example.com' }),
      'COOLING_DOWN',
    );
    expect(wait).toBeGreaterThan(40);
    expect(wait).toBeLessThanOrEqual(55);
  });

  it('a member’s second invitation code within the week says how long until the next', async () => {
    const uid = Number(/uid=(\d+)/.exec(alice)![1]);
    await server.db
      .updateTable('users')
      .set({ created_at: new Date(Date.now() - 30 * 86_400_000) } as never)
      .where('uid', '=', uid)
      .execute();
    expect((await post('user/createInvitationCode', {}, alice)).status).toBe(200);
    const wait = await waitOf(await post('user/createInvitationCode', {}, alice), 'COOLING_DOWN');
    expect(wait).toBeGreaterThan(7 * 86_400 - 60);
    expect(wait).toBeLessThanOrEqual(7 * 86_400);
  });

  it('an answer that is not rate-limited carries no wait', async () => {
    const res = await jsonCall(server, 'video/danmaku/emit', {
      method: 'POST',
      body: { videoId: 1, time: 1, text: 'x', color: 'ffffff' },
    });
    expect(res.status).toBe(401);
    expect(res.body.retryAfterSeconds).toBeUndefined();
  });
});
