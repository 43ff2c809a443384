import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

describe('the demo catalogue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { DEMO: '1' } });
  }, 120_000);
  afterAll(() => server?.close());

  it('fills a brand-new site with uploaders, tagged videos and real transcodes', async () => {
    let home: { videosCount: number; videos: Array<{ videoId: number; title: string; image: string; duration: number }> } = { videosCount: 0, videos: [] };
    await expect.poll(async () => {
      home = await (await server.api('video/home')).json();
      return home.videosCount;
    }, { timeout: 60_000, interval: 500 }).toBe(6);
    expect(home.videos.every((v) => Math.abs(v.duration - 12_000) < 200)).toBe(true);
    // Found by keyword in three languages, through tag names too.
    const search = async (keyword: string) => (await (await server.api(`video/search?keyword=${encodeURIComponent(keyword)}`)).json()).videosCount;
    expect(await search('吉他')).toBe(1);
    expect(await search('ドット絵')).toBe(2);
    expect(await search('tutorial')).toBe(2);
    // The first viewers already left danmaku in every mode and some comments.
    const danmaku = (await (await server.api(`video/danmaku?videoId=${home.videos[0].videoId}`)).json()).danmaku as Array<{ mode: string; time: number }>;
    expect(new Set(danmaku.map((d) => d.mode))).toEqual(new Set(['rtl', 'ltr', 'top', 'bottom']));
    expect(danmaku.every((d, i) => i === 0 || danmaku[i - 1].time <= d.time)).toBe(true);
    const comments = await (await server.api(`video/comment?videoId=${home.videos[0].videoId}&page=1&pageSize=10`)).json();
    expect(comments.videoCommentCount).toBe(3);
    // The real pipeline publishes each video's HLS ladder and poster.
    const first = home.videos.at(-1)!;
    await expect.poll(async () => (await fetch(`${server.baseUrl}/media/videos/${first.videoId}/master.m3u8`)).status, { timeout: 120_000, interval: 1000 }).toBe(200);
  }, 200_000);

  it('is created only once: a site that has users gets nothing', async () => {
    const { seedDemoCatalogue } = await import('../../server/demo/seed.ts');
    const { createLogger } = await import('../../server/logger.ts');
    // A site that has users never reaches the upload store.
    expect(await seedDemoCatalogue({ db: server.db, uploads: undefined as never, logger: createLogger('error'), onQueued: () => {} })).toBe(false);
  });
});
