/**
 * The edge of the wire (issue 24), on both databases: ids in JSON bodies are JSON numbers only,
 * query strings take digits only; JSON nested past the limit is refused before it is parsed;
 * control characters in a path never reach a handler, the file store or the database; invisible
 * bidi and zero-width characters are not stored in what people read; the site's status lines
 * carry their own reason phrase.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import { databaseFingerprint } from './generated/db-fingerprint.ts';
import { expectedMessage } from './generated/route-cases.ts';
import { MAX_JSON_DEPTH } from '../../src/lib/api/wire.ts';

const post = (server: TestServer, path: string, cookie: string, body: string, locale = 'en', method = 'POST') =>
  server.api(path, {
    method,
    headers: { Cookie: cookie, 'Content-Type': 'application/json', 'X-Client-Language': locale },
    body,
  });

describe.each(BACKENDS)('the edge of the wire on %s', (backend) => {
  let server: TestServer;
  let root: string;
  let first: number;
  let second: number;
  beforeAll(async () => {
    server = await startTestServer(backend);
    root = await member(server, 'edgeroot', ['root']);
    first = await insertVideo(server, root, 20_000);
    second = await insertVideo(server, root, 20_000);
  });
  afterAll(() => server?.close());

  // A counted view reaches the video's row within a write window (decision 0023): written now.
  const watched = async (videoId: number) => {
    await server.services.videos.flushViews();
    return (
      await server.db
        .selectFrom('videos')
        .select('watched_count')
        .where('video_id', '=', videoId)
        .executeTakeFirstOrThrow()
    ).watched_count;
  };

  it('refuses an id in a JSON body that is not a JSON number, and acts on nothing', async () => {
    const before = await databaseFingerprint(server.db);
    for (const id of [
      'true',
      `[[${second}]]`,
      `[${second}]`,
      `"0x${second}"`,
      `" ${second} "`,
      `"${second}e0"`,
      `"${second}"`,
      `"+${second}"`,
      `${second}.5`,
      '1e400',
      '{}',
    ]) {
      const response = await post(server, 'video/watch', root, `{"videoId":${id}}`);
      const body = await response.json();
      expect({ id, status: response.status, code: body.code }).toEqual({ id, status: 400, code: 'VALIDATION_FAILED' });
      expect(body.issues[0].path).toBe('videoId');
    }
    // The same in a destructive call: a wrong value never removes the wrong item.
    for (const id of ['true', `"${first}"`])
      expect((await post(server, 'video/delete', root, `{"videoId":${id}}`, 'en', 'DELETE')).status).toBe(400);
    expect(await databaseFingerprint(server.db)).toEqual(before);
    // A JSON number is taken (2.0 is the number 2 in JSON).
    const counted = await post(server, 'video/watch', root, `{"videoId":${second}.0}`);
    expect(counted.status).toBe(200);
    expect(await watched(second)).toBe(1);
    expect(await watched(first)).toBe(0);
  });

  it('reads digits, and digits only, from a query string', async () => {
    expect((await jsonCall(server, `video?videoId=${first}`)).body.video.videoId).toBe(first);
    expect((await jsonCall(server, `video/user?uid=${/uid=(\d+)/.exec(root)![1]}&page=1&pageSize=2`)).status).toBe(200);
    for (const bad of [`0x${first}`, ` ${first} `, `${first}e0`, `+${first}`, `${first}.0`, `-${first}`, 'true', '']) {
      const { status, body } = await jsonCall(server, `video?videoId=${encodeURIComponent(bad)}`);
      expect({ bad, status, code: body.code }).toEqual({ bad, status: 400, code: 'VALIDATION_FAILED' });
    }
    expect((await jsonCall(server, 'video/home?page=2e0')).status).toBe(400);
    expect((await jsonCall(server, 'video/home?page=2')).status).toBe(200);
  });

  it('says integer for ids in the OpenAPI document, bodies and queries alike', async () => {
    const document = await (await server.api('openapi.json')).json();
    expect(
      document.paths['/video/watch'].post.requestBody.content['application/json'].schema.properties.videoId.type,
    ).toBe('integer');
    expect(
      document.paths['/video'].get.parameters.find((p: { name: string }) => p.name === 'videoId').schema.type,
    ).toBe('integer');
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with 400 and the error shape, on every kind of call`, async () => {
    const deep = `${'['.repeat(7000)}${']'.repeat(7000)}`;
    const deepObject = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;
    for (const path of ['user/login', 'video/watch', 'video/danmaku/emit']) {
      for (const body of [
        deep,
        deepObject,
        `{"videoId":1,"x":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`,
      ]) {
        const response = await post(server, path, root, body, 'ja');
        const answer = await response.json();
        expect(response.status).toBe(400);
        expect(answer).toMatchObject({
          success: false,
          code: 'VALIDATION_FAILED',
          message: expectedMessage('ja', 'VALIDATION_FAILED'),
          issues: [{ path: '(body)' }],
        });
      }
    }
    // Brackets inside text are not nesting; a body at the limit is parsed as usual (here: an unknown field refused by name).
    const inText = await post(server, 'video/watch', root, JSON.stringify({ videoId: first, note: '['.repeat(5000) }));
    expect((await inText.json()).issues?.[0]?.path).not.toBe('(body)');
  });

  it('answers a control character in any path segment 400 before anything looks it up', async () => {
    const before = await databaseFingerprint(server.db);
    for (const path of [
      '/media/hls/%00/master.m3u8',
      '/media/hls/0123456789abcdef01234567%00/master.m3u8',
      '/media/%00',
      '/media/videos/%00/master.m3u8',
      '/media/photos/1%00/w640.webp',
      '/media/hls/a/%1F',
    ]) {
      const response = await fetch(server.baseUrl + path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
    }
    for (const path of ['video%00', 'video/tus/%00', '%00/video', 'video/watch%7F']) {
      const response = await server.api(path, { headers: { 'X-Client-Language': 'fr' } });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expectedMessage('fr', 'VALIDATION_FAILED'),
        issues: [{ path: '(path)' }],
      });
    }
    // A name that is no media id is not looked up either (an unknown one: 404, as before).
    expect((await fetch(`${server.baseUrl}/media/hls/not-a-media-id/master.m3u8`)).status).toBe(404);
    expect(await databaseFingerprint(server.db)).toEqual(before);
  });

  it('stores no bidi controls or zero-width characters in danmaku, comments, titles, descriptions and signatures', async () => {
    const hidden = '\u202Eevil\u202C \u200Bzero\u200C\u200D\u2060width\uFEFF \u2066iso\u2069 \u200Fmark\u200E';
    const shown = 'evil zerowidth iso mark';
    const family = '👨\u200D👩\u200D👧 🏳️\u200D🌈';
    const call = (path: string, body: unknown) => jsonCall(server, path, { method: 'POST', cookie: root, body });

    expect((await call('video/danmaku/emit', { videoId: first, time: 1, text: hidden, color: 'ffffff' })).status).toBe(
      200,
    );
    expect((await call('video/comment/emit', { videoId: first, text: `${hidden} ${family}` })).status).toBe(200);
    expect((await call('collection/create', { title: `\u202E${shown}`, description: hidden })).status).toBe(200);
    expect((await call('user/update/info', { signature: hidden })).status).toBe(200);

    const danmaku = await jsonCall(server, `video/danmaku?videoId=${first}`);
    expect(danmaku.status, JSON.stringify(danmaku.body)).toBe(200);
    expect(danmaku.body.danmaku.map((d: { text: string }) => d.text)).toEqual([shown]);
    const comments = await jsonCall(server, `video/comment?videoId=${first}`, { cookie: root });
    expect(comments.status, JSON.stringify(comments.body)).toBe(200);
    // The joiner inside an emoji sequence stays: without it the family is three faces.
    expect(comments.body.videoCommentList[0].text).toBe(`${shown} ${family}`);
    const uid = Number(/uid=(\d+)/.exec(root)![1]);
    const collections = await jsonCall(server, `collection/list?uid=${uid}`, { cookie: root });
    expect(
      collections.body.collections.map((c: { title: string; description: string }) => [c.title, c.description]),
    ).toContainEqual([shown, shown]);
    const user = await server.db
      .selectFrom('users')
      .select('signature')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    expect(user.signature).toBe(shown);
    expect(
      (await call('video/update', { videoId: second, title: `\u200B标题\u202E`, description: hidden })).status,
    ).toBe(200);
    const stored = await server.db
      .selectFrom('videos')
      .select(['title', 'description'])
      .where('video_id', '=', second)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: '标题', description: shown });
    // Names refuse them outright (only letters, digits, kana, Hangul, Han, - and _).
    expect((await call('user/update/info', { userNickname: 'ad\u200Bmin' })).status).toBe(400);
  });
});

const built = existsSync('dist/server/entry.mjs');

/** The raw status line's reason phrase, as Node's client reads it. */
const statusLine = (url: string) =>
  new Promise<string>((resolve, reject) => {
    httpRequest(url, (res) => {
      res.resume();
      resolve(`${res.statusCode} ${res.statusMessage}`);
    })
      .on('error', reject)
      .end();
  });

describe.skipIf(!built)('site pages at the edge of the wire (needs `npm run build`)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { site: true });
  });
  afterAll(() => server?.close());

  it('says each status with its own reason phrase (a page not found was `404 OK`)', async () => {
    for (const path of [
      '/en/nothing',
      '/zht/nothing/deeper',
      '/zhs/video/kv999999',
      '/en/user/999999',
      '/ja/photo/999999',
    ]) {
      expect({ path, line: await statusLine(server.baseUrl + path) }).toEqual({ path, line: '404 Not Found' });
    }
    expect(await statusLine(`${server.baseUrl}/en/`)).toBe('200 OK');
    expect(await statusLine(`${server.baseUrl}/media/nothing`)).toBe('404 Not Found');
  });

  it('answers a control character in a page path 400', async () => {
    for (const path of ['/%00', '/en/%00', '/en/video/kv1%00', '/en/user/%01']) {
      expect({ path, line: await statusLine(server.baseUrl + path) }).toEqual({ path, line: '400 Bad Request' });
    }
  });
});
