/**
 * Guests' video lists keep how many approved videos they hold (docs/decisions/0037): the home
 * page no longer counts every approved video on each call. The count still follows every change
 * to the videos: at once in the process that made it, and in another process when the cache
 * notice arrives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { useTwoProcesses } from './two-processes.ts';
import { insertCheckedMedia, insertVideo, member } from './media-helpers.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

/** The counts a guest sees on the home page, the uploader's page and the anime category, and the one the uploader sees on their own page. */
async function counts(server: Pick<TestServer, 'api'>, uploader: string) {
  const count = async (path: string, cookie?: string) => {
    const { status, body } = await jsonCall(server, path, { cookie });
    expect(status).toBe(200);
    return body.videosCount as number;
  };
  const uid = uidOf(uploader);
  return {
    home: await count('video/home'),
    user: await count(`video/user?uid=${uid}`),
    anime: await count('video/category?category=anime'),
    own: await count(`video/user?uid=${uid}`, uploader),
  };
}

/** An upload through video/upload of a media item the pipeline already checked (written straight to the database). */
async function uploadVideo(server: Pick<TestServer, 'api' | 'db'>, cookie: string): Promise<number> {
  const uid = uidOf(cookie);
  const { mediaId } = await insertCheckedMedia(server, uid, { expiresAt: new Date(Date.now() + 3600_000) });
  const { status, body } = await jsonCall(server, 'video/upload', {
    method: 'POST',
    cookie,
    body: {
      title: '计数',
      description: '',
      videoPart: [{ mediaId, videoPartTitle: 'P1' }],
      videoCategory: 'anime',
      copyright: 'original',
      ensureOriginal: true,
    },
  });
  expect(status).toBe(200);
  return body.videoId as number;
}

