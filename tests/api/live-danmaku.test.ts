/**
 * GET video/danmaku/live: danmaku others send, pushed as Server-Sent Events while a video is open.
 * On each database: guests may read; each event is a danmaku exactly as the list gives it;
 * blocked people's danmaku never reach the one who blocked them; a viewer who reconnects with
 * Last-Event-ID gets what was sent meanwhile; heartbeats flow; a viewer who stops reading is
 * dropped (the server keeps no more than its budget for it) and resumes where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import { SseClient } from './sse-client.ts';
import { danmakuSchema, type Danmaku } from '../../src/lib/api/contracts/interaction.ts';

const HEARTBEAT_MS = 150;
// Room for a burst of the flood's long danmaku (events that arrive in one read of the bus).
const MAX_BUFFERED_BYTES = 256 * 1024;
const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('live danmaku on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let videoId = 0;
  const open: SseClient[] = [];
  const watch = async (video: number, options: { cookie?: string; lastEventId?: string } = {}) => {
    const client = await SseClient.open(`${server.baseUrl}/api/video/danmaku/live?videoId=${video}`, {
      headers: { 'X-Client-Language': 'en', ...(options.cookie ? { Cookie: options.cookie } : {}) },
      lastEventId: options.lastEventId,
    });
    open.push(client);
    return client;
  };
  const send = async (cookie: string, text: string, video = videoId, time = 3): Promise<Danmaku> => {
    const res = await server.api('video/danmaku/emit', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ videoId: video, time, text, color: 'ffffff' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()).danmaku;
  };
  const hasText = (text: string) => (client: SseClient) => client.data.some((d) => (d as Danmaku).text === text);

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS), LIVE_MAX_BUFFERED_BYTES: String(MAX_BUFFERED_BYTES) },
    });
    uploader = await member(server, 'LiveUploader');
    videoId = await insertVideo(server, uploader, 600_000);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await server?.close();
  });

  it('needs no login, and pushes each danmaku exactly as the list gives it (no sender), with the watching count', async () => {
    const guest = await watch(videoId);
    expect(guest.status).toBe(200);
    expect(guest.contentType).toMatch(/^text\/event-stream/);
    await guest.until((c) => c.watching === 1);
    const sender = await member(server, 'LiveSender');
    const sent = await send(sender, '大家好 live ✨');
    await guest.until(hasText('大家好 live ✨'));
    const pushed = guest.events.find((e) => e.event === 'message')!;
    expect(pushed.id).toBe(String(sent.id));
    expect(JSON.parse(pushed.data)).toEqual(sent);
    expect(Object.keys(JSON.parse(pushed.data)).sort()).toEqual(Object.keys(danmakuSchema.shape).sort());
    const listed = await (await server.api(`video/danmaku?videoId=${videoId}`)).json();
    expect(listed.danmaku.find((d: Danmaku) => d.id === sent.id)).toEqual(JSON.parse(pushed.data));
    // A second viewer: both hear the count go to two.
    const second = await watch(videoId);
    await Promise.all([guest.until((c) => c.watching === 2), second.until((c) => c.watching === 2)]);
    second.close();
    await guest.until((c) => c.watching === 1);
    guest.close();
  });

  it('refuses what it cannot serve with a clear error: unknown or hidden videos, a malformed Last-Event-ID', async () => {
    const unknown = await watch(999_999);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).code).toBe('NOT_FOUND');
    const pendingId = await insertVideo(server, uploader, 60_000, 'pending');
    expect((await watch(pendingId)).status).toBe(404);
    // Its uploader may watch it.
    const own = await watch(pendingId, { cookie: uploader });
    expect(own.status).toBe(200);
    own.close();
    // HEAD answers the headers without opening a stream (nobody is counted as watching).
    const head = await server.api(`video/danmaku/live?videoId=${videoId}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const counted = await watch(videoId);
    await counted.until((c) => c.watching !== null);
    expect(counted.watching).toBe(1);
    counted.close();
    const bad = await watch(videoId, { lastEventId: 'abc' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'Last-Event-ID' }] });
  });

  it('leaves out the danmaku of people the viewer blocked, live and on resume', async () => {
    const viewer = await member(server, 'LiveBlocker');
    const pest = await member(server, 'LivePest');
    const friend = await member(server, 'LiveFriend');
    const blocked = await server.api('block/user', {
      method: 'POST',
      headers: { Cookie: viewer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ blockUid: uidOf(pest) }),
    });
    expect(blocked.status, await blocked.clone().text()).toBe(200);
    const mine = await watch(videoId, { cookie: viewer });
    const guest = await watch(videoId);
    await send(pest, 'from the pest');
    await send(friend, 'from a friend');
    // Events arrive in the order sent: once the friend's is here, the pest's would have been too.
    await Promise.all([mine.until(hasText('from a friend')), guest.until(hasText('from a friend'))]);
    expect(hasText('from the pest')(mine)).toBe(false);
    expect(hasText('from the pest')(guest)).toBe(true);
    mine.close();
    guest.close();
    // A resume reads the database with the same rule.
    const resumed = await watch(videoId, { cookie: viewer, lastEventId: '1' });
    await resumed.until(hasText('from a friend'));
    expect(hasText('from the pest')(resumed)).toBe(false);
    resumed.close();
  });

  it('resumes with Last-Event-ID: what was sent while the viewer was away comes first, in order, then the live ones', async () => {
    const viewer = await watch(videoId);
    const senders = await Promise.all(['ResA', 'ResB', 'ResC', 'ResD'].map((name) => member(server, name)));
    const first = await send(senders[0], 'before the gap');
    await viewer.until(hasText('before the gap'));
    viewer.close();
    const missed = [await send(senders[1], 'missed one'), await send(senders[2], 'missed two')];
    const back = await watch(videoId, { lastEventId: viewer.lastEventId });
    expect(viewer.lastEventId).toBe(String(first.id));
    await back.until(hasText('missed two'));
    const after = await send(senders[3], 'after the gap');
    await back.until(hasText('after the gap'));
    // Each once (the player keeps ids once; the replay may repeat the last seconds' too), in order.
    const ids = [...new Set(back.data.map((d) => (d as Danmaku).id))];
    expect(ids.filter((id) => id > first.id)).toEqual([...missed.map((d) => d.id), after.id]);
    back.close();
  });

  it('sends heartbeat comments on a quiet stream', async () => {
    const viewer = await watch(videoId);
    const before = viewer.comments;
    await viewer.until((c) => c.comments >= before + 3);
    viewer.close();
  });

  it('drops a viewer who stops reading once its waiting bytes pass the budget, and lets it resume where it was', async () => {
    const slow = await watch(videoId);
    const steady = await watch(videoId);
    await steady.until((c) => c.watching === 2);
    slow.pause();
    // A flood until the server gives up on the slow viewer: danmaku stored as the service would,
    // each announced on the bus as a send is. Long texts: the connection's kernel buffers hold
    // megabytes before the server's own budget is touched.
    const sender = uidOf(await member(server, 'Flood'));
    const flood: Danmaku[] = [];
    while (steady.watching !== 1) {
      expect(flood.length, 'the slow viewer was never dropped').toBeLessThan(5000);
      const rows = await server.db
        .insertInto('danmaku')
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            video_id: videoId,
            uid: sender,
            time: 5,
            text: `flood ${flood.length + i} ${'洪'.repeat(2400)}`,
            color: 'ffffff',
            font_size: 'medium' as const,
            mode: 'rtl' as const,
            rainbow: false,
          })),
        )
        .returning(['id', 'time', 'text', 'color', 'font_size', 'mode', 'rainbow', 'created_at'])
        .execute();
      const batch = rows.map(
        (r): Danmaku => ({
          id: r.id,
          time: r.time,
          text: r.text,
          color: r.color,
          fontSize: r.font_size,
          mode: r.mode,
          enableRainbow: r.rainbow,
          editDateTime: new Date(r.created_at).getTime(),
        }),
      );
      await Promise.all(
        batch.map((danmaku) =>
          server.bus.publish(`live_danmaku.${videoId}`, JSON.stringify({ k: 'danmaku', from: sender, danmaku })),
        ),
      );
      flood.push(...batch);
      // The steady viewer reads all of it (and hears the count once the slow one is gone).
      await steady.until((c) => c.data.length === flood.length);
    }
    slow.resume();
    await slow.ended;
    expect(slow.data.length).toBeLessThan(flood.length);
    // Its EventSource would come back with the last id it read: the rest arrives from the database.
    const back = await watch(videoId, { lastEventId: slow.lastEventId || '0' });
    const expected = flood.map((d) => d.id).filter((id) => id > Number(slow.lastEventId || 0));
    await back.until((c) => c.lastEventId === String(expected.at(-1)));
    expect(back.data.map((d) => (d as Danmaku).id).filter((id) => id > Number(slow.lastEventId || 0))).toEqual(
      expected,
    );
    steady.close();
    back.close();
  });
});
