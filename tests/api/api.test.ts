import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { migrateToLatest } from '../../server/db/database.ts';
import { MIGRATIONS } from '../../server/db/migrations/index.ts';
import { viewerFromCookies, hashToken } from '../../server/services/sessions.ts';
import { createRepositories } from '../../server/repositories/index.ts';

describe.each(BACKENDS)('API server on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { CORS_ORIGINS: 'https://site.example' } });
  });
  afterAll(() => server?.close());

  it('reports health with the storage backend', async () => {
    const response = await server.api('health');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ success: true, status: 'ok', database: backend, databaseOk: true });
  });

  it('has applied every migration once', async () => {
    const { rows } = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(server.db);
    // Every registered migration, numbered without gaps from 0001.
    const names = rows.map((r) => r.name);
    expect(names).toEqual(Object.keys(MIGRATIONS).sort());
    expect(names.map((n) => Number(n.slice(0, 4)))).toEqual(names.map((_, i) => i + 1));
    expect(names).toContain('0012_block_lists');
    expect(await migrateToLatest(server.db)).toEqual([]);
  });

  it('answers validation failures with 400, a code and a message in the caller’s language', async () => {
    const zh = await server.api('video/exists?videoId=abc');
    expect(zh.status).toBe(400);
    expect(await zh.json()).toMatchObject({
      success: false,
      code: 'VALIDATION_FAILED',
      message: '提交的信息有误，请检查后重试。',
      issues: [{ path: 'videoId' }],
    });
    const en = await server.api('video/exists?videoId=-1', { headers: { 'Accept-Language': 'en-GB,en;q=0.9' } });
    expect(await en.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Some of the information sent is not valid.',
    });
    const cookie = await server.api('video/exists', {
      headers: { 'Accept-Language': 'en', Cookie: 'i18n_redirected=ko' },
    });
    expect(await cookie.json()).toMatchObject({
      message: '보낸 정보가 올바르지 않아요. 확인한 뒤 다시 시도해 주세요.',
    });
    const page = await server.api('video/exists', {
      headers: { 'Accept-Language': 'en', Cookie: 'i18n_redirected=ko', 'X-Client-Language': 'ja' },
    });
    expect(await page.json()).toMatchObject({
      message: '送信された内容に誤りがあります。確認してもう一度お試しください。',
    });
    const huge = await server.api('user/exists?uid=9007199254740993');
    expect(huge.status).toBe(400);
  });

  it('answers unknown calls with a JSON 404', async () => {
    const response = await server.api('no/such/call', { headers: { 'Accept-Language': 'fr' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      success: false,
      code: 'ROUTE_NOT_FOUND',
      message: 'Cet appel d’API n’existe pas.',
    });
  });

  it('tells whether a video and a user exist', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'mikan' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const approved = await server.db
      .insertInto('videos')
      .values({ uploader_uid: user.uid, title: 'a', status: 'approved' })
      .returning('video_id')
      .executeTakeFirstOrThrow();
    const pending = await server.db
      .insertInto('videos')
      .values({ uploader_uid: user.uid, title: 'b' })
      .returning('video_id')
      .executeTakeFirstOrThrow();
    expect(await (await server.api(`video/exists?videoId=${approved.video_id}`)).json()).toEqual({
      success: true,
      exist: true,
    });
    expect(await (await server.api(`video/exists?videoId=${pending.video_id}`)).json()).toEqual({
      success: true,
      exist: false,
    });
    expect(await (await server.api(`user/exists?uid=${user.uid}`)).json()).toEqual({ success: true, exists: true });
    expect(await (await server.api('user/exists?uid=999999')).json()).toEqual({ success: true, exists: false });
  });

  it('gives every answer a request id and keeps a safe incoming one', async () => {
    const fresh = await server.api('health');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await server.api('health', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const unsafe = await server.api('health', { headers: { 'X-Request-Id': 'a b<script>' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('a b<script>');
  });

  it('allows credentialed CORS only for configured site origins', async () => {
    const preflight = await server.api('video/exists', {
      method: 'OPTIONS',
      headers: { Origin: 'https://site.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const simple = await server.api('health', { headers: { Origin: 'https://site.example' } });
    expect(simple.headers.get('access-control-expose-headers')).toContain('Stream-Media-Id');
    const other = await server.api('health', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses state-changing calls from a foreign origin (CSRF)', async () => {
    const refused = await server.api('user/exists', { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ORIGIN_REFUSED' });
    const allowed = await server.api('user/exists', { method: 'POST', headers: { Origin: 'https://site.example' } });
    expect(allowed.status).toBe(405); // passes the check, then user/exists takes no POST
  });

  it('resolves a session cookie to its user, never an expired or mismatched one', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'Sakura', roles: ['administrator'] })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const token = 'a'.repeat(43);
    await server.db
      .insertInto('sessions')
      .values({ token_hash: hashToken(token), uid: user.uid, expires_at: new Date(Date.now() + 60_000) })
      .execute();
    await server.db
      .insertInto('sessions')
      .values({ token_hash: hashToken('expired'), uid: user.uid, expires_at: new Date(Date.now() - 1000) })
      .execute();
    const repositories = createRepositories(server.db);
    expect(await viewerFromCookies(repositories, `uid=${user.uid}; token=${token}`)).toEqual({
      uid: user.uid,
      roles: ['administrator'],
    });
    expect(await viewerFromCookies(repositories, `uid=${user.uid}; token=expired`)).toBeNull();
    expect(await viewerFromCookies(repositories, `uid=${user.uid + 1}; token=${token}`)).toBeNull();
    expect(await viewerFromCookies(repositories, 'uid=abc; token=x')).toBeNull();
    expect(await viewerFromCookies(repositories, '')).toBeNull();
  });

  it('keeps usernames unique regardless of case', async () => {
    await server.db.insertInto('users').values({ username: 'Hoshino' }).execute();
    await expect(server.db.insertInto('users').values({ username: 'hoshino' }).execute()).rejects.toThrow();
  });
});

describe('failures never leak internals', () => {
  it('answers 500 INTERNAL without a stack when the database is gone', async () => {
    const server = await startTestServer('pglite');
    try {
      await sql`drop table videos cascade`.execute(server.db);
      const response = await server.api('video/exists?videoId=1', { headers: { 'Accept-Language': 'ja' } });
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({
        success: false,
        code: 'INTERNAL',
        message: 'サーバーで問題が発生しました。しばらくしてからもう一度お試しください。',
      });
      expect(text).not.toMatch(/videos|relation|at |\.ts/);
    } finally {
      await server.close();
    }
  });
});