describe.each(BACKENDS)('video counts on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let reviewer = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'counted');
    reviewer = await member(server, 'counter', ['administrator']);
    await insertVideo(server, uploader, 30_000);
  }, 180_000);
  afterAll(() => server?.close());

  it('follows an upload, an approval and a deletion from the next call', async () => {
    const before = await counts(server, uploader);
    expect(before).toEqual({ home: 1, user: 1, anime: 0, own: 1 });
    // Kept now; an upload waits for review: in no guest's count, in the uploader's own list.
    const videoId = await uploadVideo(server, uploader);
    expect(await counts(server, uploader)).toEqual({ home: 1, user: 1, anime: 0, own: 2 });
    expect(
      (await jsonCall(server, 'video/pending/approved', { method: 'POST', cookie: reviewer, body: { videoId } }))
        .status,
    ).toBe(200);
    expect(await counts(server, uploader)).toEqual({ home: 2, user: 2, anime: 1, own: 2 });
    expect(
      (await jsonCall(server, 'video/delete', { method: 'DELETE', cookie: uploader, body: { videoId } })).status,
    ).toBe(200);
    expect(await counts(server, uploader)).toEqual(before);
  });

  it('gives a member the guests’ count less what their block lists hide, counted once, and follows their changes at once', async () => {
    const [blocked, hidden, other, viewer] = [
      await member(server, 'blocked one'),
      await member(server, 'hidden one'),
      await member(server, 'other one'),
      await member(server, 'viewer'),
    ];
    const { tag_id: tagId } = await server.db
      .insertInto('tags')
      .values({ created_by: uidOf(other) })
      .returning('tag_id')
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto('tag_names')
      .values({ tag_id: tagId, lang: 'en', name: 'spoilers', name_lower: 'spoilers' })
      .execute();
    const tagged = async (cookie: string, status: 'approved' | 'pending' = 'approved') => {
      const id = await insertVideo(server, cookie, 30_000, status);
      await server.db.insertInto('video_tags').values({ video_id: id, tag_id: tagId, position: 0 }).execute();
      return id;
    };
    // Hidden from the viewer: 2 by the blocked member (one of them with the blocked tag: counted
    // once), 1 by the hidden member, 2 by the other member with the blocked tag: 5; shown: 2 by the other member.
    await insertVideo(server, blocked, 30_000);
    await tagged(blocked);
    await insertVideo(server, hidden, 30_000);
    await tagged(other);
    await insertVideo(server, other, 30_000);
    await insertVideo(server, other, 30_000);
    const last = await tagged(other, 'pending');
    // An approval through the API forgets the kept counts (the rows above were written around the repository).
    expect(
      (await jsonCall(server, 'video/pending/approved', { method: 'POST', cookie: reviewer, body: { videoId: last } }))
        .status,
    ).toBe(200);
    const post = (path: string, body: unknown) => jsonCall(server, path, { method: 'POST', cookie: viewer, body });
    expect((await post('block/user', { blockUid: uidOf(blocked) })).status).toBe(200);
    expect((await post('block/hideuser', { hideUid: uidOf(hidden) })).status).toBe(200);
    expect((await post('block/tag', { tagId })).status).toBe(200);

    const count = async (path: string, cookie?: string) => {
      const { status, body } = await jsonCall(server, path, { cookie });
      expect(status).toBe(200);
      return body.videosCount as number;
    };
    const guests = await count('video/home');
    expect(await count('video/home', viewer)).toBe(guests - 5);
    // The rows a member's page walks agree with the count: every page of the list, in all.
    const seen = (await jsonCall(server, 'video/home?page=1&pageSize=50', { cookie: viewer })).body.videos.length;
    expect(seen).toBe(guests - 5);
    expect(await count(`video/user?uid=${uidOf(blocked)}`, viewer)).toBe(0);
    expect(await count(`video/user?uid=${uidOf(other)}`, viewer)).toBe(2);
    expect(await count(`video/user?uid=${uidOf(other)}`)).toBe(4);
    // A change of the block list counts afresh from the next call.
    expect(
      (await jsonCall(server, 'block/delete/tag', { method: 'DELETE', cookie: viewer, body: { tagId } })).status,
    ).toBeLessThan(300);
    expect(await count('video/home', viewer)).toBe(guests - 3);
    expect(await count(`video/user?uid=${uidOf(other)}`, viewer)).toBe(4);
  });

  it('answers with a count past its time while one recount runs behind it, then with the recount', async () => {
    const count = async () => (await jsonCall(server, 'video/home')).body.videosCount as number;
    const before = await count();
    // A video written around the repository (no notice), and the kept count's time run out.
    await insertVideo(server, uploader, 30_000);
    for (const entry of server.caches.videoCounts.values()) entry.at -= 3_600_000;
    const kept = server.caches.videoCounts.get('|');
    expect(kept?.settled).toBe(true);
    // The request after the time does not wait for the recount: it gets the kept count…
    expect(await count()).toBe(before);
    expect(kept?.recounting).toBe(true);
    // …and the recount, once made, answers the ones after.
    await expect.poll(() => server.caches.videoCounts.get('|') !== kept, { timeout: 10_000 }).toBe(true);
    expect(await count()).toBe(before + 1);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('video counts across two processes on postgres', () => {
  const { servers, api } = useTwoProcesses();

  it('shows an approval and a deletion made in the other process once its notice arrives', async () => {
    const [one, two] = servers;
    const db = one.database.db;
    const uploader = await member({ db } as TestServer, 'counted');
    const reviewer = await member({ db } as TestServer, 'counter', ['administrator']);
    const videoId = await uploadVideo({ ...api(one), db }, uploader);
    // The second process keeps the counts…
    expect(await counts(api(two), uploader)).toEqual({ home: 0, user: 0, anime: 0, own: 1 });
    expect(
      (await jsonCall(api(one), 'video/pending/approved', { method: 'POST', cookie: reviewer, body: { videoId } }))
        .status,
    ).toBe(200);
    // …and forgets them when the first one's notice arrives.
    await expect
      .poll(() => counts(api(two), uploader), { interval: 20 })
      .toEqual({ home: 1, user: 1, anime: 1, own: 1 });
    expect(
      (await jsonCall(api(one), 'video/delete', { method: 'DELETE', cookie: uploader, body: { videoId } })).status,
    ).toBe(200);
    await expect
      .poll(() => counts(api(two), uploader), { interval: 20 })
      .toEqual({ home: 0, user: 0, anime: 0, own: 0 });
  });
});
