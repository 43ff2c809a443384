/** settings/jobs: administrators see the media jobs by state with their errors, and retry failed ones. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { member } from './media-helpers.ts';

const json = (body: unknown, cookie: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', Cookie: cookie },
});

describe.each(BACKENDS)('the media jobs page on %s', (backend) => {
  let server: TestServer;
  let admin = '';
  let uploader = '';
  beforeAll(async () => {
    // No worker: the jobs stay as the test leaves them.
    server = await startTestServer(backend, { env: { WORKER: '0' } });
    admin = await member(server, 'JobAdmin', ['administrator']);
    uploader = await member(server, 'JobUploader');
  });
  afterAll(() => server?.close());

  /** A transcode that failed its last attempt, over media given up on, as the queue and the pipeline leave them. */
  async function failedTranscode() {
    const uid = Number(/uid=(\d+)/.exec(uploader)![1]);
    const uploadId = randomBytes(16).toString('hex');
    const mediaId = randomBytes(12).toString('hex');
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
        status: 'failed',
        duration_ms: 2000,
        width: 320,
        height: 240,
      })
      .execute();
    const { id } = await server.db
      .insertInto('jobs')
      .values({ kind: 'media.transcode', payload: JSON.stringify({ mediaId }) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.db
      .updateTable('jobs')
      .set({
        status: 'failed',
        attempts: 5,
        last_error: 'ffmpeg failed for 360p: Invalid data found when processing input',
      })
      .where('id', '=', id)
      .execute();
    return { jobId: id, mediaId };
  }

  it('lists jobs by state, newest first, with the counts and the last error', async () => {
    const { jobId, mediaId } = await failedTranscode();
    await server.db
      .insertInto('jobs')
      .values({ kind: 'media.probe', payload: JSON.stringify({ mediaId: 'a'.repeat(24) }) })
      .execute();
    const failed = await (await server.api('admin/jobs?status=failed', { headers: { Cookie: admin } })).json();
    expect(failed).toMatchObject({
      success: true,
      maxAttempts: 5,
      counts: { failed: 1, queued: 1, running: 0, done: 0 },
      totalCount: 1,
    });
    expect(failed.jobs).toEqual([
      expect.objectContaining({
        id: jobId,
        kind: 'media.transcode',
        status: 'failed',
        attempts: 5,
        mediaId,
        lastError: expect.stringContaining('ffmpeg failed for 360p'),
        lockedUntilDateTime: null,
      }),
    ]);
    const queued = await (await server.api('admin/jobs?status=queued', { headers: { Cookie: admin } })).json();
    expect(queued.jobs.map((j: { kind: string }) => j.kind)).toEqual(['media.probe']);
  });

  it('is for staff only', async () => {
    expect((await server.api('admin/jobs', { headers: { Cookie: uploader } })).status).toBe(403);
    expect((await server.api('admin/jobs')).status).toBe(401);
    expect((await server.api('admin/jobs/retry', json({ jobId: 1 }, uploader))).status).toBe(403);
  });

  it('queues a failed job again with fresh attempts, and its media waits for it again; refuses one that is not failed', async () => {
    const { jobId, mediaId } = await failedTranscode();
    expect((await server.api('admin/jobs/retry', json({ jobId }, admin))).status).toBe(200);
    expect(
      await server.db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'last_error'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({ status: 'queued', attempts: 0, last_error: expect.stringContaining('ffmpeg failed') });
    expect(
      (await server.db.selectFrom('media').select('status').where('media_id', '=', mediaId).executeTakeFirstOrThrow())
        .status,
    ).toBe('probed');
    const again = await server.api('admin/jobs/retry', json({ jobId }, admin));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ success: false, code: 'CONFLICT' });
    expect((await server.api('admin/jobs/retry', json({ jobId: 999_999 }, admin))).status).toBe(404);
  });
});
