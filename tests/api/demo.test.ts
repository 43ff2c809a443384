import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { startTestServer, type TestServer } from './harness.ts';

/** The site is served (its home page's rows checked) when it was built. */
const built = existsSync('dist/server/entry.mjs');

describe('the demo catalogue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { site: built, env: { DEMO: '1' } });
  }, 120_000);
  afterAll(() => server?.close());

  it('fills a brand-new site with uploaders, tagged videos and real transcodes', async () => {
    let home: {
      videosCount: number;
      videos: Array<{ videoId: number; title: string; image: string; duration: number }>;
    } = { videosCount: 0, videos: [] };
    await expect
      .poll(
        async () => {
          home = await (await server.api('video/home')).json();
          return home.videosCount;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(6);
    expect(home.videos.every((v) => Math.abs(v.duration - 12_000) < 200)).toBe(true);
    // Found by keyword in three languages, through tag names too.
    const search = async (keyword: string) =>
      (await (await server.api(`video/search?keyword=${encodeURIComponent(keyword)}`)).json()).videosCount;
    expect(await search('吉他')).toBe(1);
    expect(await search('ドット絵')).toBe(2);
    expect(await search('tutorial')).toBe(2);
    // The first viewers already left danmaku in every mode and some comments.
    const danmaku = (await (await server.api(`video/danmaku?videoId=${home.videos[0].videoId}`)).json())
      .danmaku as Array<{ mode: string; time: number }>;
    expect(new Set(danmaku.map((d) => d.mode))).toEqual(new Set(['rtl', 'ltr', 'top', 'bottom']));
    expect(danmaku.every((d, i) => i === 0 || danmaku[i - 1].time <= d.time)).toBe(true);
    const comments = await (
      await server.api(`video/comment?videoId=${home.videos[0].videoId}&page=1&pageSize=10`)
    ).json();
    expect(comments.videoCommentCount).toBe(3);
    // The real pipeline publishes each video's HLS ladder and poster.
    const first = home.videos.at(-1)!;
    await expect
      .poll(async () => (await fetch(`${server.baseUrl}/media/videos/${first.videoId}/master.m3u8`)).status, {
        timeout: 120_000,
        interval: 1000,
      })
      .toBe(200);
  }, 200_000);

  it('has audio tracks and photo posts too, through the real audio and photo pipelines, public for the home page’s rows', async () => {
    const tracks = async () =>
      (await (await server.api('audio/home')).json()) as {
        count: number;
        tracks: Array<{ audioId: number; duration: number; artist: string }>;
      };
    await expect.poll(async () => (await tracks()).count, { timeout: 60_000, interval: 500 }).toBe(3);
    expect((await tracks()).tracks.every((t) => Math.abs(t.duration - 20_000) < 200 && t.artist)).toBe(true);
    const [first] = (await tracks()).tracks;
    await expect
      .poll(async () => (await (await server.api(`audio?audioId=${first.audioId}`)).json()).audio.waveform.length, {
        timeout: 120_000,
        interval: 1000,
      })
      .toBe(1000);
    let photos: {
      photosCount: number;
      photos: Array<{ photoId: number; imageCount: number; cover: { widths: number[]; alt: string } | null }>;
    } = { photosCount: 0, photos: [] };
    await expect
      .poll(
        async () => {
          photos = await (await server.api('photo/home')).json();
          return photos.photosCount;
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBe(3);
    expect(photos.photos.map((p) => p.imageCount).sort()).toEqual([1, 2, 3]);
    expect(photos.photos.every((p) => p.cover && p.cover.widths.length > 0 && p.cover.alt)).toBe(true);
    // The home page shows both rows.
    if (built) {
      const home = await (await fetch(`${server.baseUrl}/en/`)).text();
      expect(home).toContain('data-list="home-audio"');
      expect(home).toContain('data-list="home-photos"');
    }
  }, 200_000);

  it('is created only once: a site that has users gets nothing', async () => {
    const { seedDemoCatalogue } = await import('../../server/demo/seed.ts');
    const { createLogger } = await import('../../server/logger.ts');
    // A site that has users never reaches the upload store.
    expect(
      await seedDemoCatalogue({
        db: server.db,
        repositories: server.repositories,
        uploads: undefined as never,
        logger: createLogger('error'),
        onQueued: () => {},
      }),
    ).toBe(false);
  });

  it('puts no demo uploader in the profile review queue', async () => {
    const rows = await server.db
      .selectFrom('users')
      .select('is_updated_after_review')
      .where('email', 'like', '%@demo.kiraboshi.localhost')
      .execute();
    expect(rows.length).toBe(3);
    expect(rows.every((r) => !r.is_updated_after_review)).toBe(true);
  });
});
