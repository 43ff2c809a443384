import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';

describe.each(BACKENDS)('profiles and their review on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server?.close());

  async function call(path: string, init: { body?: unknown; cookie?: string } = {}) {
    const response = await server.api(path, {
      method: init.body ? 'POST' : 'GET',
      headers: {
        'Content-Type': 'application/json',
        'Accept-Language': 'en',
        ...(init.cookie ? { Cookie: init.cookie } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }
  async function member(username: string, roles = ['user']) {
    const repositories = createRepositories(server.db);
    const uid = await insertAccount(repositories, {
      email: `${username}@example.com`,
      password: 'profile password 1',
      username,
      roles,
    });
    return { uid, cookie: `uid=${uid}; token=${await createSession(repositories, uid)}` };
  }

  it('updates the profile, shows it publicly without the e-mail, and queues it for review', async () => {
    const me = await member('Profiled');
    await server.db.updateTable('users').set({ is_updated_after_review: false }).where('uid', '=', me.uid).execute();
    const saved = await call('user/update/info', {
      cookie: me.cookie,
      body: {
        userNickname: '  ほしの ',
        signature: '弾幕が好き',
        gender: 'female',
        userBirthday: '2004-07-07',
        label: [{ labelName: 'VOCALOID' }, { labelName: '東方' }, { labelName: 'VOCALOID' }],
        userWebsite: { websiteName: 'blog', websiteUrl: 'https://example.com/' },
      },
    });
    expect(saved.status).toBe(200);
    const info = await call(`user/info?uid=${me.uid}`);
    expect(info.json.result).toMatchObject({
      userNickname: 'ほしの',
      signature: '弾幕が好き',
      gender: 'female',
      userBirthday: '2004-07-07',
      label: [
        { id: 0, labelName: 'VOCALOID' },
        { id: 1, labelName: '東方' },
      ],
      userWebsite: { websiteName: 'blog', websiteUrl: 'https://example.com/' },
    });
    expect(JSON.stringify(info.json)).not.toMatch(/@example\.com|password|argon/);
    const row = await server.db
      .selectFrom('users')
      .select('is_updated_after_review')
      .where('uid', '=', me.uid)
      .executeTakeFirstOrThrow();
    expect(row.is_updated_after_review).toBe(true);
  });

  it('refuses bad profile input with the field named', async () => {
    const me = await member('Strict');
    await member('Occupied');
    const cases: Array<[unknown, string]> = [
      [{ signature: 'x'.repeat(201) }, 'signature'],
      [{ gender: 'robot' }, 'gender'],
      [{ userBirthday: '2004-13-40' }, 'userBirthday'],
      [{ userWebsite: { websiteName: 'x', websiteUrl: 'javascript:alert(1)' } }, 'userWebsite.websiteUrl'],
      [{ label: Array.from({ length: 11 }, (_, i) => ({ labelName: `t${i}` })) }, 'label'],
      [{ userNickname: 'a  b' }, 'userNickname'],
    ];
    for (const [body, path] of cases) {
      const response = await call('user/update/info', { cookie: me.cookie, body });
      expect(response.status, path).toBe(400);
      expect(
        response.json.issues.map((i: { path: string }) => i.path),
        path,
      ).toContain(path);
    }
    expect((await call('user/update/info', { cookie: me.cookie, body: { username: 'OCCUPIED' } })).json.code).toBe(
      'USERNAME_TAKEN',
    );
    expect((await call('user/update/info', { cookie: me.cookie, body: { username: 'strict' } })).status).toBe(200); // own name, new case
  });

  it('lets only logged-in, unblocked members edit', async () => {
    const blocked = await member('BlockedEditor', ['blocked']);
    expect((await call('user/update/info', { body: { signature: 'x' } })).status).toBe(401);
    expect((await call('user/update/info', { cookie: blocked.cookie, body: { signature: 'x' } })).json.code).toBe(
      'USER_BLOCKED',
    );
  });

  it('gives administrators a paged, filterable review queue with approve and clear', async () => {
    const admin = await member('Reviewer', ['administrator']);
    const user = await member('Reviewed');
    await call('user/update/info', {
      cookie: user.cookie,
      body: { signature: 'please review me', label: [{ labelName: 'tag' }] },
    });
    expect((await call('user/adminGetUserInfo', { cookie: user.cookie })).status).toBe(403);
    expect((await call('user/adminGetUserInfo')).status).toBe(401);

    const queue = await call('user/adminGetUserInfo?isOnlyShowUserInfoUpdatedAfterReview=true&page=1&pageSize=100', {
      cookie: admin.cookie,
    });
    expect(queue.status).toBe(200);
    expect(queue.json.result.find((r: { uid: number }) => r.uid === user.uid)).toMatchObject({
      signature: 'please review me',
      isUpdatedAfterReview: true,
    });
    expect(JSON.stringify(queue.json)).not.toMatch(/@example\.com/);
    const paged = await call('user/adminGetUserInfo?page=1&pageSize=1&sortBy=uid&sortOrder=ascend', {
      cookie: admin.cookie,
    });
    expect(paged.json.result).toHaveLength(1);
    expect(paged.json.totalCount).toBeGreaterThan(1);

    expect((await call('user/approveUserInfo', { cookie: admin.cookie, body: { uid: user.uid } })).status).toBe(200);
    const after = await call('user/adminGetUserInfo?isOnlyShowUserInfoUpdatedAfterReview=true&pageSize=100', {
      cookie: admin.cookie,
    });
    expect(after.json.result.map((r: { uid: number }) => r.uid)).not.toContain(user.uid);

    expect((await call('user/adminClearUserInfo', { cookie: user.cookie, body: { uid: user.uid } })).status).toBe(403);
    expect((await call('user/adminClearUserInfo', { cookie: admin.cookie, body: { uid: user.uid } })).status).toBe(200);
    expect((await call(`user/info?uid=${user.uid}`)).json.result).toMatchObject({
      username: 'Reviewed',
      signature: '',
      label: [],
      userNickname: null,
    });
    expect((await call('user/approveUserInfo', { cookie: admin.cookie, body: { uid: 987654 } })).status).toBe(404);
  });
});

describe.each(BACKENDS)('user settings on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server?.close());
  const post = async (path: string, body: unknown, cookie?: string) => {
    const response = await server.api(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  it('keeps one setting at a time, with the spec defaults until changed', async () => {
    const repositories = createRepositories(server.db);
    const uid = await insertAccount(repositories, {
      email: 'theme@example.com',
      password: 'theme password 1',
      username: 'Themer',
    });
    const cookie = `uid=${uid}; token=${await createSession(repositories, uid)}`;
    expect((await post('user/settings', {})).status).toBe(401);
    expect((await post('user/settings', {}, cookie)).json.userSettings).toEqual({
      themeType: 'system',
      themeColor: 'wallpaper',
      themeColorCustom: 'f06e8e',
      wallpaper: '',
      coloredSideBar: false,
      historyEnabled: true,
    });
    expect((await post('user/settings/update', { themeType: 'dark' }, cookie)).json.userSettings.themeType).toBe(
      'dark',
    );
    expect(
      (await post('user/settings/update', { themeColorCustom: '39c5bb' }, cookie)).json.userSettings,
    ).toMatchObject({ themeType: 'dark', themeColorCustom: '39c5bb' });
    for (const bad of [
      {},
      { themeType: 'dark', coloredSideBar: true },
      { themeType: 'neon' },
      { themeColorCustom: '#39c5bb' },
      { unknown: 1 },
    ]) {
      expect((await post('user/settings/update', bad, cookie)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});
