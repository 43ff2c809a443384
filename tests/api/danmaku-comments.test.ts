import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { member, insertVideo as video } from './media-helpers.ts';
import { danmakuPoolCap, LIST_REVALIDATE_MS } from '../../server/services/danmaku.ts';
import { sanitizeComment } from '../../server/services/comments.ts';

const json = (body: unknown, cookie?: string, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
});
const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('danmaku, comments and history on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let admin = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    alice = await member(server, 'Alice');
    bob = await member(server, 'Bob');
    admin = await member(server, 'Moderator', ['administrator']);
  });
  afterAll(() => server?.close());

  it('takes danmaku within the video, validated, rate-limited, and lists them by time without sender ids', async () => {
    const videoId = await video(server, alice, 400_000);
    const emit = (body: Record<string, unknown>, cookie = bob) =>
      server.api('video/danmaku/emit', json({ videoId, color: 'ffffff', ...body }, cookie));
    const sent = await emit({
      time: 12.5,
      text: '  前方高能！  ',
      color: '#FF00AA',
      fontSize: 'large',
      mode: 'top',
      enableRainbow: true,
    });
    expect(sent.status).toBe(200);
    expect((await sent.json()).danmaku).toMatchObject({
      time: 12.5,
      text: '前方高能！',
      color: 'ff00aa',
      fontSize: 'large',
      mode: 'top',
      enableRainbow: true,
    });
    // One per 3 s per member.
    const tooSoon = await emit({ time: 13, text: 'again' });
    expect([tooSoon.status, (await tooSoon.json()).code]).toEqual([429, 'RATE_LIMITED']);
    expect(tooSoon.headers.get('retry-after')).toMatch(/^[1-3]$/);

    for (const bad of [
      { time: 1, text: '   ' },
      { time: 1, text: 'x'.repeat(101) },
      { time: 1, text: 'ok', color: 'red' },
      { time: 1, text: 'ok', mode: 'diagonal' },
      { time: 401, text: 'after the end' },
      { time: -1, text: 'before the start' },
      { time: 1, text: 'ok', fontSize: 'huge' },
    ]) {
      const res = await emit(bad, alice);
      expect([res.status, (await res.json()).code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(
      (await server.api('video/danmaku/emit', json({ videoId, time: 1, text: 'guest', color: 'ffffff' }))).status,
    ).toBe(401);
    const banned = await member(server, 'Muted', ['blocked']);
    expect((await (await emit({ time: 1, text: 'hi' }, banned)).json()).code).toBe('USER_BLOCKED');
    // 100 characters as people count them (emoji are one each) pass.
    expect((await emit({ time: 30, text: '🌸'.repeat(100) }, alice)).status).toBe(200);

    // A second segment (6 minutes in), written directly to skip the rate limit.
    await server.db
      .insertInto('danmaku')
      .values({
        video_id: videoId,
        uid: uidOf(alice),
        time: 370,
        text: 'segment two',
        color: 'ffffff',
        font_size: 'medium',
        mode: 'rtl',
      })
      .execute();
    const all = await (await server.api(`video/danmaku?videoId=${videoId}`)).json();
    expect(all.danmaku.map((d: { time: number }) => d.time)).toEqual([12.5, 30, 370]);
    expect(all).toMatchObject({ segmentSeconds: 360, segmentCount: 2 });
    for (const d of all.danmaku)
      expect(Object.keys(d).sort()).toEqual([
        'color',
        'editDateTime',
        'enableRainbow',
        'fontSize',
        'id',
        'mode',
        'text',
        'time',
      ]);
    const second = await (await server.api(`video/danmaku?videoId=${videoId}&segment=1`)).json();
    expect(second.danmaku.map((d: { text: string }) => d.text)).toEqual(['segment two']);
  });

  it('keeps a pool that scales with the duration, dropping the oldest', async () => {
    expect([danmakuPoolCap(20), danmakuPoolCap(60), danmakuPoolCap(400), danmakuPoolCap(1800)]).toEqual([
      100, 300, 1000, 3000,
    ]);
    const videoId = await video(server, alice, 20_000);
    const uid = uidOf(alice);
    await server.db
      .insertInto('danmaku')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          video_id: videoId,
          uid,
          time: i / 10,
          text: `old ${i}`,
          color: 'ffffff',
          font_size: 'medium' as const,
          mode: 'rtl' as const,
          created_at: new Date(Date.now() - 100_000 + i),
        })),
      )
      .execute();
    const carol = await member(server, 'Carol');
    expect(
      (await server.api('video/danmaku/emit', json({ videoId, time: 19, text: 'newest', color: 'ffffff' }, carol)))
        .status,
    ).toBe(200);
    const { danmaku } = await (await server.api(`video/danmaku?videoId=${videoId}`)).json();
    expect(danmaku).toHaveLength(100);
    expect(danmaku.map((d: { text: string }) => d.text)).toContain('newest');
    expect(danmaku.map((d: { text: string }) => d.text)).not.toContain('old 0');
  });

  it('serves only the newest pool of a video, whatever was written around the sends (decision 0034)', async () => {
    const videoId = await video(server, alice, 20_000); // a pool of 100
    const uid = uidOf(alice);
    // 151 rows written straight to the table (an import of another site's pool, an older cap):
    // two at each creation time, so the pool's edge falls between two rows of the same time.
    const base = Date.now() - 1_000_000;
    await server.db
      .insertInto('danmaku')
      .values(
        Array.from({ length: 151 }, (_, i) => ({
          video_id: videoId,
          uid,
          time: (i * 7) % 20,
          text: `row ${i}`,
          color: 'ffffff',
          font_size: 'medium' as const,
          mode: 'rtl' as const,
          created_at: new Date(base + Math.floor(i / 2) * 1000),
        })),
      )
      .execute();
    const newest = Array.from({ length: 100 }, (_, i) => `row ${i + 51}`).sort();
    const texts = async (query: string) =>
      (await (await server.api(`video/danmaku?videoId=${videoId}${query}`)).json()).danmaku as Array<{
        text: string;
        time: number;
      }>;
    for (const query of ['', '&segment=0']) {
      const served = await texts(query);
      expect(served.map((d) => d.text).sort()).toEqual(newest); // rows 0-50 are past the pool
      expect(served.map((d) => d.time)).toEqual([...served.map((d) => d.time)].sort((a, b) => a - b)); // still in time order
    }
    // The export and a member's own list (someone blocked: built for them) serve the same pool.
    const exported = await (await server.api(`video/danmaku/export?videoId=${videoId}&format=xml`)).text();
    expect(exported.match(/<d p=/g)).toHaveLength(100);
    expect(exported).not.toContain('>row 50<');
    const dave = await member(server, 'Dave');
    expect((await server.api('block/user', json({ blockUid: uidOf(bob) }, dave))).status).toBe(200);
    const personal = await (
      await server.api(`video/danmaku?videoId=${videoId}&segment=0`, { headers: { Cookie: dave } })
    ).json();
    expect(personal.danmaku.map((d: { text: string }) => d.text).sort()).toEqual(newest);
    // A send is in the pool at once and the oldest of the pool leaves it.
    const frank = await member(server, 'Frank');
    expect(
      (await server.api('video/danmaku/emit', json({ videoId, time: 3, text: 'just sent', color: 'ffffff' }, frank)))
        .status,
    ).toBe(200);
    const after = (await texts('')).map((d) => d.text);
    expect(after).toHaveLength(100);
    expect(after).toContain('just sent');
    expect(after).not.toContain('row 51');
  });

  it('hides the danmaku and comments of a pending video from everyone but its uploader and staff', async () => {
    const videoId = await video(server, alice, 60_000, 'pending');
    expect((await server.api(`video/danmaku?videoId=${videoId}`)).status).toBe(404);
    expect((await server.api(`video/danmaku?videoId=${videoId}`, { headers: { Cookie: alice } })).status).toBe(200);
    expect((await server.api('video/comment/emit', json({ videoId, text: 'hi' }, bob))).status).toBe(404);
    expect((await server.api(`video/comment?videoId=${videoId}`, { headers: { Cookie: admin } })).status).toBe(200);
  });

  it('numbers comments by floor, sanitises their HTML, pages them and counts votes exactly under concurrency', async () => {
    const videoId = await video(server, alice, 60_000);
    const post = async (text: string, cookie = alice) =>
      (await server.api('video/comment/emit', json({ videoId, text }, cookie))).json();
    const first = await post('<b>好听</b><script>alert(1)</script><img src=x onerror=alert(1)><i onclick="x()">!</i>');
    expect(first.comment).toMatchObject({
      commentRoute: `${videoId}.1`,
      commentIndex: 1,
      text: '<b>好听</b><i>!</i>',
      userInfo: { username: 'Alice' },
    });
    expect(
      (await server.api('video/comment/emit', json({ videoId, text: '<p> </p><script>x</script>' }, alice))).status,
    ).toBe(400);
    for (let i = 2; i <= 5; i++) await post(`comment ${i}`, bob);
    const page = async (n: number, cookie?: string) =>
      (
        await server.api(`video/comment?videoId=${videoId}&page=${n}&pageSize=2`, {
          headers: cookie ? { Cookie: cookie } : {},
        })
      ).json();
    const p1 = await page(1);
    expect(p1.videoCommentCount).toBe(5);
    expect(p1.videoCommentList.map((c: { commentIndex: number }) => c.commentIndex)).toEqual([5, 4]);
    expect((await page(3)).videoCommentList.map((c: { commentIndex: number }) => c.commentIndex)).toEqual([1]);

    // Twenty members vote at once, some switching: the counts equal the votes.
    const voters = await Promise.all(Array.from({ length: 20 }, (_, i) => member(server, `Voter${i}`)));
    const body = (cookie: string) => json({ videoId, id: first.comment.id }, cookie);
    await Promise.all(voters.map((cookie) => server.api('video/comment/upvote', body(cookie))));
    await Promise.all(voters.slice(0, 8).map((cookie) => server.api('video/comment/downvote', body(cookie))));
    const cancel = (cookie: string) => json({ videoId, id: first.comment.id }, cookie, 'DELETE');
    await Promise.all(voters.slice(0, 3).map((cookie) => server.api('video/comment/downvote/cancel', cancel(cookie))));
    // Cancelling a downvote one never gave leaves the upvote alone.
    await Promise.all(
      voters.slice(10, 12).map((cookie) => server.api('video/comment/downvote/cancel', cancel(cookie))),
    );
    const row = await server.db
      .selectFrom('comments')
      .select(['upvote_count', 'downvote_count'])
      .where('id', '=', first.comment.id)
      .executeTakeFirstOrThrow();
    const votes = await server.db
      .selectFrom('comment_votes')
      .select('vote')
      .where('comment_id', '=', first.comment.id)
      .execute();
    expect(row).toEqual({ upvote_count: 12, downvote_count: 5 });
    expect([votes.filter((v) => v.vote === 1).length, votes.filter((v) => v.vote === -1).length]).toEqual([12, 5]);
    const mine = (await page(3, voters[5])).videoCommentList[0];
    expect(mine).toMatchObject({ isUpvote: false, isDownvote: true, upvoteCount: 12, downvoteCount: 5 });

    // Only the author deletes their own; staff delete anyone's; both are soft and recorded.
    const route = `${videoId}.2`;
    expect(
      (await server.api('video/comment/deleteSelfComment', json({ videoId, commentRoute: route }, alice, 'DELETE')))
        .status,
    ).toBe(403);
    expect(
      (await server.api('video/comment/deleteSelfComment', json({ videoId, commentRoute: route }, bob, 'DELETE')))
        .status,
    ).toBe(200);
    expect(
      (
        await server.api(
          'video/comment/adminDeleteComment',
          json({ videoId, commentRoute: `${videoId}.3` }, bob, 'DELETE'),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await server.api(
          'video/comment/adminDeleteComment',
          json({ videoId, commentRoute: `${videoId}.3` }, admin, 'DELETE'),
        )
      ).status,
    ).toBe(200);
    expect((await page(1)).videoCommentCount).toBe(3);
    const deleted = await server.db
      .selectFrom('comments')
      .select(['floor', 'deleted_by'])
      .where('video_id', '=', videoId)
      .where('deleted_at', 'is not', null)
      .orderBy('floor')
      .execute();
    expect(deleted).toEqual([
      { floor: 2, deleted_by: uidOf(bob) },
      { floor: 3, deleted_by: uidOf(admin) },
    ]);
    expect((await post('after deletions')).comment.commentIndex).toBe(6);
  });

  it('records history with the last position, filters it by title, clears it, and honours the off switch', async () => {
    const a = await video(server, alice, 60_000);
    const b = await video(server, alice, 60_000);
    await server.db
      .updateTable('videos')
      .set({ title: '春日影 MV', search_text: '春日影 mv\n' })
      .where('video_id', '=', a)
      .execute();
    const record = async (videoId: number, anchor: number, cookie = bob) =>
      (await server.api('history/record', json({ videoId, anchor }, cookie))).json();
    expect(await record(a, 12.5)).toMatchObject({ recorded: true });
    expect(await record(b, 3)).toMatchObject({ recorded: true });
    expect(await record(a, 42)).toMatchObject({ recorded: true });
    const list = async (title = '') =>
      (
        await (
          await server.api(`history/filter${title ? `?videoTitle=${encodeURIComponent(title)}` : ''}`, {
            headers: { Cookie: bob },
          })
        ).json()
      ).result;
    expect((await list()).map((h: { id: number; anchor: number }) => [h.id, h.anchor])).toEqual([
      [a, 42],
      [b, 3],
    ]);
    expect((await list('春日')).map((h: { id: number }) => h.id)).toEqual([a]);
    expect((await (await server.api(`history/anchor?videoId=${a}`, { headers: { Cookie: bob } })).json()).anchor).toBe(
      42,
    );
    expect((await server.api('history/filter')).status).toBe(401);

    expect((await server.api('user/settings/update', json({ historyEnabled: false }, bob))).status).toBe(200);
    expect(await record(b, 50)).toMatchObject({ recorded: false });
    expect((await list()).find((h: { id: number }) => h.id === b).anchor).toBe(3);
    expect((await server.api('history/clear', { method: 'DELETE', headers: { Cookie: bob } })).status).toBe(200);
    expect(await list()).toEqual([]);
  });

  it("serves a segment's danmaku from a cache that follows every change, with an ETag and 304", async () => {
    const videoId = await video(server, alice, 1_000_000); // three segments
    const uid = uidOf(alice);
    const row = (time: number, text: string) => ({
      video_id: videoId,
      uid,
      time,
      text,
      color: 'ffffff',
      font_size: 'medium' as const,
      mode: 'rtl' as const,
    });
    await server.db
      .insertInto('danmaku')
      .values(Array.from({ length: 50 }, (_, i) => row(i, `第${i}条`)))
      .execute();
    const get = (headers: Record<string, string> = {}, query = '&segment=0') =>
      server.api(`video/danmaku?videoId=${videoId}${query}`, { headers });

    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=5');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const body = await first.json();
    expect(Object.keys(body)).toEqual(['success', 'danmaku', 'segment', 'segmentSeconds', 'segmentCount']);
    expect(body).toMatchObject({ success: true, segment: 0, segmentSeconds: 360, segmentCount: 3 });
    expect(body.danmaku.map((d: { time: number }) => d.time)).toEqual(Array.from({ length: 50 }, (_, i) => i));

    // Compressed for clients that take it (brotli first), plain for those that do not: the same answer.
    const plain = await get({ 'Accept-Encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(await plain.json()).toEqual(body);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ]) {
      const packed = await get({ 'Accept-Encoding': accept });
      expect([packed.headers.get('content-encoding'), packed.headers.get('etag')]).toEqual([encoding, etag]);
      expect(await packed.json()).toEqual(body); // fetch undoes the encoding it asked for
    }

    // Unchanged: the same tag, and nothing but a 304 for a client that has it.
    const again = await get({ 'If-None-Match': etag });
    expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', etag]);
    // Another segment changing leaves this one alone.
    await server.db.insertInto('danmaku').values(row(400, 'segment two')).execute();
    expect((await get()).headers.get('etag')).toBe(etag);

    // A danmaku sent now is in the very next answer, under a new tag.
    const erin = await member(server, 'Erin');
    expect(
      (await server.api('video/danmaku/emit', json({ videoId, time: 10.5, text: '刚发的', color: 'ffffff' }, erin)))
        .status,
    ).toBe(200);
    const afterEmit = await get({ 'If-None-Match': etag });
    expect(afterEmit.status).toBe(200);
    expect(afterEmit.headers.get('etag')).not.toBe(etag);
    const sent = (await afterEmit.json()).danmaku;
    expect(sent).toHaveLength(51);
    expect(sent[11]).toMatchObject({ time: 10.5, text: '刚发的' });

    // Rows deleted behind this process's back (another instance, an account going) show once
    // the answer is next checked against the database.
    await server.db.deleteFrom('danmaku').where('video_id', '=', videoId).where('time', '<', 5).execute();
    await new Promise((r) => setTimeout(r, LIST_REVALIDATE_MS + 50));
    expect((await (await get()).json()).danmaku).toHaveLength(46);
    // The whole pool and the other segments are answers of their own.
    expect((await (await get({}, '')).json()).danmaku).toHaveLength(47);
    expect((await (await get({}, '&segment=1')).json()).danmaku.map((d: { text: string }) => d.text)).toEqual([
      'segment two',
    ]);
  });
});

describe('comment sanitising', () => {
  it('keeps only formatting tags and no attributes', () => {
    expect(sanitizeComment('<p>Hi <a href="javascript:alert(1)">there</a></p>')).toBe('<p>Hi there</p>');
    expect(sanitizeComment('<s style="x">old</s><u>new</u><br><svg onload=alert(1)>')).toBe(
      '<s>old</s><u>new</u><br />',
    );
    expect(sanitizeComment('1 &lt; 2')).toBe('1 &lt; 2');
  });
});
