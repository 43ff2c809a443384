import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql, type SqlBool } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { FRAME_RATE_JOB, hlsPath, queueFrameRateBackfill } from '../../server/media/pipeline.ts';

useVideoFixtures();
/** A real transcode on a shared machine takes a while (statusOf alone waits up to a minute). */
const TRANSCODING_MS = 180_000;

/**
 * Turns a freshly transcoded media into one from before migration 0013: no frame rate in the
 * database and a master playlist without FRAME-RATE. Answers the master as the pipeline wrote it.
 */
async function makeItOld(db: TestServer['db'], mediaDir: string, mediaId: string): Promise<string> {
  const file = join(mediaDir, hlsPath(mediaId), 'master.m3u8');
  const written = await readFile(file, 'utf8');
  expect(written).toContain(',FRAME-RATE=25.000,');
  await writeFile(file, written.replaceAll(/,FRAME-RATE=[\d.]+/g, ''));
  await db.updateTable('media').set({ frame_rate: null }).where('media_id', '=', mediaId).execute();
  return written;
}

const frameRateOf = async (db: TestServer['db'], mediaId: string) =>
  (await db.selectFrom('media').select('frame_rate').where('media_id', '=', mediaId).executeTakeFirstOrThrow())
    .frame_rate;

const backfillJobs = (db: TestServer['db'], mediaId: string) =>
  db
    .selectFrom('jobs')
    .select(['status', 'attempts', 'last_error'])
    .where('kind', '=', FRAME_RATE_JOB)
    .where(sql<SqlBool>`payload->>'mediaId' = ${mediaId}`)
    .execute();

describe.each(BACKENDS)('the frame-rate backfill on %s', (backend) => {
  let server: TestServer;
  let mediaDir = '';
  let cookie = '';
  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-framerate-'));
    server = await startTestServer(backend, { env: { MEDIA_DIR: mediaDir } });
    cookie = await member(server, 'Archivist');
  });
  afterAll(async () => {
    await server?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it(
    "probes an old media's top rendition, stores 25 fps and serves its master playlist with FRAME-RATE again",
    async () => {
      const mediaId = await upload(server, cookie, await makeVideo(1, 'old.mp4', '1280x720'));
      const status = await statusOf(server, cookie, mediaId);
      expect(status).toMatchObject({ status: 'ready', renditions: [360, 720] });
      const written = await makeItOld(server.db, mediaDir, mediaId);
      const masterUrl = server.baseUrl + status.manifestUrl;
      // Not in a video: its files are its uploader's (media-access.ts), kept from shared caches.
      const own = { Cookie: cookie };
      const before = await fetch(masterUrl, { headers: own });
      expect(await before.text()).not.toContain('FRAME-RATE');
      const staleTag = before.headers.get('etag')!;

      expect(await queueFrameRateBackfill(server.repositories.media)).toBe(1);
      await expect.poll(() => frameRateOf(server.db, mediaId), { timeout: 30_000, interval: 200 }).toBe(25);
      expect(await backfillJobs(server.db, mediaId)).toEqual([{ status: 'done', attempts: 1, last_error: null }]);

      // A player holding the old playlist revalidates it (no-cache) and gets the new one, not a 304.
      const after = await fetch(masterUrl, { headers: { ...own, 'If-None-Match': staleTag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('cache-control')).toBe('private, no-cache');
      const master = await after.text();
      expect(master.match(/,FRAME-RATE=25\.000,/g)).toHaveLength(2);
      expect(master).toBe(written); // the same playlist the pipeline writes today, both rungs kept
      // Nothing left to do at the next start.
      expect(await queueFrameRateBackfill(server.repositories.media)).toBe(0);
    },
    TRANSCODING_MS,
  );

  it('queues a media once, not at every start, even when its rendition cannot be probed', async () => {
    const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
    const uploadId = randomBytes(16).toString('hex');
    const mediaId = randomBytes(12).toString('hex');
    // Published in the database, but its files are gone from the media store: nothing to probe.
    await server.db
      .insertInto('uploads')
      .values({
        id: uploadId,
        uid,
        file_name: 'v.mp4',
        size: 1,
        max_duration_seconds: 1800,
        expires_at: new Date(),
        media_id: mediaId,
      })
      .execute();
    await server.db
      .insertInto('media')
      .values({
        media_id: mediaId,
        upload_id: uploadId,
        uid,
        status: 'ready',
        duration_ms: 2000,
        width: 640,
        height: 360,
        renditions: [360],
      })
      .execute();

    expect(await queueFrameRateBackfill(server.repositories.media)).toBe(1);
    await expect
      .poll(async () => (await backfillJobs(server.db, mediaId))[0]?.last_error, { timeout: 30_000, interval: 200 })
      .toMatch(/rendition hls\/[0-9a-f]+\/360p has no init or first segment/);
    // Retried later with back-off, then marked failed: the queue's bounded retries.
    expect(await backfillJobs(server.db, mediaId)).toMatchObject([{ status: 'queued', attempts: 1 }]);
    expect(await frameRateOf(server.db, mediaId)).toBeNull();
    expect(await queueFrameRateBackfill(server.repositories.media)).toBe(0);
    expect(await backfillJobs(server.db, mediaId)).toHaveLength(1);
  });
});

describe('the frame-rate backfill at start-up', () => {
  it(
    'is queued and worked by a server starting on data from before frame rates were recorded',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'kiraboshi-framerate-start-'));
      try {
        const first = await startTestServer('pglite', { env: { DATA_DIR: dataDir } });
        const cookie = await member(first, 'Oldtimer');
        const mediaId = await upload(first, cookie, await makeVideo(1, 'start.mp4'));
        expect(await statusOf(first, cookie, mediaId)).toMatchObject({ status: 'ready', renditions: [240] });
        await makeItOld(first.db, join(dataDir, 'media'), mediaId);
        await first.close();

        const second = await startTestServer('pglite', { env: { DATA_DIR: dataDir } });
        try {
          await expect.poll(() => frameRateOf(second.db, mediaId), { timeout: 30_000, interval: 200 }).toBe(25);
          const master = await (
            await fetch(`${second.baseUrl}/media/${hlsPath(mediaId)}/master.m3u8`, { headers: { Cookie: cookie } })
          ).text();
          expect(master).toContain(',FRAME-RATE=25.000,');
        } finally {
          await second.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    TRANSCODING_MS,
  );
});
