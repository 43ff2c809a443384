import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { hlsPath, queuePosterSetBackfill } from '../../server/media/pipeline.ts';
import { POSTER_FORMATS, POSTER_WIDTHS, posterFileName, posterSources } from '../../src/lib/catalogue/poster.ts';

useVideoFixtures();
const TRANSCODING_MS = 180_000;

const posterSetOf = async (db: TestServer['db'], mediaId: string) =>
  (await db.selectFrom('media').select('poster_set').where('media_id', '=', mediaId).executeTakeFirstOrThrow())
    .poster_set;

describe.each(BACKENDS)('poster sets on %s', (backend) => {
  let server: TestServer;
  let mediaDir = '';
  let cookie = '';
  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-posters-'));
    server = await startTestServer(backend, { env: { MEDIA_DIR: mediaDir } });
    cookie = await member(server, 'Painter');
  });
  afterAll(async () => {
    await server?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it(
    'the pipeline makes 320/640/960/1280 in AVIF, WebP and JPEG under hashed names, cached for a year',
    async () => {
      const mediaId = await upload(server, cookie, await makeVideo(1, 'poster.mp4', '1280x720'));
      await statusOf(server, cookie, mediaId);
      const token = await posterSetOf(server.db, mediaId);
      expect(token).toMatch(/^[0-9a-f]{12}$/);
      const dir = join(mediaDir, hlsPath(mediaId));
      const files = await readdir(dir);
      for (const width of POSTER_WIDTHS) {
        for (const format of POSTER_FORMATS) {
          const name = posterFileName(token!, width, format);
          expect(files, name).toContain(name);
          const info = await sharp(join(dir, name)).metadata();
          expect(info.width).toBe(width);
          expect(info.format).toBe(format === 'jpg' ? 'jpeg' : format === 'avif' ? 'heif' : 'webp');
        }
      }
      expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);
      // Only its uploader sees it before it is in a video; the name is immutable all the same.
      const response = await fetch(
        `${server.baseUrl}/media/${hlsPath(mediaId)}/${posterFileName(token!, 320, 'avif')}`,
        { headers: { Cookie: cookie } },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/avif');
      expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      // The cards' sources from the thumb's 640 px JPEG.
      const sources = posterSources(`/media/${hlsPath(mediaId)}/${posterFileName(token!, 640, 'jpg')}`)!;
      expect(sources.sets.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
      expect(sources.jpgSrcset).toContain(`${posterFileName(token!, 1280, 'jpg')} 1280w`);
      expect(posterSources(`/media/${hlsPath(mediaId)}/poster.jpg`)).toBeNull();
    },
    TRANSCODING_MS,
  );

  it(
    'a media from before poster sets gets its set from a job queued once at start',
    async () => {
      const mediaId = await upload(server, cookie, await makeVideo(1, 'older.mp4', '640x360'));
      await statusOf(server, cookie, mediaId);
      await server.db.updateTable('media').set({ poster_set: null }).where('media_id', '=', mediaId).execute();
      expect(await queuePosterSetBackfill(server.repositories.media)).toBe(1);
      expect(await queuePosterSetBackfill(server.repositories.media)).toBe(0); // never queued twice
      await expect
        .poll(() => posterSetOf(server.db, mediaId), { timeout: 30_000, interval: 200 })
        .toMatch(/^[0-9a-f]{12}$/);
      const token = (await posterSetOf(server.db, mediaId))!;
      expect((await sharp(join(mediaDir, hlsPath(mediaId), posterFileName(token, 320, 'webp'))).metadata()).width).toBe(
        320,
      );
      // A 360p source's poster is not enlarged: the wider sizes stay at its 640 px.
      expect((await sharp(join(mediaDir, hlsPath(mediaId), 'poster.jpg')).metadata()).width).toBe(640);
      expect(
        (await sharp(join(mediaDir, hlsPath(mediaId), posterFileName(token, 1280, 'avif'))).metadata()).width,
      ).toBe(640);
    },
    TRANSCODING_MS,
  );
});
