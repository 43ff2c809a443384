import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertPhoto, insertVideo, member } from './media-helpers.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
/** The application never changes created_at (its type says so); the tests move rows in time. */
const at = (date: Date) => date as never;

describe.each(BACKENDS)('following and the feed on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let carol = '';
  const call = async (method: string, path: string, cookie?: string, body?: unknown) => {
    const res = await server.api(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en', ...(cookie ? { Cookie: cookie } : {}) },
    });
    return { status: res.status, body: await res.json(), cache: res.headers.get('cache-control') };
  };
  const follow = (who: string, uid: number) => call('POST', 'feed/following', who, { followingUid: uid });
  const unfollow = (who: string, uid: number) => call('POST', 'feed/unfollowing', who, { unfollowingUid: uid });
  const info = async (uid: number, cookie?: string) => (await call('GET', `user/info?uid=${uid}`, cookie)).body;
  /** A video of `uploader` pushed to the feed (or not), uploaded `minutesAgo` minutes ago. */
  const feedVideo = async (
    uploader: string,
    minutesAgo: number,
    pushToFeed = true,
    status: 'approved' | 'pending' = 'approved',
  ) => {
    const videoId = await insertVideo(server, uploader, 10_000, status);
    await server.db
      .updateTable('videos')
      .set({ push_to_feed: pushToFeed, created_at: at(new Date(Date.now() - minutesAgo * 60_000)) })
      .where('video_id', '=', videoId)
      .execute();
    return videoId;
  };
  const feedIds = async (cookie: string, query = '') => {
    const answer = await call('GET', `feed/videos?pageSize=50${query}`, cookie);
    expect(answer.status).toBe(200);
    return answer.body.videos.map((v: { videoId: number }) => v.videoId) as number[];
  };
  /** Every page of a cursor-paged list, `pageSize` at a time. */
  const allPages = async (
    path: string,
    cookie: string | undefined,
    pageSize: number,
    key: 'videos' | 'result',
    between?: () => Promise<unknown>,
  ) => {
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const answer = await call('GET', `${path}${sep}pageSize=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`, cookie);
      expect(answer.status).toBe(200);
      pages.push(answer.body[key].map((item: { videoId?: number; uid?: number }) => item.videoId ?? item.uid));
      cursor = answer.body.nextCursor;
      if (between && pages.length === 1) await between();
    } while (cursor);
    return pages;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    [alice, bob, carol] = await Promise.all(
      ['Alice', 'Bob', 'Carol'].map((name) => member(server, `${name}${backend}`)),
    );
  });
  afterAll(() => server?.close());

  it('is for members: guests must log in, banned members may only stop following', async () => {
    expect((await follow('', uidOf(bob))).status).toBe(401);
    expect((await unfollow('', uidOf(bob))).status).toBe(401);
    expect((await call('GET', 'feed/videos')).status).toBe(401);
    const banned = await member(server, `Banned${backend}`, ['blocked']);
    const refused = await follow(banned, uidOf(bob));
    expect([refused.status, refused.body.code]).toEqual([403, 'USER_BLOCKED']);
    expect(await unfollow(banned, uidOf(bob))).toMatchObject({
      status: 200,
      body: { success: true, isFollowing: false },
    });
    expect((await call('GET', 'feed/videos', banned)).status).toBe(200);
  });

  it('follows and unfollows idempotently, answering the state and the count', async () => {
    const bobUid = uidOf(bob);
    for (let i = 0; i < 2; i += 1)
      expect(await follow(alice, bobUid)).toMatchObject({
        status: 200,
        body: { success: true, isFollowing: true, followerCount: 1 },
      });
    expect((await follow(carol, bobUid)).body).toEqual({ success: true, isFollowing: true, followerCount: 2 });
    for (let i = 0; i < 2; i += 1)
      expect((await unfollow(carol, bobUid)).body).toEqual({ success: true, isFollowing: false, followerCount: 1 });
    const stored = await server.db.selectFrom('follows').selectAll().where('followed_uid', '=', bobUid).execute();
    expect(stored.map((r) => Number(r.follower_uid))).toEqual([uidOf(alice)]);
  });

  it('refuses oneself (400) and unknown users (404)', async () => {
    for (const answer of [await follow(alice, uidOf(alice)), await unfollow(alice, uidOf(alice))]) {
      expect([answer.status, answer.body.code]).toEqual([400, 'FOLLOW_SELF']);
      expect(answer.body.message).toMatch(/yourself/);
    }
    const unknown = await follow(alice, 987_654_321);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await unfollow(alice, 987_654_321)).status).toBe(404);
    expect((await call('POST', 'feed/following', alice, { followingUid: 'x' })).status).toBe(400);
  });

  it('refuses following across a block, both ways, and a block ends follows both ways', async () => {
    const [dave, erin] = await Promise.all([member(server, `Dave${backend}`), member(server, `Erin${backend}`)]);
    expect((await follow(dave, uidOf(erin))).body.isFollowing).toBe(true);
    expect((await follow(erin, uidOf(dave))).body.isFollowing).toBe(true);
    expect((await call('POST', 'block/user', erin, { blockUid: uidOf(dave) })).status).toBe(200);
    expect((await info(uidOf(erin))).result).toMatchObject({ followerCount: 0, followingCount: 0 });
    for (const answer of [await follow(dave, uidOf(erin)), await follow(erin, uidOf(dave))]) {
      expect([answer.status, answer.body.code]).toEqual([403, 'FOLLOW_BLOCKED']);
      expect(answer.body.message).toMatch(/blocked/);
    }
    // Unfollowing stays possible (nothing to undo) and unblocking allows following again.
    expect((await unfollow(dave, uidOf(erin))).status).toBe(200);
    await call('DELETE', 'block/delete/user', erin, { blockUid: uidOf(dave) });
    expect((await follow(dave, uidOf(erin))).body).toEqual({ success: true, isFollowing: true, followerCount: 1 });
  });

  it('shows the counts to everyone and isFollowing to the viewer, in user info and on the video', async () => {
    const [uploader, fan] = await Promise.all([member(server, `Uploader${backend}`), member(server, `Fan${backend}`)]);
    const uploaderUid = uidOf(uploader);
    const videoId = await insertVideo(server, uploader, 10_000);
    const uploaderInfo = async (cookie?: string) =>
      (await call('GET', `video?videoId=${videoId}`, cookie)).body.video.uploaderInfo;
    expect((await info(uploaderUid, fan)).result).toMatchObject({
      isFollowing: false,
      followerCount: 0,
      followingCount: 0,
    });
    expect(await uploaderInfo(fan)).toMatchObject({ isFollowing: false, isSelf: false });

    await follow(fan, uploaderUid);
    await follow(uploader, uidOf(alice));
    expect((await info(uploaderUid, fan)).result).toMatchObject({
      isFollowing: true,
      isSelf: false,
      followerCount: 1,
      followingCount: 1,
    });
    expect((await info(uploaderUid)).result).toMatchObject({ isFollowing: false, followerCount: 1, followingCount: 1 });
    expect((await info(uploaderUid, uploader)).result).toMatchObject({ isFollowing: false, isSelf: true });
    expect((await info(uidOf(fan), fan)).result).toMatchObject({ followerCount: 0, followingCount: 1 });
    expect(await uploaderInfo(fan)).toMatchObject({ isFollowing: true, isSelf: false });
    expect(await uploaderInfo()).toMatchObject({ isFollowing: false, isSelf: false });
    expect(await uploaderInfo(uploader)).toMatchObject({ isFollowing: false, isSelf: true });
  });

  it('lists followers and followings newest first, a cursor page at a time', async () => {
    const star = await member(server, `Star${backend}`);
    const fans = [];
    for (let i = 0; i < 5; i += 1) {
      const fan = await member(server, `Fan${i}${backend}`);
      await follow(fan, uidOf(star));
      await server.db
        .updateTable('follows')
        .set({ created_at: at(new Date(Date.now() - (10 - i) * 60_000)) })
        .where('follower_uid', '=', uidOf(fan))
        .where('followed_uid', '=', uidOf(star))
        .execute();
      fans.push(uidOf(fan));
    }
    const newestFirst = [...fans].reverse();
    const pages = await allPages(`feed/followers?uid=${uidOf(star)}`, undefined, 2, 'result');
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
    const first = await call('GET', `feed/followers?uid=${uidOf(star)}&pageSize=1`);
    expect(first.body.result[0]).toMatchObject({
      uid: newestFirst[0],
      username: `Fan4${backend}`,
      avatar: '',
      signature: '',
    });
    expect(typeof first.body.result[0].followDateTime).toBe('number');
    const followings = await call('GET', `feed/followings?uid=${fans[0]}`);
    expect(followings.body).toEqual({
      success: true,
      result: [expect.objectContaining({ uid: uidOf(star) })],
      nextCursor: null,
    });
    expect((await call('GET', 'feed/followers?uid=987654321')).status).toBe(404);
    expect((await call('GET', `feed/followers?uid=${uidOf(star)}&cursor=bm9wZQ`)).status).toBe(400);
    expect((await call('GET', `feed/followers?uid=${uidOf(star)}&cursor=${'%'.repeat(3)}`)).status).toBe(400);
  });

  it('marks, in the follower and following lists, whom the viewer follows (a personal answer, never shared)', async () => {
    const [idol, fanA, fanB, viewer] = await Promise.all(
      ['Idol', 'FanA', 'FanB', 'Viewer'].map((n) => member(server, `${n}${backend}`)),
    );
    await follow(fanA, uidOf(idol));
    await follow(fanB, uidOf(idol));
    await follow(viewer, uidOf(fanA));
    const asGuest = await call('GET', `feed/followers?uid=${uidOf(idol)}`);
    expect(asGuest.body.result.map((p: { isFollowing: boolean }) => p.isFollowing)).toEqual([false, false]);
    expect(asGuest.cache).toMatch(/public/);
    const asViewer = await call('GET', `feed/followers?uid=${uidOf(idol)}`, viewer);
    expect(asViewer.body.result.map((p: { uid: number; isFollowing: boolean }) => [p.uid, p.isFollowing])).toEqual([
      [uidOf(fanB), false],
      [uidOf(fanA), true],
    ]);
    expect(asViewer.cache).toBe('private, no-store');
    // Oneself in a list is never "followed".
    const asFan = await call('GET', `feed/followers?uid=${uidOf(idol)}`, fanA);
    expect(asFan.body.result.find((p: { uid: number }) => p.uid === uidOf(fanA)).isFollowing).toBe(false);
    const followings = await call('GET', `feed/followings?uid=${uidOf(fanB)}`, fanA);
    expect(followings.body.result).toEqual([expect.objectContaining({ uid: uidOf(idol), isFollowing: true })]);
  });

  it('feeds approved videos pushed to the feed by followed uploaders, newest first, without what the viewer blocked', async () => {
    const [reader, maker, other, hidden, stranger] = await Promise.all(
      ['Reader', 'Maker', 'Other', 'Hidden', 'Stranger'].map((n) => member(server, `${n}${backend}`)),
    );
    for (const uploader of [maker, other, hidden]) await follow(reader, uidOf(uploader));
    const newest = await feedVideo(maker, 1);
    const older = await feedVideo(other, 5);
    const oldest = await feedVideo(maker, 30);
    const notPushed = await feedVideo(maker, 2, false);
    const pending = await feedVideo(maker, 3, true, 'pending');
    const fromStranger = await feedVideo(stranger, 4);
    const fromHidden = await feedVideo(hidden, 6);
    const tagged = await feedVideo(other, 7);
    const {
      body: { tagId },
    } = await call('POST', 'video/tag/create', stranger, {
      tagNameList: [{ lang: 'en', tagName: [{ name: `Spoiler ${backend}` }] }],
    });
    await server.db.insertInto('video_tags').values({ video_id: tagged, tag_id: tagId, position: 0 }).execute();

    expect(await feedIds(reader)).toEqual([newest, older, fromHidden, tagged, oldest]);
    const first = await call('GET', 'feed/videos?pageSize=1', reader);
    expect(first.cache).toBe('private, no-store');
    expect(first.body.videos[0]).toMatchObject({
      videoId: newest,
      uploaderId: uidOf(maker),
      duration: 10_000,
      videoCategory: expect.any(String),
    });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    for (const left of [notPushed, pending, fromStranger]) expect(await feedIds(reader)).not.toContain(left);

    await call('POST', 'block/hideuser', reader, { hideUid: uidOf(hidden) });
    await call('POST', 'block/tag', reader, { tagId });
    expect(await feedIds(reader)).toEqual([newest, older, oldest]);
    // Someone else following the same uploaders sees what this viewer blocked.
    await follow(carol, uidOf(hidden));
    expect(await feedIds(carol)).toEqual([fromHidden]);
    // Unfollowing empties the feed of that uploader.
    await unfollow(reader, uidOf(maker));
    expect(await feedIds(reader)).toEqual([older]);
    expect(await feedIds(stranger)).toEqual([]);
  });

  it('pages by cursor: an upload between pages shifts nothing, ties on the time are ordered by id', async () => {
    const [reader, maker] = await Promise.all([
      member(server, `Pager${backend}`),
      member(server, `Prolific${backend}`),
    ]);
    await follow(reader, uidOf(maker));
    const made: number[] = [];
    for (let i = 0; i < 7; i += 1) made.push(await feedVideo(maker, 10 + i));
    // Two videos at the very same microsecond: the id decides.
    const same = new Date(Date.now() - 20 * 60_000);
    await server.db
      .updateTable('videos')
      .set({ created_at: at(same) })
      .where('video_id', 'in', made.slice(5))
      .execute();
    const expected = [...made.slice(0, 5), made[6], made[5]];
    let latecomer = 0;
    const pages = await allPages('feed/videos', reader, 3, 'videos', async () => {
      latecomer = await feedVideo(maker, 0);
    });
    expect(pages).toEqual([expected.slice(0, 3), expected.slice(3, 6), expected.slice(6)]);
    expect(await feedIds(reader)).toEqual([latecomer, ...expected]);
    const bad = await call('GET', 'feed/videos?cursor=not-a-cursor', reader);
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await call('GET', 'feed/videos?pageSize=51', reader)).status).toBe(400);
  });

  it('holds the followed uploaders’ approved tracks and photo posts too, in one order paged across kinds, without what the viewer blocked', async () => {
    const [reader, singer, painter] = await Promise.all([
      member(server, `Listener${backend}`),
      member(server, `Singer${backend}`),
      member(server, `Painter${backend}`),
    ]);
    await follow(reader, uidOf(singer));
    await follow(reader, uidOf(painter));
    const moved = async (table: 'audio_tracks' | 'photos' | 'videos', id: number, when: Date) => {
      const column = table === 'audio_tracks' ? 'audio_id' : table === 'photos' ? 'photo_id' : 'video_id';
      await server.db
        .updateTable(table)
        .set({ created_at: at(when) })
        .where(column as never, '=', id as never)
        .execute();
      return id;
    };
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const track = await moved('audio_tracks', await insertAudio(server, singer, 30_000), ago(1));
    const post = await moved('photos', await insertPhoto(server, painter), ago(2));
    const video = await feedVideo(singer, 3);
    // At one microsecond: the video, then the track, then the post.
    const same = ago(4);
    const tiedPost = await moved('photos', await insertPhoto(server, singer), same);
    const tiedTrack = await moved('audio_tracks', await insertAudio(server, singer, 20_000), same);
    const tiedVideo = await moved('videos', await feedVideo(singer, 0), same);
    // Not in the feed: a pending track and post, a video not pushed to the feed.
    await moved('audio_tracks', await insertAudio(server, singer, 20_000, 'pending'), ago(5));
    await moved('photos', await insertPhoto(server, painter, 'pending'), ago(5));
    await feedVideo(singer, 5, false);
    const keyOf = (item: {
      type: string;
      video?: { videoId: number };
      track?: { audioId: number };
      photo?: { photoId: number };
    }) => `${item.type}${item.video?.videoId ?? item.track?.audioId ?? item.photo?.photoId}`;
    const expected = [
      `audio${track}`,
      `photo${post}`,
      `video${video}`,
      `video${tiedVideo}`,
      `audio${tiedTrack}`,
      `photo${tiedPost}`,
    ];

    const whole = await call('GET', 'feed/videos?pageSize=50', reader);
    expect(whole.body.items.map(keyOf)).toEqual(expected);
    expect(whole.body.videos.map((v: { videoId: number }) => v.videoId)).toEqual([video, tiedVideo]);
    expect(whole.body.items[0].track).toMatchObject({ audioId: track, duration: 30_000, uploaderId: uidOf(singer) });
    expect(whole.body.items[1].photo).toMatchObject({ photoId: post, imageCount: 1, cover: { widths: [320, 640] } });

    // Every page size walks the same order, each item once.
    for (const pageSize of [1, 2, 4]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const answer = await call(
          'GET',
          `feed/videos?pageSize=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`,
          reader,
        );
        expect(answer.status).toBe(200);
        seen.push(...answer.body.items.map(keyOf));
        cursor = answer.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected);
    }

    // Blocking a tag or hiding an uploader takes their tracks and posts out too.
    await call('POST', 'block/hideuser', reader, { hideUid: uidOf(painter) });
    expect((await call('GET', 'feed/videos?pageSize=50', reader)).body.items.map(keyOf)).toEqual(
      expected.filter((k) => k !== `photo${post}`),
    );
    const {
      body: { tagId },
    } = await call('POST', 'video/tag/create', singer, {
      tagNameList: [{ lang: 'en', tagName: [{ name: `Earworm ${backend}` }] }],
    });
    await server.db.insertInto('audio_tags').values({ audio_id: track, tag_id: tagId, position: 0 }).execute();
    await call('POST', 'block/tag', reader, { tagId });
    expect((await call('GET', 'feed/videos?pageSize=50', reader)).body.items.map(keyOf)).not.toContain(`audio${track}`);
  });
});
