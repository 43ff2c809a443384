import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { hlsPath } from '../../server/media/pipeline.ts';

useVideoFixtures();
const json = (body: unknown, cookie: string, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', Cookie: cookie },
});

describe.each(BACKENDS)("who may fetch a video's media files on %s", (backend) => {
  let server: TestServer;
  let mediaDir = '';
  let uploadDir = '';
  let uploader = '';
  let stranger = '';
  let admin = '';
  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-access-media-'));
    uploadDir = await mkdtemp(join(tmpdir(), 'kiraboshi-access-uploads-'));
    server = await startTestServer(backend, { env: { MEDIA_DIR: mediaDir, UPLOAD_DIR: uploadDir } });
    uploader = await member(server, 'MediaOwner');
    stranger = await member(server, 'MediaGuesser');
    admin = await member(server, 'MediaReviewer', ['administrator']);
  });
  afterAll(async () => {
    await server?.close();
    for (const dir of [mediaDir, uploadDir]) await rm(dir, { recursive: true, force: true });
  });

  const get = (path: string, cookie?: string) =>
    fetch(`${server.baseUrl}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  /** The status each of anonymous, a stranger, the uploader and staff gets for `path`. */
  const statuses = async (path: string) => {
    const answers = await Promise.all([get(path), get(path, stranger), get(path, uploader), get(path, admin)]);
    return answers.map((r) => r.status);
  };

  it("serves an approved video's files to anyone, and none of them once the video is deleted", async () => {
    const mediaId = await upload(server, uploader, await makeVideo(2, 'deleted-later.mp4'));
    await statusOf(server, uploader, mediaId);
    const committed = await server.api(
      'video/upload',
      json(
        {
          title: '消える動画',
          description: '',
          videoPart: [{ mediaId, videoPartTitle: 'P1' }],
          videoCategory: 'anime',
          copyright: 'original',
          ensureOriginal: true,
        },
        uploader,
      ),
    );
    const { videoId } = (await committed.json()) as { videoId: number };
    expect((await server.api('video/pending/approved', json({ videoId }, admin))).status).toBe(200);

    const base = `/media/${hlsPath(mediaId)}`;
    const rung = await (await get(`${base}/240p/index.m3u8`)).text();
    const segment = rung.split('\n').find((line) => line.endsWith('.m4s'))!;
    const files = [
      `${base}/master.m3u8`,
      `${base}/240p/index.m3u8`,
      `${base}/240p/${segment}`,
      `${base}/poster.jpg`,
      `${base}/storyboard.jpg`,
      `/media/videos/${videoId}/master.m3u8`,
    ];
    for (const file of files) {
      const answer = await get(file);
      expect(answer.status, file).toBe(200);
      expect(answer.headers.get('cache-control'), file).not.toContain('private');
    }

    expect((await server.api('video/delete', json({ videoId }, uploader, 'DELETE'))).status).toBe(200);
    for (const file of files) {
      expect(await statuses(file), file).toEqual([404, 404, 404, 404]);
      expect((await get(file)).headers.get('cache-control'), file).toBe('no-store');
    }
    // However the path is spelled.
    expect((await get(`/media/images%2F..%2F${hlsPath(mediaId)}%2Fmaster.m3u8`)).status).toBe(404);
  });

  it('shows media not yet public to its uploader and staff only, never to a shared cache', async () => {
    const mediaId = await upload(server, uploader, await makeVideo(1, 'pending.mp4'));
    const status = await statusOf(server, uploader, mediaId);
    // Not in a video yet: the uploader's form shows the poster as the cover preview.
    for (const file of [status.posterUrl, status.manifestUrl])
      expect(await statuses(file), file).toEqual([404, 404, 200, 200]);
    expect((await get(status.posterUrl, uploader)).headers.get('cache-control')).toBe(
      'private, max-age=31536000, immutable',
    );
    expect((await get(status.manifestUrl, uploader)).headers.get('cache-control')).toBe('private, no-cache');
    expect((await get(`/media/images%2F..%2F${hlsPath(mediaId)}%2Fmaster.m3u8`)).status).toBe(404);
    expect((await get(`/media/images%2F..%2F${hlsPath(mediaId)}%2Fmaster.m3u8`, uploader)).status).toBe(200);

    // Pending review: the review queue's thumbnail and the pending video's page play it.
    const committed = await server.api(
      'video/upload',
      json(
        {
          title: '審査待ち',
          description: '',
          videoPart: [{ mediaId, videoPartTitle: 'P1' }],
          videoCategory: 'anime',
          copyright: 'original',
          ensureOriginal: true,
        },
        uploader,
      ),
    );
    const { videoId } = (await committed.json()) as { videoId: number };
    const queue = await (await server.api('video/pending', { headers: { Cookie: admin } })).json();
    const queued = queue.videos.find((v: { videoId: number }) => v.videoId === videoId);
    // The card shows a size of the poster set made from the same frame.
    expect(queued.image).toBe(status.posterUrl.replace(/poster\.jpg$/, queued.image.split('/').pop()));
    expect(queued.image).toMatch(/\/poster-[0-9a-f]{12}-640\.jpg$/);
    expect(await statuses(queued.image)).toEqual([404, 404, 200, 200]);
    expect(await statuses(queued.parts[0].link)).toEqual([404, 404, 200, 200]);
    expect(await statuses(`/media/videos/${videoId}/master.m3u8`)).toEqual([404, 404, 404, 404]);

    // Rejected in review (deleted by staff): gone for everyone.
    expect((await server.api('video/delete', json({ videoId }, admin, 'DELETE'))).status).toBe(200);
    expect(await statuses(status.manifestUrl)).toEqual([404, 404, 404, 404]);
  });

  it('keeps media the pipeline refused, and unknown media, from anyone but the uploader', async () => {
    const uid = Number(/uid=(\d+)/.exec(uploader)![1]);
    const uploadId = randomBytes(16).toString('hex');
    const mediaId = randomBytes(12).toString('hex');
    await server.db
      .insertInto('uploads')
      .values({
        id: uploadId,
        uid,
        file_name: 'r.mp4',
        size: 1,
        max_duration_seconds: 1800,
        expires_at: new Date(),
        media_id: mediaId,
      })
      .execute();
    await server.db
      .insertInto('media')
      .values({ media_id: mediaId, upload_id: uploadId, uid, status: 'failed', renditions: [] })
      .execute();
    await mkdir(join(mediaDir, hlsPath(mediaId)), { recursive: true });
    await writeFile(join(mediaDir, hlsPath(mediaId), 'poster.jpg'), 'left behind');
    expect(await statuses(`/media/${hlsPath(mediaId)}/poster.jpg`)).toEqual([404, 404, 200, 200]);

    // Files with no media record at all are nobody's.
    const stray = randomBytes(12).toString('hex');
    await mkdir(join(mediaDir, hlsPath(stray)), { recursive: true });
    await writeFile(join(mediaDir, hlsPath(stray), 'master.m3u8'), '#EXTM3U\n');
    expect(await statuses(`/media/${hlsPath(stray)}/master.m3u8`)).toEqual([404, 404, 404, 404]);
  });

  it('leaves avatars and covers public', async () => {
    await mkdir(join(mediaDir, 'images', 'avatars'), { recursive: true });
    await writeFile(join(mediaDir, 'images', 'avatars', '1-face.webp'), 'webp');
    const avatar = await get('/media/images/avatars/1-face.webp');
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('with a public base address for media (MEDIA_PUBLIC_BASE_URL)', () => {
  let server: TestServer;
  let mediaDir = '';
  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-public-media-'));
    server = await startTestServer('pglite', {
      env: { MEDIA_DIR: mediaDir, MEDIA_PUBLIC_BASE_URL: 'https://cdn.kiraboshi.test/media/' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('sends readers of public files there, and keeps everything else behind the access rules', async () => {
    await mkdir(join(mediaDir, 'images', 'avatars'), { recursive: true });
    await writeFile(join(mediaDir, 'images', 'avatars', '2-face.webp'), 'webp');
    const avatar = await fetch(`${server.baseUrl}/media/images/avatars/2-face.webp`, { redirect: 'manual' });
    expect(avatar.status).toBe(302);
    expect(avatar.headers.get('location')).toBe('https://cdn.kiraboshi.test/media/images/avatars/2-face.webp');
    expect(avatar.headers.get('cache-control')).toBe('public, max-age=300');
    // A media item nobody approved (here: one that does not exist) is neither redirected nor served.
    const hidden = await fetch(`${server.baseUrl}/media/${hlsPath(randomBytes(12).toString('hex'))}/master.m3u8`, {
      redirect: 'manual',
    });
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get('location')).toBe(null);
  });

  it('refuses to start with an address that is not one', async () => {
    await expect(
      startTestServer('pglite', { env: { MEDIA_PUBLIC_BASE_URL: 'cdn.kiraboshi.test/media' } }),
    ).rejects.toThrow(/MEDIA_PUBLIC_BASE_URL/);
  });
});
