/**
 * Sharing outside the site (issue 28): oEmbed (JSON only, this site's video and track addresses
 * only), the video feeds read by a real feed parser, and the embed pages' answers and framing
 * rule; on both databases, with the built site (npm run build first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '@rowanmanning/feed-parser';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertVideo, member } from './media-helpers.ts';

describe.each(BACKENDS)('share, embeds and feeds on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let uploaderUid = 0;
  let approved = 0;
  let pending = 0;
  let track = 0;
  let tagId = 0;
  const oembed = async (query: string) => {
    const res = await server.api(`oembed?${query}`, { headers: { 'X-Client-Language': 'en' } });
    return { status: res.status, body: await res.json() };
  };
  const page = (path: string) =>
    fetch(`${server.baseUrl}${path}`, { headers: { 'Accept-Language': 'en' }, redirect: 'manual' });

  beforeAll(async () => {
    server = await startTestServer(backend, { site: true });
    uploader = await member(server, `Sharer${backend}`);
    uploaderUid = Number(/uid=(\d+)/.exec(uploader)![1]);
    approved = await insertVideo(server, uploader, 83_000);
    pending = await insertVideo(server, uploader, 10_000, 'pending');
    track = await insertAudio(server, uploader, 60_000);
    const tag = await server.api('video/tag/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: uploader },
      body: JSON.stringify({ tagNameList: [{ lang: 'en', tagName: [{ name: 'Share test' }] }] }),
    });
    ({ tagId } = await tag.json());
    await server.db.insertInto('video_tags').values({ video_id: approved, tag_id: tagId, position: 0 }).execute();
    await server.db
      .updateTable('videos')
      .set({ cover: '/media/images/share-cover.jpg' })
      .where('video_id', '=', approved)
      .execute();
  }, 120_000);
  afterAll(() => server?.close());

  it('answers oEmbed 1.0 for a video page in any language and for a track, the iframe sized within maxwidth and maxheight', async () => {
    const video = await oembed(`url=${encodeURIComponent(`${server.baseUrl}/en/video/kv${approved}`)}&format=json`);
    expect(video.status).toBe(200);
    expect(video.body).toMatchObject({
      version: '1.0',
      type: 'video',
      width: 640,
      height: 360,
      provider_name: 'Kiraboshi',
      author_url: `${server.baseUrl}/en/user/${uploaderUid}`,
    });
    expect(video.body.html).toContain(`src="${server.baseUrl}/embed/kv${approved}"`);
    expect(video.body.html).toMatch(/^<iframe [^>]*><\/iframe>$/);
    const small = await oembed(
      `url=${encodeURIComponent(`${server.baseUrl}/video/kv${approved}`)}&maxwidth=320&maxheight=400`,
    );
    expect(small.body).toMatchObject({ width: 320, height: 180 });
    expect(small.body.html).toContain('width="320" height="180"');
    const audio = await oembed(`url=${encodeURIComponent(`${server.baseUrl}/ja/audio/ka${track}`)}`);
    expect(audio.status).toBe(200);
    expect(audio.body).toMatchObject({ type: 'rich', width: 640, height: 160 });
    expect(audio.body.html).toContain(`/embed/ka${track}`);
    // The embed address names the same video.
    expect((await oembed(`url=${encodeURIComponent(`${server.baseUrl}/embed/kv${approved}`)}`)).status).toBe(200);
  });

  it('refuses foreign, bad and unknown addresses with the error shape, and other formats with 501', async () => {
    const cases: Array<[string, number, string]> = [
      [`url=${encodeURIComponent(`https://evil.example/video/kv${approved}`)}`, 400, 'VALIDATION_FAILED'],
      [
        `url=${encodeURIComponent(`${server.baseUrl.replace('127.0.0.1', 'localhost')}/video/kv${approved}`)}`,
        400,
        'VALIDATION_FAILED',
      ],
      ['url=not%20an%20address', 400, 'VALIDATION_FAILED'],
      [`url=${encodeURIComponent('javascript:alert(1)')}`, 400, 'VALIDATION_FAILED'],
      [`url=${encodeURIComponent(`${server.baseUrl}/search?keyword=x`)}`, 400, 'VALIDATION_FAILED'],
      ['', 400, 'VALIDATION_FAILED'],
      [`url=${encodeURIComponent(`${server.baseUrl}/video/kv${approved}`)}&maxwidth=abc`, 400, 'VALIDATION_FAILED'],
      [`url=${encodeURIComponent(`${server.baseUrl}/video/kv999999`)}`, 404, 'NOT_FOUND'],
      // Pending: not public, so not there for an embed.
      [`url=${encodeURIComponent(`${server.baseUrl}/video/kv${pending}`)}`, 404, 'NOT_FOUND'],
      [
        `url=${encodeURIComponent(`${server.baseUrl}/video/kv${approved}`)}&format=xml`,
        501,
        'OEMBED_FORMAT_UNSUPPORTED',
      ],
      [`url=${encodeURIComponent(`${server.baseUrl}/video/kv${approved}`)}&format=yaml`, 400, 'VALIDATION_FAILED'],
    ];
    for (const [query, status, code] of cases) {
      const answer = await oembed(query);
      expect(answer.status, query).toBe(status);
      expect(answer.body, query).toMatchObject({ success: false, code });
      expect(typeof answer.body.message, query).toBe('string');
    }
    expect(
      (await oembed(`url=${encodeURIComponent(`${server.baseUrl}/video/kv${approved}`)}&format=xml`)).body.message,
    ).toMatch(/JSON/);
  });

  it('serves the embed framable by any site, a missing one as a small 404, and keeps every other page unframable', async () => {
    const embed = await page(`/embed/kv${approved}?t=12&danmaku=0`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy')).toMatch(/frame-ancestors \*(;|$)/);
    expect(embed.headers.get('x-frame-options')).toBeNull();
    const html = await embed.text();
    expect(html).toContain('data-start="12"');
    expect(html).toContain('data-danmaku="0"');
    expect(html).toContain(`/en/video/kv${approved}`);
    for (const missing of [`/embed/kv${pending}`, '/embed/kv999999', `/embed/ka999999`]) {
      const answer = await page(missing);
      expect(answer.status, missing).toBe(404);
      expect(await answer.text(), missing).toContain('data-embed-missing');
    }
    expect((await page(`/embed/ka${track}`)).status).toBe(200);
    for (const other of [`/en/video/kv${approved}`, '/', '/embed/kv1/x']) {
      const answer = await page(other);
      expect(answer.headers.get('content-security-policy'), other).toContain("frame-ancestors 'self'");
      expect(answer.headers.get('x-frame-options'), other).toBe('SAMEORIGIN');
    }
  });

  it('writes the site, uploader and tag feeds as RSS 2.0 with Media RSS that a feed parser reads', async () => {
    for (const [path, expectIds] of [
      ['/feeds/videos.xml?lang=en', [approved]],
      [`/feeds/videos.xml?uid=${uploaderUid}&lang=en`, [approved]],
      [`/feeds/videos.xml?tag=${tagId}&lang=en`, [approved]],
    ] as const) {
      const answer = await page(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      expect(answer.headers.get('cache-control')).toContain('s-maxage=60');
      const xml = await answer.text();
      const feed = parseFeed(xml);
      expect(feed.meta.type).toBe('rss');
      expect(feed.language).toBe('en-US');
      expect(feed.items.map((item) => item.url)).toEqual(expectIds.map((id) => `${server.baseUrl}/en/video/kv${id}`));
      const [item] = feed.items;
      // The enclosure is the cover; media:content the stream, with the cover as its thumbnail.
      const cover = `${server.baseUrl}/media/images/share-cover.jpg`;
      expect(item!.mediaImages).toEqual([expect.objectContaining({ url: cover, mimeType: 'image/jpeg' })]);
      expect(item!.mediaVideos).toEqual([
        expect.objectContaining({
          url: `${server.baseUrl}/media/videos/${approved}/master.m3u8`,
          mimeType: 'application/vnd.apple.mpegurl',
          image: cover,
        }),
      ]);
      expect(item!.published).toBeInstanceOf(Date);
    }
    expect(parseFeed(await (await page(`/feeds/videos.xml?uid=${uploaderUid}&lang=en`)).text()).title).toContain(
      'Sharer',
    );
    for (const [path, status] of [
      ['/feeds/videos.xml?uid=999999', 404],
      ['/feeds/videos.xml?tag=999999', 404],
      ['/feeds/videos.xml?uid=abc', 400],
      [`/feeds/videos.xml?uid=1&tag=${tagId}`, 400],
    ] as const) {
      expect((await page(path)).status, path).toBe(status);
    }
  });

  it('links the feed from the user and tag pages and oEmbed from the video page', async () => {
    const user = await (await page(`/en/user/${uploaderUid}`)).text();
    expect(user).toContain(`type="application/rss+xml" href="/feeds/videos.xml?uid=${uploaderUid}&amp;lang=en"`);
    expect(user).toContain('data-feed-link');
    const tag = await (await page(`/en/search?tag=${tagId}`)).text();
    expect(tag).toContain(`href="/feeds/videos.xml?tag=${tagId}&amp;lang=en"`);
    const video = await (await page(`/en/video/kv${approved}`)).text();
    expect(video).toContain('type="application/json+oembed"');
    expect(video).toContain(`<meta property="og:video" content="${server.baseUrl}/embed/kv${approved}"`);
  });
});
