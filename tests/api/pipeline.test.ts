import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestServer, type TestServer } from './harness.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { binaryPath, run } from '../../server/media/ffmpeg.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
let fixtures = '';

/** A real H.264/AAC clip made with ffmpeg's test sources. */
async function makeVideo(seconds: number, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const file = join(fixtures, name);
  const result = await run(binaryPath('ffmpeg'), [
    '-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-shortest', file,
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
  return new Uint8Array(await readFile(file));
}

beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), 'kiraboshi-video-'));
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

async function member(server: TestServer, name: string) {
  const uid = await insertAccount(server.db, { email: `${name}@example.com`, password: 'video password 1', username: name });
  return `uid=${uid}; token=${await createSession(server.db, uid)}`;
}

/** Uploads bytes through tus in one piece; answers the media id. */
async function upload(server: TestServer, cookie: string, bytes: Uint8Array<ArrayBuffer>, maxDurationSeconds = 1800): Promise<string> {
  const metadata = `name ${btoa('clip.mp4')},maxDurationSeconds ${btoa(String(maxDurationSeconds))}`;
  const created = await fetch(`${server.baseUrl}/api/video/tus`, { method: 'POST', headers: { ...TUS, Cookie: cookie, 'Upload-Length': String(bytes.length), 'Upload-Metadata': metadata } });
  const done = await fetch(new URL(created.headers.get('location')!, server.baseUrl), {
    method: 'PATCH', headers: { ...TUS, Cookie: cookie, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: bytes,
  });
  expect(done.status).toBe(204);
  return done.headers.get('stream-media-id')!;
}

async function statusOf(server: TestServer, cookie: string, mediaId: string) {
  let body: Record<string, any> = {};
  await expect.poll(async () => {
    body = await (await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: cookie } })).json();
    return body.status;
  }, { timeout: 20_000 }).not.toBe('uploaded');
  return body;
}

describe('probing uploaded media', () => {
  let server: TestServer;
  let cookie = '';
  beforeAll(async () => {
    server = await startTestServer('pglite');
    cookie = await member(server, 'Prober');
  });
  afterAll(() => server?.close());

  it('accepts a real video and records its duration and size from ffprobe', async () => {
    const status = await statusOf(server, cookie, await upload(server, cookie, await makeVideo(2, 'ok.mp4')));
    expect(status).toMatchObject({ status: 'probed', reason: null, width: 320, height: 240 });
    expect(Math.abs(status.duration - 2000)).toBeLessThan(150);
  });

  it('rejects what is not a video, what is too long, and a truncated file, with a reason', async () => {
    const text = await statusOf(server, cookie, await upload(server, cookie, new TextEncoder().encode('definitely not a video'.repeat(100)) as Uint8Array<ArrayBuffer>));
    expect(text).toMatchObject({ status: 'rejected', reason: 'NOT_A_VIDEO' });
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f06e8e' } }).png().toBuffer();
    expect(await statusOf(server, cookie, await upload(server, cookie, new Uint8Array(png)))).toMatchObject({ status: 'rejected', reason: 'NOT_A_VIDEO' });
    const long = await statusOf(server, cookie, await upload(server, cookie, await makeVideo(3, 'long.mp4'), 2));
    expect(long).toMatchObject({ status: 'rejected', reason: 'TOO_LONG' });
    const whole = await makeVideo(2, 'cut.mp4');
    const cut = await statusOf(server, cookie, await upload(server, cookie, whole.slice(0, Math.floor(whole.length * 0.3))));
    expect(cut.status).toBe('rejected');
    expect(['NOT_A_VIDEO', 'CORRUPT']).toContain(cut.reason);
  });

  it('shows a media item to its owner only', async () => {
    const mediaId = await upload(server, cookie, await makeVideo(1, 'mine.mp4'));
    const other = await member(server, 'Nosy');
    expect((await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: other } })).status).toBe(403);
    expect((await server.api(`video/media/status?mediaId=${mediaId}`)).status).toBe(401);
  });
});

describe('a queued job survives a restart', () => {
  it('is processed by the next server on the same data', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kiraboshi-jobs-'));
    try {
      const first = await startTestServer('pglite', { env: { DATA_DIR: dataDir, WORKER: '0' } });
      const cookie = await member(first, 'Restarter');
      const mediaId = await upload(first, cookie, await makeVideo(1, 'restart.mp4'));
      const queued = await first.db.selectFrom('jobs').select(['status']).executeTakeFirstOrThrow();
      expect(queued.status).toBe('queued');
      await first.close();

      const second = await startTestServer('pglite', { env: { DATA_DIR: dataDir } });
      try {
        expect((await statusOf(second, cookie, mediaId)).status).toBe('probed');
        expect((await second.db.selectFrom('jobs').select('status').executeTakeFirstOrThrow()).status).toBe('done');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
