import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertPhoto, insertVideo, member } from './media-helpers.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('collections on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let videos: number[] = [];
  const call = async (method: string, path: string, cookie?: string, body?: unknown) => {
    const res = await server.api(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en', ...(cookie ? { Cookie: cookie } : {}) },
    });
    return { status: res.status, body: await res.json(), cache: res.headers.get('cache-control') };
  };
  const create = (cookie: string, fields: Record<string, unknown>) => call('POST', 'collection/create', cookie, fields);
  const add = (cookie: string, collectionId: number, videoId: number) =>
    call('POST', 'collection/addVideo', cookie, { collectionId, videoId });
  const get = (collectionId: number, cookie?: string, query = '') =>
    call('GET', `collection/get?collectionId=${collectionId}${query}`, cookie);
  const listOf = (uid: number, cookie?: string) => call('GET', `collection/list?uid=${uid}`, cookie);
  const idsIn = async (collectionId: number, cookie: string) =>
    (await get(collectionId, cookie)).body.videos.map((v: { videoId: number }) => v.videoId);

  beforeAll(async () => {
    server = await startTestServer(backend);
    [alice, bob] = await Promise.all(['Alice', 'Bob'].map((name) => member(server, `${name}${backend}c`)));
    videos = [];
    for (let i = 0; i < 4; i += 1) videos.push(await insertVideo(server, bob, 10_000));
  });
  afterAll(() => server?.close());

  it('creates, lists, updates and deletes a member’s collection; guests must log in', async () => {
    expect((await create('', { title: 'x' })).status).toBe(401);
    const made = await create(alice, { title: '  Night drives  ', description: 'synthwave', visibility: 'public' });
    expect(made.status).toBe(200);
    expect(made.body.collection).toMatchObject({
      title: 'Night drives',
      description: 'synthwave',
      visibility: 'public',
      videoCount: 0,
      unavailableCount: 0,
      cover: '',
      coverVideoId: null,
    });
    const id = made.body.collection.collectionId;
    // Private by default.
    expect((await create(alice, { title: 'Secret' })).body.collection.visibility).toBe('private');
    const updated = await call('POST', 'collection/update', alice, { collectionId: id, title: 'Night drives II' });
    expect(updated.body.collection).toMatchObject({
      title: 'Night drives II',
      description: 'synthwave',
      visibility: 'public',
    });
    const mine = await listOf(uidOf(alice), alice);
    expect(mine.body.collections.map((c: { title: string }) => c.title)).toEqual(['Secret', 'Night drives II']);
    expect(mine.cache).toContain('private');
    expect((await call('POST', 'collection/delete', alice, { collectionId: id })).body).toEqual({ success: true });
    expect((await get(id, alice)).status).toBe(404);
    expect((await call('POST', 'collection/delete', alice, { collectionId: id })).status).toBe(404);
  });

  it('refuses titles and descriptions past their limits, and a 101st collection', async () => {
    const long = await create(alice, { title: 'x'.repeat(81) });
    expect([long.status, long.body.code, long.body.issues[0].path]).toEqual([400, 'VALIDATION_FAILED', 'title']);
    expect((await create(alice, { title: 'x'.repeat(80), description: 'y'.repeat(1000) })).status).toBe(200);
    expect((await create(alice, { title: 'ok', description: 'y'.repeat(1001) })).status).toBe(400);
    expect((await create(alice, { title: '   ' })).status).toBe(400);
    expect((await create(alice, { title: 'ok', visibility: 'friends' })).status).toBe(400);
    const carol = await member(server, `Carol${backend}c`);
    await server.db
      .insertInto('collections')
      .values(
        Array.from({ length: 99 }, (_, i) => ({
          owner_uid: uidOf(carol),
          title: `c${i}`,
          visibility: 'private' as const,
        })),
      )
      .execute();
    expect((await create(carol, { title: 'the 100th' })).status).toBe(200);
    const refused = await create(carol, { title: 'the 101st' });
    expect([refused.status, refused.body.code]).toEqual([409, 'COLLECTIONS_LIMIT']);
    expect(refused.body.message).toMatch(/100/);
  });

  it('adds videos idempotently, in order, with the first available poster as the cover', async () => {
    const { collectionId } = (await create(alice, { title: 'Mix', visibility: 'public', videoId: videos[0] })).body
      .collection;
    expect(await idsIn(collectionId, alice)).toEqual([videos[0]]);
    expect((await add(alice, collectionId, videos[1])).body).toEqual({ success: true, changed: true, videoCount: 2 });
    expect((await add(alice, collectionId, videos[1])).body).toEqual({ success: true, changed: false, videoCount: 2 });
    expect((await add(alice, collectionId, videos[2])).body.videoCount).toBe(3);
    expect(await idsIn(collectionId, alice)).toEqual(videos.slice(0, 3));
    const got = await get(collectionId);
    expect(got.body.collection.cover).toMatch(/poster\.jpg$/);
    expect(got.body.owner).toMatchObject({ uid: uidOf(alice) });
    // A chosen cover, then back to the first video's.
    const chosen = await call('POST', 'collection/update', alice, { collectionId, coverVideoId: videos[2] });
    expect(chosen.body.collection.coverVideoId).toBe(videos[2]);
    const notThere = await call('POST', 'collection/update', alice, { collectionId, coverVideoId: videos[3] });
    expect([notThere.status, notThere.body.code]).toEqual([400, 'NOT_IN_COLLECTION']);
    expect(
      (await call('POST', 'collection/update', alice, { collectionId, coverVideoId: null })).body.collection
        .coverVideoId,
    ).toBeNull();
    // Paging.
    expect(
      (await get(collectionId, alice, '&page=2&pageSize=2')).body.videos.map((v: { videoId: number }) => v.videoId),
    ).toEqual([videos[2]]);
    // Removing twice: the second changes nothing.
    expect((await call('POST', 'collection/removeVideo', alice, { collectionId, videoId: videos[1] })).body).toEqual({
      success: true,
      changed: true,
      videoCount: 2,
    });
    expect((await call('POST', 'collection/removeVideo', alice, { collectionId, videoId: videos[1] })).body).toEqual({
      success: true,
      changed: false,
      videoCount: 2,
    });
    // Which of mine hold a video.
    expect((await call('GET', `collection/containing?videoId=${videos[0]}`, alice)).body.collectionIds).toContain(
      collectionId,
    );
    expect((await call('GET', `collection/containing?videoId=${videos[0]}`, bob)).body.collectionIds).toEqual([]);
    expect((await call('GET', `collection/containing?videoId=${videos[0]}`)).status).toBe(401);
  });

  it('adds only approved videos; unknown ids are not found', async () => {
    const { collectionId } = (await create(alice, { title: 'Only approved' })).body.collection;
    const pending = await insertVideo(server, bob, 10_000, 'pending');
    for (const videoId of [pending, 987_654_321]) {
      const refused = await add(alice, collectionId, videoId);
      expect([refused.status, refused.body.code]).toEqual([404, 'VIDEO_UNAVAILABLE']);
    }
    expect((await create(alice, { title: 'x', videoId: pending })).body.code).toBe('VIDEO_UNAVAILABLE');
    expect((await add(alice, 987_654_321, videos[0])).status).toBe(404);
    expect((await get(987_654_321)).status).toBe(404);
    expect((await listOf(987_654_321)).status).toBe(404);
  });

  it('keeps a private collection its owner’s alone: 404 to others and guests, nor listed', async () => {
    const { collectionId } = (await create(alice, { title: 'Hidden gems', videoId: videos[0] })).body.collection;
    expect((await get(collectionId, alice)).status).toBe(200);
    for (const viewer of [bob, undefined]) {
      const answer = await get(collectionId, viewer);
      expect([answer.status, answer.body.code]).toEqual([404, 'NOT_FOUND']);
      const listed = (await listOf(uidOf(alice), viewer)).body.collections.map(
        (c: { collectionId: number }) => c.collectionId,
      );
      expect(listed).not.toContain(collectionId);
    }
    expect(
      (await listOf(uidOf(alice), alice)).body.collections.map((c: { collectionId: number }) => c.collectionId),
    ).toContain(collectionId);
    // Writes by another member: the same 404 for a private one (no existence leak), 403 for a public one.
    for (const [path, body] of [
      ['collection/addVideo', { collectionId, videoId: videos[1] }],
      ['collection/update', { collectionId, title: 'mine now' }],
      ['collection/delete', { collectionId }],
      ['collection/reorder', { collectionId, videoIds: [videos[0]] }],
      ['collection/removeVideo', { collectionId, videoId: videos[0] }],
    ] as const) {
      expect((await call('POST', path, bob, body)).status, path).toBe(404);
    }
    const open = (await create(alice, { title: 'Open', visibility: 'public', videoId: videos[0] })).body.collection
      .collectionId;
    for (const [path, body] of [
      ['collection/addVideo', { collectionId: open, videoId: videos[1] }],
      ['collection/update', { collectionId: open, title: 'mine now' }],
      ['collection/delete', { collectionId: open }],
      ['collection/reorder', { collectionId: open, videoIds: [videos[0]] }],
      ['collection/removeVideo', { collectionId: open, videoId: videos[0] }],
    ] as const) {
      const refused = await call('POST', path, bob, body);
      expect([refused.status, refused.body.code], path).toEqual([403, 'FORBIDDEN']);
    }
    expect(await idsIn(open, alice)).toEqual([videos[0]]);
    // Turning it private hides it at once.
    await call('POST', 'collection/update', alice, { collectionId: open, visibility: 'private' });
    expect((await get(open, bob)).status).toBe(404);
  });

  it('leaves deleted and unapproved videos out of every view and counts them', async () => {
    const gone = await insertVideo(server, bob, 10_000);
    const backInReview = await insertVideo(server, bob, 10_000);
    const { collectionId } = (await create(alice, { title: 'Fading', visibility: 'public', videoId: gone })).body
      .collection;
    for (const videoId of [backInReview, videos[0]]) await add(alice, collectionId, videoId);
    expect((await call('DELETE', 'video/delete', bob, { videoId: gone })).status).toBe(200);
    await server.db.updateTable('videos').set({ status: 'pending' }).where('video_id', '=', backInReview).execute();
    const got = await get(collectionId, bob);
    expect(got.body.videos.map((v: { videoId: number }) => v.videoId)).toEqual([videos[0]]);
    expect(got.body.collection).toMatchObject({ videoCount: 1, unavailableCount: 2 });
    // The cover falls back to the first available video.
    const listed = (await listOf(uidOf(alice))).body.collections.find(
      (c: { collectionId: number }) => c.collectionId === collectionId,
    );
    expect(listed).toMatchObject({ videoCount: 1, unavailableCount: 2 });
    expect(listed.cover).toMatch(/poster\.jpg$/);
    // It cannot be added again while unavailable.
    expect((await add(alice, collectionId, gone)).body.code).toBe('VIDEO_UNAVAILABLE');
  });

  it('reorders, keeping unnamed (unavailable) videos after the named ones; refuses strangers and repeats', async () => {
    const { collectionId } = (await create(alice, { title: 'Order', videoId: videos[0] })).body.collection;
    for (const videoId of videos.slice(1)) await add(alice, collectionId, videoId);
    const reorder = (videoIds: number[]) => call('POST', 'collection/reorder', alice, { collectionId, videoIds });
    expect((await reorder([videos[3], videos[1], videos[0], videos[2]])).body).toEqual({ success: true });
    expect(await idsIn(collectionId, alice)).toEqual([videos[3], videos[1], videos[0], videos[2]]);
    expect((await reorder([videos[2], videos[0]])).status).toBe(200);
    expect(await idsIn(collectionId, alice)).toEqual([videos[2], videos[0], videos[3], videos[1]]);
    const stranger = await reorder([videos[0], 987_654_321]);
    expect([stranger.status, stranger.body.code]).toEqual([400, 'NOT_IN_COLLECTION']);
    expect((await reorder([videos[0], videos[0]])).status).toBe(400);
    expect(await idsIn(collectionId, alice)).toEqual([videos[2], videos[0], videos[3], videos[1]]);
    // A video added after a reorder goes last.
    const late = await insertVideo(server, bob, 10_000);
    await add(alice, collectionId, late);
    expect((await idsIn(collectionId, alice)).at(-1)).toBe(late);
  });

  it('holds at most 1000 videos (unavailable ones included), answering 409', async () => {
    const { collectionId } = (await create(alice, { title: 'Full' })).body.collection;
    const filler = await sql<{ video_id: number }>`INSERT INTO videos (uploader_uid, title, status)
      SELECT ${uidOf(bob)}, 'filler', 'deleted' FROM generate_series(1, 1000) RETURNING video_id`.execute(server.db);
    await server.db
      .insertInto('collection_videos')
      .values(
        filler.rows.map((row, i) => ({ collection_id: collectionId, video_id: Number(row.video_id), position: i + 1 })),
      )
      .execute();
    const refused = await add(alice, collectionId, videos[0]);
    expect([refused.status, refused.body.code]).toEqual([409, 'COLLECTION_FULL']);
    expect(refused.body.message).toMatch(/1000|1,000/);
    expect((await get(collectionId, alice)).body.collection).toMatchObject({ videoCount: 0, unavailableCount: 1000 });
    // Room again once one is taken out.
    await call('POST', 'collection/removeVideo', alice, { collectionId, videoId: Number(filler.rows[0].video_id) });
    expect((await add(alice, collectionId, videos[0])).body).toMatchObject({ changed: true, videoCount: 1 });
  });

  it('lets a banned member delete but not change their collections', async () => {
    const dave = await member(server, `Dave${backend}c`);
    const { collectionId } = (await create(dave, { title: 'Before the ban', videoId: videos[0] })).body.collection;
    // Banned as staff ban (sessions kept a second forget their roles at once: decision 0024).
    const root = await member(server, `Root${backend}c`, ['root']);
    expect(
      (await call('POST', 'rbac/adminUpdateUserRole', root, { uid: uidOf(dave), newRoles: ['blocked'] })).status,
    ).toBe(200);
    expect((await add(dave, collectionId, videos[1])).body.code).toBe('USER_BLOCKED');
    expect((await call('POST', 'collection/removeVideo', dave, { collectionId, videoId: videos[0] })).status).toBe(200);
    expect((await call('POST', 'collection/delete', dave, { collectionId })).status).toBe(200);
  });

  it('holds audio tracks and photo posts beside videos (mediaType), in order, and deleted for good with their target', async () => {
    const track = await insertAudio(server, bob, 42_000);
    const post = await insertPhoto(server, bob);
    const pendingTrack = await insertAudio(server, bob, 10_000, 'pending');
    const item = (mediaType: string, id: number) => ({ mediaType, id });
    const addItem = (collectionId: number, mediaType: string, videoId: number) =>
      call('POST', 'collection/addVideo', alice, { collectionId, videoId, mediaType });
    // Created with a track as its first item: its cover is the collection's.
    await server.db
      .updateTable('audio_tracks')
      .set({ cover: '/media/images/cover-abc.jpg' })
      .where('audio_id', '=', track)
      .execute();
    const made = await create(alice, { title: 'Mixed', visibility: 'public', videoId: track, mediaType: 'audio' });
    expect(made.status).toBe(200);
    expect(made.body.collection).toMatchObject({ videoCount: 1, cover: '/media/images/cover-abc.jpg' });
    const id = made.body.collection.collectionId;
    expect((await addItem(id, 'photo', post)).body).toMatchObject({ changed: true, videoCount: 2 });
    expect((await addItem(id, 'photo', post)).body).toMatchObject({ changed: false, videoCount: 2 });
    expect((await add(alice, id, videos[0])).body).toMatchObject({ changed: true, videoCount: 3 });
    // Only approved items; an unknown kind is refused as input.
    expect((await addItem(id, 'audio', pendingTrack)).body.code).toBe('VIDEO_UNAVAILABLE');
    expect((await addItem(id, 'audio', 999_999)).body.code).toBe('VIDEO_UNAVAILABLE');
    expect((await addItem(id, 'song', track)).status).toBe(400);

    const kinds = (body: {
      items: Array<{
        type: string;
        video?: { videoId: number };
        track?: { audioId: number };
        photo?: { photoId: number };
      }>;
    }) => body.items.map((i) => `${i.type}${i.video?.videoId ?? i.track?.audioId ?? i.photo?.photoId}`);
    const page = await get(id, bob);
    expect(kinds(page.body)).toEqual([`audio${track}`, `photo${post}`, `video${videos[0]}`]);
    expect(page.body.videos.map((v: { videoId: number }) => v.videoId)).toEqual([videos[0]]);
    expect(page.body.items[0].track).toMatchObject({ audioId: track, duration: 42_000 });
    expect(page.body.items[1].photo).toMatchObject({ photoId: post, imageCount: 1 });
    expect(kinds((await get(id, bob, '&page=2&pageSize=2')).body)).toEqual([`video${videos[0]}`]);
    expect(
      (await call('GET', `collection/containing?videoId=${track}&mediaType=audio`, alice)).body.collectionIds,
    ).toEqual([id]);
    expect(
      (await call('GET', `collection/containing?videoId=${post}&mediaType=photo`, alice)).body.collectionIds,
    ).toEqual([id]);

    // Reordered across kinds; a stranger or a repeat is refused.
    expect(
      (
        await call('POST', 'collection/reorder', alice, {
          collectionId: id,
          items: [item('video', videos[0]), item('photo', post)],
        })
      ).status,
    ).toBe(200);
    expect(kinds((await get(id, bob)).body)).toEqual([`video${videos[0]}`, `photo${post}`, `audio${track}`]);
    const stranger = await call('POST', 'collection/reorder', alice, {
      collectionId: id,
      items: [item('audio', 999_999)],
    });
    expect([stranger.status, stranger.body.code]).toEqual([400, 'NOT_IN_COLLECTION']);
    expect(
      (
        await call('POST', 'collection/reorder', alice, {
          collectionId: id,
          items: [item('photo', post), item('photo', post)],
        })
      ).status,
    ).toBe(400);
    expect((await call('POST', 'collection/reorder', alice, { collectionId: id })).status).toBe(400);

    // A track deleted by its uploader is counted apart; deleted for good, it leaves the collection.
    await server.db.updateTable('audio_tracks').set({ status: 'deleted' }).where('audio_id', '=', track).execute();
    expect((await get(id, bob)).body.collection).toMatchObject({ videoCount: 2, unavailableCount: 1 });
    await server.db.deleteFrom('audio_tracks').where('audio_id', '=', track).execute();
    expect((await get(id, bob)).body.collection).toMatchObject({ videoCount: 2, unavailableCount: 0 });
    expect(
      (await call('POST', 'collection/removeVideo', alice, { collectionId: id, videoId: post, mediaType: 'photo' }))
        .body,
    ).toMatchObject({ changed: true, videoCount: 1 });
    expect(kinds((await get(id, bob)).body)).toEqual([`video${videos[0]}`]);
  });
});
