/**
 * The audio section on real generated media: ffmpeg-made tones in the formats people upload,
 * through the shared tus endpoint, the audio pipeline (probe, AAC HLS and progressive stream,
 * waveform, EBU R128 loudness, embedded cover), the commit, review, lists, plays, and danmaku
 * and comments on a track; and each limit and refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import {
  insertAudio,
  makeAudio,
  makeVideo,
  member,
  statusOf,
  tusCreate,
  tusMetadata,
  uploadAudio,
  useVideoFixtures,
} from './media-helpers.ts';
import { MAX_AUDIO_DURATION_S } from '../../src/lib/api/contracts/audio.constants.ts';

const json = (body: unknown, cookie?: string, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
});
const commitBody = (mediaId: string, extra: Record<string, unknown> = {}) => ({
  mediaId,
  title: '夜のローファイ',
  artist: 'Lo-fi beats',
  description: 'a calm tone',
  copyright: 'original',
  ensureOriginal: true,
  ...extra,
});

useVideoFixtures();

describe.each(BACKENDS)('audio on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let admin = '';
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { AUDIO_UPLOAD_MAX_BYTES: String(4 * 1024 * 1024) } });
    alice = await member(server, 'Alice');
    bob = await member(server, 'Bob');
    admin = await member(server, 'Moderator', ['administrator']);
  });
  afterAll(() => server?.close());

  it('processes a FLAC with an embedded cover into AAC HLS and a stream, with ~1000 waveform peaks, loudness and the cover; private until approved', async () => {
    const mediaId = await uploadAudio(server, alice, await makeAudio(12, 'tone.flac', { cover: true }));
    const status = await statusOf(server, alice, mediaId);
    expect(status).toMatchObject({ status: 'ready', reason: null });
    expect(status.duration).toBeGreaterThan(11_900);
    expect(status.posterUrl).toMatch(/\/cover\.jpg$/);
    const media = await server.db
      .selectFrom('media')
      .selectAll()
      .where('media_id', '=', mediaId)
      .executeTakeFirstOrThrow();
    expect(media.kind).toBe('audio');
    expect(media.waveform!.length).toBe(1000);
    // A steady sine: every point near its amplitude (ffmpeg's sine is 1/8 of full scale).
    expect(Math.min(...media.waveform!.slice(5, -5))).toBeGreaterThan(0.1);
    expect(media.loudness_lufs!).toBeGreaterThan(-30);
    expect(media.loudness_lufs!).toBeLessThan(-10);
    expect(media.true_peak_db!).toBeLessThan(0);

    const commit = await server.api('audio/upload', json({ ...commitBody(mediaId), audioCategory: 'music' }, alice));
    expect(commit.status).toBe(200);
    const { audioId } = await commit.json();
    // Pending: not for guests or other members, nor in any list; its files neither.
    expect((await server.api(`audio?audioId=${audioId}`)).status).toBe(404);
    expect((await server.api(`audio?audioId=${audioId}`, { headers: { Cookie: bob } })).status).toBe(404);
    expect((await (await server.api('audio/home')).json()).tracks).toEqual([]);
    const own = await (await server.api(`audio?audioId=${audioId}`, { headers: { Cookie: alice } })).json();
    expect(own.audio).toMatchObject({
      status: 'pending',
      title: '夜のローファイ',
      artist: 'Lo-fi beats',
      cover: `/media/hls/${mediaId}/cover.jpg`,
    });
    expect(own.audio.waveform).toHaveLength(1000);
    expect(own.audio.loudness.integratedLufs).toBeCloseTo(media.loudness_lufs!, 5);
    expect((await fetch(`${server.baseUrl}${own.audio.streamUrl}`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}${own.audio.streamUrl}`, { headers: { Cookie: alice } })).status).toBe(200);
    expect(
      (await (await server.api('audio/pending', { headers: { Cookie: admin } })).json()).tracks.map(
        (t: { audioId: number }) => t.audioId,
      ),
    ).toEqual([audioId]);
    expect((await server.api('audio/pending/approved', json({ audioId }, bob))).status).toBe(403);

    expect((await server.api('audio/pending/approved', json({ audioId }, admin))).status).toBe(200);
    const master = await fetch(`${server.baseUrl}${own.audio.manifestUrl}`);
    expect(master.status).toBe(200);
    const playlist = await master.text();
    expect(playlist).toContain('64k/index.m3u8');
    expect(playlist).toContain('128k/index.m3u8');
    for (const rung of ['64k', '128k']) {
      const index = await (await fetch(`${server.baseUrl}/media/hls/${mediaId}/${rung}/index.m3u8`)).text();
      expect(index).toContain('#EXT-X-ENDLIST');
      expect(index).toMatch(/seg_0000\.m4s/);
    }
    const stream = await fetch(`${server.baseUrl}${own.audio.streamUrl}`);
    expect(stream.status).toBe(200);
    expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const home = await (await server.api('audio/home')).json();
    expect(home.tracks).toMatchObject([{ audioId, title: '夜のローファイ', duration: status.duration, playCount: 0 }]);
    expect(
      (await (await server.api(`audio/search?keyword=${encodeURIComponent('lo-fi')}`)).json()).tracks.map(
        (t: { audioId: number }) => t.audioId,
      ),
    ).toEqual([audioId]);

    // Plays: once per listener per hour.
    expect(await (await server.api('audio/play', json({ audioId }, bob))).json()).toMatchObject({
      counted: true,
      playCount: 1,
    });
    expect(await (await server.api('audio/play', json({ audioId }, bob))).json()).toMatchObject({
      counted: false,
      playCount: 1,
    });

    // Danmaku at their moments, within the track; comments with floors; history.
    const sent = await server.api(
      'video/danmaku/emit',
      json({ videoId: audioId, mediaType: 'audio', time: 6.5, text: 'サビ！', color: 'ffffff' }, bob),
    );
    expect(sent.status).toBe(200);
    const late = await server.api(
      'video/danmaku/emit',
      json({ videoId: audioId, mediaType: 'audio', time: 30, text: 'after', color: 'ffffff' }, alice),
    );
    expect(late.status).toBe(400);
    const pool = await (await server.api(`video/danmaku?videoId=${audioId}&mediaType=audio`)).json();
    expect(pool.danmaku.map((d: { time: number; text: string }) => [d.time, d.text])).toEqual([[6.5, 'サビ！']]);
    expect(
      (
        await server.api(
          'video/comment/emit',
          json({ videoId: audioId, mediaType: 'audio', text: '<b>good</b> track' }, bob),
        )
      ).status,
    ).toBe(200);
    const comments = await (await server.api(`video/comment?videoId=${audioId}&mediaType=audio`)).json();
    expect(comments.videoCommentList).toMatchObject([{ commentRoute: `${audioId}.1`, text: '<b>good</b> track' }]);
    expect(
      await (await server.api('history/record', json({ videoId: audioId, mediaType: 'audio', anchor: 4 }, bob))).json(),
    ).toMatchObject({ recorded: true });
    expect(
      (
        await (
          await server.api(`history/anchor?videoId=${audioId}&mediaType=audio`, { headers: { Cookie: bob } })
        ).json()
      ).anchor,
    ).toBe(4);
    // The history page lists the track with its place, cover and duration (and finds it by title).
    const history = async (query = '') =>
      (await (await server.api(`history/filter${query}`, { headers: { Cookie: bob } })).json()).result;
    expect(await history()).toMatchObject([
      {
        category: 'audio',
        id: audioId,
        anchor: 4,
        title: '夜のローファイ',
        image: own.audio.cover,
        duration: own.audio.duration,
      },
    ]);
    expect(await history(`?videoTitle=${encodeURIComponent('ローファイ')}`)).toMatchObject([
      { category: 'audio', id: audioId },
    ]);
    expect(await history('?videoTitle=nothing')).toEqual([]);

    // Deleted: gone for everyone, its files too; only its uploader or staff may.
    expect((await server.api('audio/delete', json({ audioId }, bob, 'DELETE'))).status).toBe(403);
    expect((await server.api('audio/delete', json({ audioId }, alice, 'DELETE'))).status).toBe(200);
    expect((await server.api(`audio?audioId=${audioId}`, { headers: { Cookie: alice } })).status).toBe(404);
    expect(await history()).toEqual([]);
    expect((await fetch(`${server.baseUrl}${own.audio.streamUrl}`, { headers: { Cookie: alice } })).status).toBe(404);
  });

  it('takes mp3 (with its ID3 cover), m4a, wav, ogg and opus', async () => {
    for (const name of ['song.mp3', 'song.m4a', 'song.wav', 'song.ogg', 'song.opus']) {
      const mediaId = await uploadAudio(server, bob, await makeAudio(3, name, { cover: name === 'song.mp3' }), name);
      const status = await statusOf(server, bob, mediaId);
      expect([name, status.status]).toEqual([name, 'ready']);
      expect([name, status.posterUrl !== null]).toEqual([name, name === 'song.mp3']);
    }
  });

  it('refuses what is not audio (a video, random bytes) with the reason, and the commit of such a file', async () => {
    const video = await uploadAudio(server, alice, await makeVideo(2, 'film.mp4'), 'film.mp4');
    expect(await statusOf(server, alice, video)).toMatchObject({ status: 'rejected', reason: 'NOT_AUDIO' });
    const noise = await uploadAudio(
      server,
      alice,
      new Uint8Array(20_000).map((_, i) => (i * 7919) % 251),
      'noise.mp3',
    );
    expect(await statusOf(server, alice, noise)).toMatchObject({ status: 'rejected', reason: 'NOT_AUDIO' });
    const refused = await server.api('audio/upload', json(commitBody(video), alice));
    expect([refused.status, (await refused.json()).code]).toEqual([422, 'MEDIA_REJECTED']);
    // A track is not a video part, nor a video a track.
    const track = await uploadAudio(server, alice, await makeAudio(2, 'short.flac'));
    await statusOf(server, alice, track);
    const asVideo = await server.api(
      'video/upload',
      json(
        {
          title: 't',
          videoPart: [{ mediaId: track }],
          videoCategory: 'music',
          copyright: 'original',
          ensureOriginal: true,
        },
        alice,
      ),
    );
    expect([asVideo.status, (await asVideo.json()).code]).toEqual([400, 'VALIDATION_FAILED']);
    // Someone else's file is not theirs to commit.
    expect((await server.api('audio/upload', json(commitBody(track), bob))).status).toBe(403);
  });

  it('refuses a track longer than its limit (at most two hours), and a file over the configured size', async () => {
    const long = await uploadAudio(server, alice, await makeAudio(8, 'long.flac'), 'long.flac', 5);
    expect(await statusOf(server, alice, long)).toMatchObject({ status: 'rejected', reason: 'TOO_LONG' });
    const overTwoHours = await tusCreate(
      server,
      alice,
      1000,
      tusMetadata({ name: 'a.flac', kind: 'audio', maxDurationSeconds: String(MAX_AUDIO_DURATION_S + 1) }),
    );
    expect([overTwoHours.status, (await overTwoHours.json()).code]).toEqual([400, 'VALIDATION_FAILED']);
    // AUDIO_UPLOAD_MAX_BYTES is 4 MiB on this server; videos keep their own limit.
    const tooBig = await tusCreate(server, alice, 4 * 1024 * 1024 + 1, tusMetadata({ name: 'a.wav', kind: 'audio' }));
    expect([tooBig.status, (await tooBig.json()).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect((await tusCreate(server, alice, 4 * 1024 * 1024 + 1)).status).toBe(201);
  });

  it('lists an uploader’s tracks (their own pending ones marked), queues the next, and sorts /audio by plays', async () => {
    const ids: number[] = [];
    for (const n of [1, 2, 3]) {
      const mediaId = await uploadAudio(server, bob, await makeAudio(2, `q${n}.flac`));
      await statusOf(server, bob, mediaId);
      const { audioId } = await (
        await server.api('audio/upload', json(commitBody(mediaId, { title: `Track ${n}` }), bob))
      ).json();
      ids.push(audioId);
    }
    for (const audioId of ids.slice(0, 2)) await server.api('audio/pending/approved', json({ audioId }, admin));
    const mine = await (
      await server.api(`audio/user?uid=${/uid=(\d+)/.exec(bob)![1]}`, { headers: { Cookie: bob } })
    ).json();
    expect(mine.tracks.map((t: { audioId: number; status: string }) => [t.audioId, t.status])).toEqual([
      [ids[2], 'pending'],
      [ids[1], 'approved'],
      [ids[0], 'approved'],
    ]);
    const theirs = await (await server.api(`audio/user?uid=${/uid=(\d+)/.exec(bob)![1]}`)).json();
    expect(theirs.tracks.map((t: { audioId: number }) => t.audioId)).toEqual([ids[1], ids[0]]);
    const first = await (await server.api(`audio?audioId=${ids[0]}`)).json();
    expect(first.audio.queue.map((t: { audioId: number }) => t.audioId)).toEqual([ids[1]]);
    await server.api('audio/play', json({ audioId: ids[0] }, alice));
    // The play reaches the track's count within a write window (decision 0023): written now.
    await server.services.audio.flushPlays();
    const popular = await (await server.api('audio/home?sort=popular')).json();
    expect(popular.tracks[0].audioId).toBe(ids[0]);
    // Pending tracks take no danmaku from others.
    expect(
      (
        await server.api(
          'video/danmaku/emit',
          json({ videoId: ids[2], mediaType: 'audio', time: 1, text: 'x', color: 'ffffff' }, alice),
        )
      ).status,
    ).toBe(404);
  });

  it('“my tracks”: the uploader lists their own tracks with state, and only they or staff edit one (approved and changed: back to review)', async () => {
    const [owner, other, moderator] = await Promise.all([
      member(server, 'Composer'),
      member(server, 'Meddler'),
      member(server, 'Editor', ['administrator']),
    ]);
    const approved = await insertAudio(server, owner, 30_000);
    const pending = await insertAudio(server, owner, 20_000, 'pending');
    await insertAudio(server, other, 10_000);
    const mine = async (cookie: string) => (await server.api('audio/mine', { headers: { Cookie: cookie } })).json();
    expect((await server.api('audio/mine')).status).toBe(401);
    const listed = await mine(owner);
    expect(listed.count).toBe(2);
    expect(listed.tracks.map((t: { audioId: number; status: string }) => [t.audioId, t.status])).toEqual([
      [pending, 'pending'],
      [approved, 'approved'],
    ]);
    expect(listed.tracks[0]).toMatchObject({ description: '', tags: [], image: null });

    const update = (body: Record<string, unknown>, cookie?: string) => server.api('audio/update', json(body, cookie));
    // Someone else: refused; a guest must log in; an unknown track is not found; bad input says which field.
    const refused = await update({ audioId: approved, title: 'Mine now' }, other);
    expect([refused.status, (await refused.json()).code]).toEqual([403, 'FORBIDDEN']);
    expect((await update({ audioId: approved, title: 'x' })).status).toBe(401);
    expect((await update({ audioId: 999_999, title: 'x' }, owner)).status).toBe(404);
    const invalid = await update({ audioId: approved, title: '', audioCategory: 'jazz' }, owner);
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).code).toBe('VALIDATION_FAILED');
    expect((await update({ audioId: approved, audioTagList: [987_654] }, owner)).status).toBe(400);

    // The category alone: still public. The title: back to review, and out of the public lists.
    expect(await (await update({ audioId: approved, audioCategory: 'game' }, owner)).json()).toEqual({
      success: true,
      status: 'approved',
      backToReview: false,
    });
    const retitled = await update(
      { audioId: approved, title: 'Rain on the window', artist: 'Composer', description: 'piano and rain' },
      owner,
    );
    expect(await retitled.json()).toEqual({ success: true, status: 'pending', backToReview: true });
    const after = (await mine(owner)).tracks.find((t: { audioId: number }) => t.audioId === approved);
    expect(after).toMatchObject({
      title: 'Rain on the window',
      artist: 'Composer',
      description: 'piano and rain',
      category: 'game',
      status: 'pending',
    });
    const home = await (await server.api('audio/home?pageSize=50')).json();
    expect(home.tracks.map((t: { audioId: number }) => t.audioId)).not.toContain(approved);
    const found = await (
      await server.api(`audio/search?keyword=${encodeURIComponent('window')}`, { headers: { Cookie: owner } })
    ).json();
    expect(found.tracks).toEqual([]); // pending: not searchable until approved again

    // Staff may edit anyone's track; a pending one stays pending.
    expect(await (await update({ audioId: pending, title: 'Tidied by staff' }, moderator)).json()).toEqual({
      success: true,
      status: 'pending',
      backToReview: false,
    });
    // Deleted: no longer editable.
    expect((await server.api('audio/delete', json({ audioId: pending }, owner, 'DELETE'))).status).toBe(200);
    expect((await update({ audioId: pending, title: 'Back' }, owner)).status).toBe(404);
    expect((await mine(owner)).count).toBe(1);
  });
});
