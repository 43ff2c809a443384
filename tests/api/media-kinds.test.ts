/**
 * The shared foundation of the media kinds: the tus endpoint takes an upload kind with its own
 * rules, and danmaku, comments and history name their target's type (a video when absent),
 * each type's ids apart from the others'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member, tusCreate, tusMetadata } from './media-helpers.ts';

const json = (body: unknown, cookie?: string, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
});

describe.each(BACKENDS)('media kinds on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    alice = await member(server, 'Alice');
  });
  afterAll(() => server?.close());

  it('refuses an upload of an unknown kind, and takes a video when no kind is named', async () => {
    const bogus = await tusCreate(server, alice, 1000, tusMetadata({ name: 'x.bin', kind: 'hologram' }));
    expect([bogus.status, (await bogus.json()).code]).toEqual([400, 'VALIDATION_FAILED']);
    const plain = await tusCreate(server, alice, 1000);
    expect(plain.status).toBe(201);
    const id = plain.headers.get('location')!.split('/').pop()!;
    expect(
      (await server.db.selectFrom('uploads').select('kind').where('id', '=', id).executeTakeFirstOrThrow()).kind,
    ).toBe('video');
  });

  it('keeps each target type apart: a video id named as another type is not found, and history and comments follow the type', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    const comment = await server.api(
      'video/comment/emit',
      json({ videoId, mediaType: 'video', text: 'on the video' }, alice),
    );
    expect(comment.status).toBe(200);
    for (const mediaType of ['audio', 'photo']) {
      const elsewhere = await server.api('video/comment/emit', json({ videoId, mediaType, text: 'not there' }, alice));
      expect([elsewhere.status, (await elsewhere.json()).code]).toEqual([404, 'NOT_FOUND']);
      expect((await server.api(`video/danmaku?videoId=${videoId}&mediaType=${mediaType}`)).status).toBe(404);
      expect((await server.api(`video/comment?videoId=${videoId}&mediaType=${mediaType}`)).status).toBe(404);
      expect((await server.api('history/record', json({ videoId, mediaType, anchor: 3 }, alice))).status).toBe(404);
    }
    const unknown = await server.api(`video/comment?videoId=${videoId}&mediaType=podcast`);
    expect([unknown.status, (await unknown.json()).code]).toEqual([400, 'VALIDATION_FAILED']);
    const list = await (await server.api(`video/comment?videoId=${videoId}`)).json();
    expect(list.videoCommentList.map((c: { text: string }) => c.text)).toEqual(['on the video']);
  });

  it('forgets a hard-deleted video’s comments, danmaku and history, as the foreign keys did', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    expect((await server.api('video/comment/emit', json({ videoId, text: 'soon gone' }, alice))).status).toBe(200);
    expect((await server.api('history/record', json({ videoId, anchor: 5 }, alice))).status).toBe(200);
    await server.db.deleteFrom('videos').where('video_id', '=', videoId).execute();
    for (const table of ['comments', 'watch_history'] as const) {
      expect(await server.db.selectFrom(table).select('uid').where('video_id', '=', videoId).execute()).toEqual([]);
    }
  });
});
