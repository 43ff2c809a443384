/**
 * Videos of several parts: a commit keeps the parts in the order sent, each with its title and
 * its own media; the video answer lists them with links that play; danmaku sent on a later part
 * lands on the video's timeline (the sum of the parts), as the player sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';

useVideoFixtures();
const json = (body: unknown, cookie?: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
});

describe.each(BACKENDS)('videos of several parts on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let admin = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'PartsUploader');
    admin = await member(server, 'PartsReviewer', ['administrator']);
  });
  afterAll(() => server?.close());

  it('stores two parts in the order sent with their titles, and serves each part’s own media', async () => {
    const first = await upload(server, uploader, await makeVideo(2, 'part-a.mp4', '320x240'));
    const second = await upload(server, uploader, await makeVideo(3, 'part-b.mp4', '256x144'));
    for (const id of [first, second])
      await statusOf(server, uploader, id, ['probed', 'transcoding', 'playable', 'ready']);
    const res = await server.api(
      'video/upload',
      json(
        {
          title: '两集',
          videoPart: [
            { mediaId: second, videoPartTitle: '上集' },
            { mediaId: first, videoPartTitle: '下集' },
          ],
          videoCategory: 'anime',
          copyright: 'original',
          ensureOriginal: true,
        },
        uploader,
      ),
    );
    expect(res.status).toBe(200);
    const videoId = (await res.json()).videoId as number;
    const rows = await server.db
      .selectFrom('video_parts')
      .select(['part_index', 'title', 'media_id'])
      .where('video_id', '=', videoId)
      .orderBy('part_index')
      .execute();
    expect(rows).toEqual([
      { part_index: 0, title: '上集', media_id: second },
      { part_index: 1, title: '下集', media_id: first },
    ]);

    expect((await server.api('video/pending/approved', json({ videoId }, admin))).status).toBe(200);
    for (const id of [first, second]) await statusOf(server, uploader, id);
    const { video } = await (await server.api(`video?videoId=${videoId}`)).json();
    expect(video.videoPart).toMatchObject([
      { id: 1, videoPartTitle: '上集', link: `/media/hls/${second}/master.m3u8`, processing: 'ready' },
      { id: 2, videoPartTitle: '下集', link: `/media/hls/${first}/master.m3u8`, processing: 'ready' },
    ]);
    // The video lasts as long as its parts together.
    expect(Math.abs(video.duration - video.videoPart[0].duration - video.videoPart[1].duration)).toBeLessThan(5);
    for (const part of video.videoPart) {
      const master = await fetch(`${server.baseUrl}${part.link}`);
      expect(master.status).toBe(200);
      const playlist = await master.text();
      const rung = /^(\S+\.m3u8)$/m.exec(playlist)![1];
      const media = await fetch(new URL(rung, `${server.baseUrl}${part.link}`));
      expect(media.status).toBe(200);
      expect(await media.text()).toContain('#EXTINF');
    }

    // A danmaku at 1 s into P2 is stored at P1's length + 1 s (the player's timeline) and listed there.
    const atP2 = video.videoPart[0].duration / 1000 + 1;
    const sent = await server.api(
      'video/danmaku/emit',
      json({ videoId, time: atP2, text: '第二集好看', color: 'ffffff' }, uploader),
    );
    expect(sent.status).toBe(200);
    const listed = await (await server.api(`video/danmaku?videoId=${videoId}`)).json();
    expect(listed.danmaku).toEqual([expect.objectContaining({ text: '第二集好看', time: atP2 })]);
  });
});
