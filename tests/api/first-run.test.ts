/**
 * The first-run page's API: a new site has no administrator, and whoever holds the one-time token
 * the server printed in its log makes the first one (logged in at once, out of the profile
 * review queue). A wrong token is refused in the caller's language; a refused form leaves the
 * token usable; once an administrator exists, both calls (and the page, when the site is built)
 * answer 404, also with the right token. A site whose administrator came from the CLI is closed
 * from the start.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { runAdminCommand } from '../../server/admin/commands.ts';
import { createRepositories } from '../../server/repositories/index.ts';

const built = existsSync('dist/server/entry.mjs');
const administrator = {
  email: 'owner@first-run.test',
  username: 'Owner',
  password: 'the owner of this new site',
  userNickname: 'Site owner',
};

describe.each(BACKENDS)('first-run page on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { site: built });
  }, 180_000);
  afterAll(() => server?.close());

  it('is open on a new site, and makes the first administrator only with the token of the log', async () => {
    const token = server.firstRunToken!;
    expect(token).toMatch(/^[\w-]{20,}$/);
    expect(await jsonCall(server, 'firstRun')).toEqual({ status: 200, body: { success: true, open: true } });
    if (built) expect((await fetch(`${server.baseUrl}/en/first-run`)).status).toBe(200);

    const wrong = await jsonCall(server, 'firstRun', {
      method: 'POST',
      locale: 'fr',
      // Its last character changed (a random token ends in "x" one time in 64).
      body: { ...administrator, token: `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}` },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      success: false,
      code: 'FIRST_RUN_TOKEN_INVALID',
      message: expect.stringContaining('jeton'),
    });
    // A refused form (a weak password) spends nothing: the same token still works after it.
    const weak = await jsonCall(server, 'firstRun', {
      method: 'POST',
      body: { ...administrator, token, password: 'owner' },
    });
    expect([weak.status, weak.body.code]).toEqual([400, 'WEAK_PASSWORD']);
    expect((await jsonCall(server, 'firstRun')).status).toBe(200);

    const res = await server.api('firstRun', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'ja' },
      body: JSON.stringify({ ...administrator, token }),
    });
    expect(res.status).toBe(200);
    const { uid } = (await res.json()) as { uid: number };
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const self = await jsonCall(server, 'user/self', { method: 'POST', cookie });
    expect(self.body.result).toMatchObject({ uid, username: 'Owner', roles: ['administrator'] });
    // An administrator's own profile is not waiting for review, and the account speaks the form's language.
    const row = await server.db
      .selectFrom('users')
      .select(['is_updated_after_review', 'interface_language'])
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_updated_after_review: false, interface_language: 'ja' });
    // Staff calls work with that session.
    expect((await jsonCall(server, 'video/pending', { cookie })).status).toBe(200);
  });

  it('answers 404 once an administrator exists, the right token included', async () => {
    expect((await jsonCall(server, 'firstRun')).status).toBe(404);
    const again = await jsonCall(server, 'firstRun', {
      method: 'POST',
      body: { ...administrator, email: 'second@first-run.test', username: 'Second', token: server.firstRunToken },
    });
    expect([again.status, again.body.code]).toEqual([404, 'NOT_FOUND']);
    if (built) expect((await fetch(`${server.baseUrl}/first-run`)).status).toBe(404);
    expect(await server.db.selectFrom('users').select('username').execute()).toEqual([{ username: 'Owner' }]);
  });
});

describe.each(BACKENDS)('a site whose administrator came from the CLI, on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  }, 180_000);
  afterAll(() => server?.close());

  it('closes the first-run page', async () => {
    expect((await jsonCall(server, 'firstRun')).status).toBe(200);
    await runAdminCommand(createRepositories(server.db), {
      command: 'user:create',
      email: 'cli@first-run.test',
      username: 'Cli',
      password: 'made on the command line',
      role: 'administrator',
    });
    expect((await jsonCall(server, 'firstRun')).status).toBe(404);
    const late = await jsonCall(server, 'firstRun', {
      method: 'POST',
      body: { ...administrator, token: server.firstRunToken },
    });
    expect(late.status).toBe(404);
  });
});
