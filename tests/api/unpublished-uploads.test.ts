/**
 * Uploads nobody publishes (on the real database: PGlite, and PostgreSQL when configured):
 * the transcode of an unpublished upload is background work, run after every published one and
 * giving way when such work arrives while it runs; probing still runs at once, so publishing
 * right after the upload stays fast. A finished upload never published expires
 * (UPLOAD_ABANDONED_AFTER_MS) and its rows and files go; a published one stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { enqueueJob, startJobWorker, type JobHandler } from '../../server/jobs/queue.ts';
import { unpublishedTranscode } from '../../server/media/unpublished-uploads.ts';
import { PROBE_JOB, TRANSCODE_JOB } from '../../server/media/paths.ts';
import { createLogger } from '../../server/logger.ts';

useVideoFixtures();
const logger = createLogger('error');
const json = (body: unknown, cookie?: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
});
const commit = (server: TestServer, cookie: string, mediaId: string) =>
  server.api(
    'video/upload',
    json(
      {
        title: '发布了',
        videoPart: [{ mediaId, videoPartTitle: '' }],
        videoCategory: 'anime',
        copyright: 'original',
        ensureOriginal: true,
      },
      cookie,
    ),
  );

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(BACKENDS)('unpublished uploads on %s', (backend) => {
  describe('the job queue', () => {
    let server: TestServer;
    let uploader = '';
    beforeAll(async () => {
      // No worker of the server's own: the test's worker runs the jobs, noting their order.
      server = await startTestServer(backend, { env: { WORKER: '0' } });
      uploader = await member(server, 'Queued');
    });
    afterAll(() => server?.close());

    /** A real upload, probed as the probe job would (duration known), its transcode queued. */
    async function probedUpload(name: string) {
      const mediaId = await upload(server, uploader, await makeVideo(1, name));
      await server.db
        .updateTable('media')
        .set({ status: 'probed', duration_ms: 1000, width: 320, height: 240 })
        .where('media_id', '=', mediaId)
        .execute();
      await server.db.deleteFrom('jobs').where(sql<string>`payload->>'mediaId'`, '=', mediaId).execute();
      await enqueueJob(server.db, TRANSCODE_JOB, { mediaId });
      return mediaId;
    }

    it('runs the transcode of a published upload before that of an earlier, unpublished one', async () => {
      const abandoned = await probedUpload('abandoned.mp4');
      const kept = await probedUpload('kept.mp4');
      expect((await commit(server, uploader, kept)).status).toBe(200);
      const order: string[] = [];
      const worker = startJobWorker({
        db: server.db,
        logger,
        pollMs: 20,
        background: unpublishedTranscode,
        handlers: { [TRANSCODE_JOB]: async (payload) => void order.push(String(payload.mediaId)) },
      });
      try {
        await until(() => order.length === 2);
      } finally {
        await worker.stop();
      }
      expect(order).toEqual([kept, abandoned]);
    });

    it("stops an unpublished upload's transcode when other work arrives, runs that, then goes on unspent", async () => {
      const abandoned = await probedUpload('abandoned-2.mp4');
      const ran: string[] = [];
      let aborts = 0;
      const transcode: JobHandler = (_payload, run) =>
        new Promise<void>((resolve, reject) => {
          ran.push(`transcode ${run.attempt}`);
          // The second time it runs to the end.
          if (ran.length > 2) return resolve();
          run.signal?.addEventListener(
            'abort',
            () => {
              aborts++;
              reject(run.signal!.reason);
            },
            { once: true },
          );
        });
      const worker = startJobWorker({
        db: server.db,
        logger,
        pollMs: 20,
        leaseMs: 400,
        background: unpublishedTranscode,
        handlers: { [TRANSCODE_JOB]: transcode, [PROBE_JOB]: async () => void ran.push('probe') },
      });
      try {
        await until(() => ran.length === 1);
        await enqueueJob(server.db, PROBE_JOB, { mediaId: 'someone-else' });
        await until(() => ran.length === 3);
        await until(
          async () =>
            (
              await server.db
                .selectFrom('jobs')
                .select('status')
                .where(sql<string>`payload->>'mediaId'`, '=', abandoned)
                .executeTakeFirstOrThrow()
            ).status === 'done',
        );
      } finally {
        await worker.stop();
      }
      expect(ran).toEqual(['transcode 1', 'probe', 'transcode 1']);
      expect(aborts).toBe(1);
    });
  });

  describe('expiry', () => {
    let server: TestServer;
    let uploader = '';
    const dirs = {
      upload: mkdtempSync(join(tmpdir(), 'kiraboshi-abandoned-up-')),
      media: mkdtempSync(join(tmpdir(), 'kiraboshi-abandoned-media-')),
    };
    beforeAll(async () => {
      server = await startTestServer(backend, {
        env: { UPLOAD_DIR: dirs.upload, MEDIA_DIR: dirs.media, UPLOAD_SWEEP_MS: '250' },
      });
      uploader = await member(server, 'Forgetful');
    });
    afterAll(async () => {
      await server?.close();
      for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
    });

    it('removes a finished upload never published after UPLOAD_ABANDONED_AFTER_MS (24 h): rows, uploaded file and renditions; a published one stays', async () => {
      const abandoned = await upload(server, uploader, await makeVideo(2, 'left.mp4'));
      const published = await upload(server, uploader, await makeVideo(2, 'kept.mp4'));
      // Publishing right after the upload: the probe is enough; both are transcoded (the worker is idle).
      await statusOf(server, uploader, published, ['probed', 'transcoding', 'playable', 'ready']);
      expect((await commit(server, uploader, published)).status).toBe(200);
      for (const id of [abandoned, published]) await statusOf(server, uploader, id);
      const uploadOf = async (mediaId: string) =>
        (
          await server.db
            .selectFrom('media')
            .select('upload_id')
            .where('media_id', '=', mediaId)
            .executeTakeFirstOrThrow()
        ).upload_id;
      const [abandonedUpload, publishedUpload] = [await uploadOf(abandoned), await uploadOf(published)];
      for (const id of [abandonedUpload, publishedUpload]) expect(existsSync(join(dirs.upload, id))).toBe(true);
      for (const id of [abandoned, published])
        expect(existsSync(join(dirs.media, 'hls', id, 'master.m3u8'))).toBe(true);

      // A day old and a bit: the next sweep takes the unpublished one only.
      await server.db
        .updateTable('uploads')
        .set({ finished_at: new Date(Date.now() - 25 * 3_600_000) })
        .where('id', 'in', [abandonedUpload, publishedUpload])
        .execute();
      await until(
        async () =>
          !(await server.db
            .selectFrom('media')
            .select('media_id')
            .where('media_id', '=', abandoned)
            .executeTakeFirst()),
        10_000,
      );
      expect(
        await server.db.selectFrom('uploads').select('id').where('id', '=', abandonedUpload).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await server.db
          .selectFrom('jobs')
          .select('id')
          .where(sql<string>`payload->>'mediaId'`, '=', abandoned)
          .execute(),
      ).toEqual([]);
      await until(() => !existsSync(join(dirs.media, 'hls', abandoned)), 5_000);
      expect(readdirSync(dirs.upload).filter((name) => name.startsWith(abandonedUpload))).toEqual([]);
      const status = await server.api(`video/media/status?mediaId=${abandoned}`, { headers: { Cookie: uploader } });
      expect(status.status).toBe(404);

      // The published one and its files stay.
      expect(
        await server.db.selectFrom('media').select('status').where('media_id', '=', published).executeTakeFirst(),
      ).toEqual({ status: 'ready' });
      expect(existsSync(join(dirs.upload, publishedUpload))).toBe(true);
      expect(existsSync(join(dirs.media, 'hls', published, 'master.m3u8'))).toBe(true);
    });
  });
});
