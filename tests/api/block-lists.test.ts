import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import { BLOCK_LIST_LIMITS } from '../../src/lib/validation/block-lists.ts';
import { regexVerdict } from '../../src/lib/validation/regex-safety.ts';
import en from '../../src/i18n/en.json' with { type: 'json' };
import zhs from '../../src/i18n/zhs.json' with { type: 'json' };

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('block lists on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let carol = '';
  let dave = '';
  const call = (method: string, path: string, cookie?: string, body?: unknown) =>
    server.api(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en', ...(cookie ? { Cookie: cookie } : {}) },
    });
  const add = (path: string, body: unknown, cookie = bob) => call('POST', `block/${path}`, cookie, body);
  const remove = (path: string, body: unknown, cookie = bob) => call('DELETE', `block/delete/${path}`, cookie, body);
  const list = async (type: string, cookie = bob) =>
    (await call('GET', `block/list?type=${type}&page=1&pageSize=50`, cookie)).json();
  const ids = async (path: string, cookie?: string, body?: unknown) => {
    const res = await call(body ? 'POST' : 'GET', path, cookie, body);
    expect(res.status).toBe(200);
    const answer = await res.json();
    return {
      cache: res.headers.get('cache-control'),
      body: answer,
      ids: (answer.videos ?? []).map((v: { videoId: number }) => v.videoId) as number[],
    };
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    [alice, bob, carol, dave] = await Promise.all(
      ['Alice', 'Bob', 'Carol', 'Dave'].map((name) => member(server, name)),
    );
  });
  afterAll(() => server?.close());

  it('is for members: guests are refused, banned members cannot add', async () => {
    expect((await add('keyword', { blockKeyword: 'x' }, '')).status).toBe(401);
    expect((await call('GET', 'block/list?type=keyword')).status).toBe(401);
    const banned = await member(server, 'Banned', ['blocked']);
    const res = await add('keyword', { blockKeyword: 'x' }, banned);
    expect([res.status, (await res.json()).code]).toEqual([403, 'USER_BLOCKED']);
    expect((await call('GET', 'block/list?type=nonsense', bob)).status).toBe(400);
    expect(BLOCK_LIST_LIMITS).toEqual({ block: 500, hide: 500, tag: 100, keyword: 200, regex: 3 });
  });

  it('keeps keywords: trimmed, at most 30 characters, duplicates (any case) idempotent, up to 200', async () => {
    const first = await add('keyword', { blockKeyword: '  Spoiler  ' });
    expect(await first.json()).toEqual({ success: true, added: true });
    expect(await (await add('keyword', { blockKeyword: 'SPOILER' })).json()).toEqual({ success: true, added: false });
    for (const bad of ['', '   ', 'x'.repeat(31)]) {
      const res = await add('keyword', { blockKeyword: bad });
      expect([res.status, (await res.json()).code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await add('keyword', { blockKeyword: '字'.repeat(30) })).status).toBe(200);
    const listed = await list('keyword');
    expect(listed).toMatchObject({ success: true, blocklistCount: 2, limit: 200 });
    expect(listed.result.map((i: { value: string }) => i.value)).toEqual(['字'.repeat(30), 'Spoiler']);
    expect(listed.result[0]).toMatchObject({ type: 'keyword', uid: null, tag: null });

    // Fill up to the limit directly, then one more through the API is refused.
    const uid = uidOf(bob);
    await server.db
      .insertInto('block_entries')
      .values(Array.from({ length: 197 }, (_, i) => ({ uid, type: 'keyword' as const, value: `filler ${i}` })))
      .execute();
    expect((await add('keyword', { blockKeyword: 'the 200th' })).status).toBe(200);
    const full = await add('keyword', { blockKeyword: 'one too many' });
    const body = await full.json();
    expect([full.status, body.code, body.limit]).toEqual([409, 'BLOCK_LIST_FULL', 200]);
    expect(body.message).toMatch(/full|limit/i);
    // Removing is by the same field, in any case, and twice is harmless.
    expect(await (await remove('keyword', { blockKeyword: 'spoiler' })).json()).toEqual({
      success: true,
      removed: true,
    });
    expect(await (await remove('keyword', { blockKeyword: 'spoiler' })).json()).toEqual({
      success: true,
      removed: false,
    });
    expect((await list('keyword')).blocklistCount).toBe(199);
  });

  it('refuses unsafe and invalid expressions, keeps up to 3', async () => {
    for (const unsafe of ['(a+)+$', '(\\w+\\s?)+', '(x)\\1']) {
      const res = await add('regex', { blockRegex: unsafe }, carol);
      const body = await res.json();
      expect([res.status, body.code, body.unsafeRegex]).toEqual([400, 'UNSAFE_REGEX', true]);
    }
    const invalid = await add('regex', { blockRegex: '(unclosed' }, carol);
    expect([invalid.status, (await invalid.json()).code]).toEqual([400, 'INVALID_REGEX']);
    expect((await add('regex', { blockRegex: 'x'.repeat(31) }, carol)).status).toBe(400);
    for (const ok of ['^2{3,}$', '(哈){4,}', '前方.*高能'])
      expect((await add('regex', { blockRegex: ok }, carol)).status).toBe(200);
    expect(await (await add('regex', { blockRegex: '前方.*高能' }, carol)).json()).toEqual({
      success: true,
      added: false,
    });
    const full = await add('regex', { blockRegex: 'fourth' }, carol);
    expect([full.status, (await full.json()).code]).toEqual([409, 'BLOCK_LIST_FULL']);
    expect((await list('regex', carol)).result.map((i: { value: string }) => i.value)).toEqual([
      '前方.*高能',
      '(哈){4,}',
      '^2{3,}$',
    ]);
  });

  it('blocks and hides users (never oneself), with their names in the list and the flags on both sides', async () => {
    const self = await add('user', { blockUid: uidOf(dave) }, dave);
    expect([self.status, (await self.json()).code]).toEqual([400, 'BLOCK_SELF']);
    expect((await add('hideuser', { hideUid: uidOf(dave) }, dave)).status).toBe(400);
    expect((await add('user', { blockUid: 999_999 }, dave)).status).toBe(404);
    expect((await add('user', { blockUid: 'abc' }, dave)).status).toBe(400);

    expect(await (await add('user', { blockUid: uidOf(alice) }, dave)).json()).toEqual({ success: true, added: true });
    expect(await (await add('user', { blockUid: uidOf(alice) }, dave)).json()).toEqual({ success: true, added: false });
    expect((await add('hideuser', { hideUid: uidOf(carol) }, dave)).status).toBe(200);
    const blocked = await list('block', dave);
    expect(blocked).toMatchObject({ blocklistCount: 1, limit: 500 });
    expect(blocked.result[0]).toMatchObject({
      type: 'block',
      value: String(uidOf(alice)),
      uid: uidOf(alice),
      username: 'Alice',
      avatar: '',
    });
    expect((await list('hide', dave)).result[0]).toMatchObject({ type: 'hide', uid: uidOf(carol), username: 'Carol' });

    const info = async (uid: number, cookie?: string) => (await call('GET', `user/info?uid=${uid}`, cookie)).json();
    expect(await info(uidOf(alice), dave)).toMatchObject({ isBlocked: true, isHidden: false, isBlockedByOther: false });
    expect(await info(uidOf(dave), alice)).toMatchObject({ isBlocked: false, isBlockedByOther: true });
    expect(await info(uidOf(carol), dave)).toMatchObject({ isBlocked: false, isHidden: true, isBlockedByOther: false });
    expect(await info(uidOf(dave), carol)).toMatchObject({ isBlockedByOther: false });
    expect(await info(uidOf(alice))).toMatchObject({ isBlocked: false, isHidden: false, isBlockedByOther: false });

    const videoId = await insertVideo(server, alice, 10_000);
    expect(await (await call('GET', `video?videoId=${videoId}`, dave)).json()).toMatchObject({
      success: true,
      isBlocked: true,
      isBlockedByOther: false,
    });
    expect(await (await call('GET', `video?videoId=${videoId}`, carol)).json()).toMatchObject({
      isBlocked: false,
      isHidden: false,
    });
    await remove('user', { blockUid: uidOf(alice) }, dave);
    await remove('hideuser', { hideUid: uidOf(carol) }, dave);
    expect(await info(uidOf(alice), dave)).toMatchObject({ isBlocked: false });
    expect((await list('hide', dave)).blocklistCount).toBe(0);
  });

  it('leaves blocked and hidden uploaders and blocked tags out of every video list, for that viewer only', async () => {
    const [viewer, other, uploader, neighbour] = await Promise.all(
      ['Viewer', 'Other', 'Uploader', 'Neighbour'].map((n) => member(server, n)),
    );
    const theirs = await insertVideo(server, uploader, 10_000);
    const mine = await insertVideo(server, neighbour, 10_000);
    const tagged = await insertVideo(server, neighbour, 10_000);
    const tagRes = await call('POST', 'video/tag/create', other, {
      tagNameList: [{ lang: 'en', tagName: [{ name: 'Spoilers ahead' }] }],
    });
    const { tagId } = await tagRes.json();
    await server.db.insertInto('video_tags').values({ video_id: tagged, tag_id: tagId, position: 0 }).execute();
    const everyList = async (cookie?: string) => ({
      home: await ids('video/home?pageSize=100', cookie),
      category: await ids('video/category?category=misc&pageSize=100', cookie),
      search: await ids('video/search?keyword=x&pageSize=100', cookie),
      tag: await ids('video/search/tag', cookie, { tagId: [tagId] }),
      user: await ids(`video/user?uid=${uidOf(uploader)}`, cookie),
    });

    const before = await everyList(viewer);
    expect(before.home.ids).toEqual(expect.arrayContaining([theirs, mine, tagged]));
    expect(before.home.cache).toMatch(/^public/);
    expect(before.tag.ids).toEqual([tagged]);

    await add('user', { blockUid: uidOf(uploader) }, viewer);
    await add('tag', { tagId }, viewer);
    expect((await list('tag', viewer)).result[0]).toMatchObject({
      type: 'tag',
      value: String(tagId),
      tag: { tagId, tagNameList: [{ lang: 'en' }] },
    });
    const after = await everyList(viewer);
    for (const kind of ['home', 'category', 'search'] as const) {
      expect(after[kind].ids).toContain(mine);
      expect(after[kind].ids).not.toContain(theirs);
      expect(after[kind].ids).not.toContain(tagged);
      expect(after[kind].cache).toMatch(/private/);
      expect(after[kind].body.videosCount).toBe(before[kind].body.videosCount - 2);
    }
    expect(after.tag.ids).toEqual([]);
    expect(after.user.ids).toEqual([]);
    expect(after.user.body).toMatchObject({ isBlocked: true, videosCount: 0 });
    // Someone else still sees everything, from the public answer.
    const others = await everyList(other);
    expect(others.home.ids).toEqual(expect.arrayContaining([theirs, mine, tagged]));
    expect(others.home.cache).toMatch(/^public/);
    expect(others.user.ids).toEqual([theirs]);

    // Hiding leaves the videos out too; unblocking the tag brings its video back.
    await remove('user', { blockUid: uidOf(uploader) }, viewer);
    await add('hideuser', { hideUid: uidOf(uploader) }, viewer);
    await remove('tag', { tagId }, viewer);
    const hidden = await ids('video/home?pageSize=100', viewer);
    expect(hidden.ids).not.toContain(theirs);
    expect(hidden.ids).toEqual(expect.arrayContaining([mine, tagged]));
    expect((await add('tag', { tagId: 987_654 }, viewer)).status).toBe(404);
  });

  it('leaves the danmaku and comments of blocked people out for the viewer who blocked them', async () => {
    const [viewer, talker, uploader, bystander] = await Promise.all(
      ['Viewer2', 'Talker', 'Uploader2', 'Bystander'].map((n) => member(server, n)),
    );
    const videoId = await insertVideo(server, uploader, 60_000);
    await server.db
      .insertInto('danmaku')
      .values([
        {
          video_id: videoId,
          uid: uidOf(talker),
          time: 1,
          text: 'from the talker',
          color: 'ffffff',
          font_size: 'medium',
          mode: 'rtl',
        },
        {
          video_id: videoId,
          uid: uidOf(bystander),
          time: 2,
          text: 'from the bystander',
          color: 'ffffff',
          font_size: 'medium',
          mode: 'rtl',
        },
      ])
      .execute();
    expect((await call('POST', 'video/comment/emit', talker, { videoId, text: '<b>talker</b>' })).status).toBe(200);
    expect((await call('POST', 'video/comment/emit', bystander, { videoId, text: 'bystander' })).status).toBe(200);

    await add('user', { blockUid: uidOf(talker) }, viewer);
    const danmaku = await call('GET', `video/danmaku?videoId=${videoId}`, viewer);
    expect(danmaku.headers.get('cache-control')).toMatch(/private/);
    expect((await danmaku.json()).danmaku.map((d: { text: string }) => d.text)).toEqual(['from the bystander']);
    const comments = await (await call('GET', `video/comment?videoId=${videoId}`, viewer)).json();
    expect([comments.videoCommentCount, comments.videoCommentList.map((c: { text: string }) => c.text)]).toEqual([
      1,
      ['bystander'],
    ]);

    const publicPool = await call('GET', `video/danmaku?videoId=${videoId}`, bystander);
    expect(publicPool.headers.get('cache-control')).toMatch(/^public/);
    expect((await publicPool.json()).danmaku).toHaveLength(2);
    expect((await (await call('GET', `video/comment?videoId=${videoId}`)).json()).videoCommentCount).toBe(2);
  });

  /** Comments written straight to the database (no rate limit), floors 1..n in order. */
  async function writeComments(videoId: number, rows: Array<[cookie: string, text: string]>) {
    await server.db
      .insertInto('comments')
      .values(rows.map(([cookie, text], i) => ({ video_id: videoId, floor: i + 1, uid: uidOf(cookie), text })))
      .execute();
    await server.db.updateTable('videos').set({ comment_floor: rows.length }).where('video_id', '=', videoId).execute();
  }
  const commentPage = async (videoId: number, cookie?: string, page = 1, pageSize = 20) => {
    const res = await call('GET', `video/comment?videoId=${videoId}&page=${page}&pageSize=${pageSize}`, cookie);
    expect(res.status).toBe(200);
    const body = await res.json();
    return {
      cache: res.headers.get('cache-control'),
      count: body.videoCommentCount,
      hidden: body.hiddenCommentCount,
      floors: body.videoCommentList.map((c: { commentIndex: number }) => c.commentIndex),
    };
  };

  it("leaves comments matching the viewer's keywords and expressions out of their pages, says how many, and keeps pages fixed", async () => {
    const [viewer, talker, uploader] = await Promise.all(
      ['Reader', 'Chatter', 'Uploader3'].map((n) => member(server, n)),
    );
    const videoId = await insertVideo(server, uploader, 60_000);
    await writeComments(videoId, [
      [talker, 'plain hello'], // 1
      [talker, '<b>SPOI</b>ler: the butler did it'], // 2: the keyword across formatting, any case
      [talker, 'Episode  12 was great'], // 3: the expression
      [viewer, 'no spoilers please, episode 13 soon'], // 4: the viewer's own, always shown
      [talker, 'spoi<br />ler'], // 5: a line break splits words
      [talker, 'R&amp;D budget'], // 6: entities are matched as shown (r&d)
      [talker, '<p>fine</p><p>too</p>'], // 7
    ]);
    expect((await add('keyword', { blockKeyword: ' Spoiler ' }, viewer)).status).toBe(200);
    expect((await add('keyword', { blockKeyword: 'r&d' }, viewer)).status).toBe(200);
    expect((await add('regex', { blockRegex: 'episode\\s*\\d+' }, viewer)).status).toBe(200);

    const all = await commentPage(videoId, viewer);
    expect(all).toEqual({ cache: 'private, no-store', count: 7, hidden: 3, floors: [7, 5, 4, 1] });
    // Page n covers the same floors for everyone; what the lists match is left out of it.
    expect(await commentPage(videoId, viewer, 1, 3)).toMatchObject({ count: 7, hidden: 1, floors: [7, 5] });
    expect(await commentPage(videoId, viewer, 2, 3)).toMatchObject({ count: 7, hidden: 2, floors: [4] });
    expect(await commentPage(videoId, viewer, 3, 3)).toMatchObject({ count: 7, hidden: 0, floors: [1] });
    // Nobody else is affected, and their answers are personal too (votes are marked).
    expect(await commentPage(videoId, talker)).toMatchObject({ hidden: 0, floors: [7, 6, 5, 4, 3, 2, 1] });
    expect(await commentPage(videoId)).toMatchObject({ cache: 'private, no-store', hidden: 0, count: 7 });

    await remove('keyword', { blockKeyword: 'SPOILER' }, viewer);
    expect((await commentPage(videoId, viewer)).floors).toEqual([7, 5, 4, 2, 1]);
  });

  it('a slow expression on a long comment leaves that comment out instead of stalling the server', async () => {
    const [viewer, talker, uploader] = await Promise.all(
      ['Patient', 'Rambler', 'Uploader4'].map((n) => member(server, n)),
    );
    const videoId = await insertVideo(server, uploader, 60_000);
    // Passes the safety check (no nesting, two unbounded quantifiers) yet is cubic on "aaa…".
    expect(regexVerdict('a*a*b')).toBe('ok');
    await writeComments(videoId, [
      [talker, 'aab'],
      [talker, 'a'.repeat(19_000)],
      [talker, 'a short remark'],
    ]);
    expect((await add('regex', { blockRegex: 'a*a*b' }, viewer)).status).toBe(200);
    const [slow, meanwhile] = await Promise.all([commentPage(videoId, viewer), commentPage(videoId, talker)]);
    expect(slow).toMatchObject({ count: 3, hidden: 2, floors: [3] });
    expect(meanwhile.floors).toEqual([3, 2, 1]);
    // The matcher recovers for the next answer.
    expect(await commentPage(videoId, viewer, 2, 1)).toMatchObject({ hidden: 1, floors: [] });
    expect(await commentPage(videoId, viewer, 1, 1)).toMatchObject({ hidden: 0, floors: [3] });
  });

  it('refuses comments, votes and danmaku on the videos of an uploader who blocked the member, in their language', async () => {
    const [uploader, troll, fan] = await Promise.all(['Uploader5', 'Troll', 'Fan'].map((n) => member(server, n)));
    const videoId = await insertVideo(server, uploader, 60_000);
    expect((await add('user', { blockUid: uidOf(troll) }, uploader)).status).toBe(200);
    const comment = { videoId, text: 'hello' };
    const danmaku = { videoId, time: 1, text: 'hello', color: 'ffffff' };

    for (const [path, body] of [
      ['video/comment/emit', comment],
      ['video/danmaku/emit', danmaku],
    ] as const) {
      const refused = await call('POST', path, troll, body);
      expect([refused.status, await refused.json()]).toEqual([
        403,
        expect.objectContaining({ success: false, code: 'BLOCKED_BY_UPLOADER', message: en.api.blockedByUploader }),
      ]);
      const inChinese = await server.api(path, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'zhs', Cookie: troll },
      });
      expect((await inChinese.json()).message).toBe(zhs.api.blockedByUploader);
      expect((await call('POST', path, fan, body)).status).toBe(200);
    }
    expect(await server.db.selectFrom('comments').select('uid').where('video_id', '=', videoId).execute()).toEqual([
      { uid: uidOf(fan) },
    ]);
    // Nor may the member vote on the comments there.
    const { id: fanComment } = await server.db
      .selectFrom('comments')
      .select('id')
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    const vote = { videoId, id: Number(fanComment) };
    for (const path of ['video/comment/upvote', 'video/comment/downvote']) {
      const refused = await call('POST', path, troll, vote);
      expect([refused.status, (await refused.json()).code]).toEqual([403, 'BLOCKED_BY_UPLOADER']);
    }
    // The refusals cost no rate limit: once unblocked, the member writes at once.
    await remove('user', { blockUid: uidOf(troll) }, uploader);
    expect((await call('POST', 'video/comment/emit', troll, comment)).status).toBe(200);
    expect((await call('POST', 'video/danmaku/emit', troll, danmaku)).status).toBe(200);
    expect((await call('POST', 'video/comment/upvote', troll, vote)).status).toBe(200);
    // Blocking the other way round is the member's own choice and refuses nothing.
    const other = await insertVideo(server, troll, 60_000);
    await add('user', { blockUid: uidOf(troll) }, fan);
    expect((await call('POST', 'video/comment/emit', fan, { videoId: other, text: 'hi' })).status).toBe(200);
  });

  it('caps the tag list at 100, counted under a lock so racing adds cannot pass it', async () => {
    const uid = uidOf(alice);
    const { rows } = await sql<{
      tag_id: number;
    }>`INSERT INTO tags (created_by) SELECT NULL FROM generate_series(1, 101) RETURNING tag_id`.execute(server.db);
    const tagIds = rows.map((r) => Number(r.tag_id));
    await server.db
      .insertInto('block_entries')
      .values(tagIds.slice(0, 97).map((tagId) => ({ uid, type: 'tag' as const, value: String(tagId), tag_id: tagId })))
      .execute();
    const racing = await Promise.all(tagIds.slice(97).map((tagId) => add('tag', { tagId }, alice)));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 200, 409]);
    expect((await list('tag', alice)).blocklistCount).toBe(100);
  });
});
