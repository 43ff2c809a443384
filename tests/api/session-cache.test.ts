/**
 * Sessions are kept in each process for a second (docs/decisions/0024): a member's requests do
 * not each look their session up. What ends a session or changes what it may do holds from the
 * very next request in the process that made the change, and in another process once the cache
 * notice arrives (milliseconds; the second is the bound when a notice is lost).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, countingStatements, startTestServer, type TestServer } from './harness.ts';
import { useTwoProcesses } from './two-processes.ts';
import { member } from './media-helpers.ts';
import { createSessionsRepository } from '../../server/repositories/sessions.repository.ts';
import { hashToken } from '../../server/services/sessions.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
const call = (server: Pick<TestServer, 'api'>, path: string, cookie: string, body?: unknown) =>
  server.api(
    path,
    body === undefined
      ? { headers: { Cookie: cookie } }
      : { method: 'POST', body: JSON.stringify(body), headers: { Cookie: cookie, 'Content-Type': 'application/json' } },
  );

describe.each(BACKENDS)('kept sessions on %s', (backend) => {
  let server: TestServer;
  let root = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    root = await member(server, 'keeper', ['root']);
  }, 180_000);
  afterAll(() => server?.close());

  it('refuses a session from the request right after its logout, and a member from the request right after a ban', async () => {
    const leaver = await member(server, 'leaver');
    expect((await call(server, 'notification/unreadCount', leaver)).status).toBe(200);
    expect((await call(server, 'user/logout', leaver, {})).status).toBe(200);
    expect((await call(server, 'notification/unreadCount', leaver)).status).toBe(401);

    const banned = await member(server, 'banned');
    expect((await call(server, 'notification/unreadCount', banned)).status).toBe(200);
    expect(
      (await call(server, 'rbac/adminUpdateUserRole', root, { uid: uidOf(banned), newRoles: ['blocked'] })).status,
    ).toBe(200);
    // A banned member may no longer act: refused at once, not a second later.
    expect((await call(server, 'video/like', banned, { videoId: 1 })).status).toBe(403);
  });

  it('looks up the sessions asked at one moment in one statement, each answered as its own (decision 0040)', async () => {
    const cookies = await Promise.all(Array.from({ length: 6 }, (_, i) => member(server, `batched${i}`)));
    const tokenOf = (cookie: string) => /token=([^;]+)/.exec(cookie)![1];
    const statements = countingStatements(server.db);
    // No cache: every lookup goes to the database.
    const sessions = createSessionsRepository(statements.db);
    const [first, second, ...rest] = cookies;
    const found = await Promise.all([
      ...cookies.map((cookie) => sessions.userOfLiveSession(uidOf(cookie), hashToken(tokenOf(cookie)))),
      // Another member's token with this uid, and a token that names no session: neither found.
      sessions.userOfLiveSession(uidOf(first), hashToken(tokenOf(second))),
      sessions.userOfLiveSession(uidOf(first), hashToken('guessed')),
    ]);
    expect(statements.count).toBe(1);
    expect(found).toEqual([
      ...[first, second, ...rest].map((cookie) => ({ uid: uidOf(cookie), roles: ['user'] })),
      undefined,
      undefined,
    ]);
    // And through the API, many members at once (a logged-out one among them) each as they are.
    expect((await call(server, 'user/logout', second, {})).status).toBe(200);
    const statuses = await Promise.all(
      cookies.map(async (cookie) => (await call(server, 'notification/unreadCount', cookie)).status),
    );
    expect(statuses).toEqual(cookies.map((cookie) => (cookie === second ? 401 : 200)));
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('kept sessions across two processes on postgres', () => {
  const { servers, api } = useTwoProcesses();

  it('forgets a session logged out in the other process', async () => {
    const [one, two] = servers;
    const cookie = await member({ db: one.database.db } as TestServer, 'traveller');
    // Kept by the second process…
    expect((await call(api(two), 'notification/unreadCount', cookie)).status).toBe(200);
    expect((await call(api(one), 'user/logout', cookie, {})).status).toBe(200);
    // …and forgotten there when the first one's notice arrives.
    await expect
      .poll(async () => (await call(api(two), 'notification/unreadCount', cookie)).status, { interval: 20 })
      .toBe(401);
  });
});
