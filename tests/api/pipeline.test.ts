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
async function makeVideo(seconds: number, name: string, size = '320x240'): Promise<Uint8Array<ArrayBuffer>> {
  const file = join(fixtures, name);
  const result = await run(binaryPath('ffmpeg'), [
    '-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25:duration=${seconds}`,
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

/** Polls the media status until it reaches one of the given states (by default a final one). */
async function statusOf(server: TestServer, cookie: string, mediaId: string, until = ['ready', 'rejected', 'failed']) {
  let body: Record<string, any> = {};
  await expect.poll(async () => {
    body = await (await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: cookie } })).json();
    return until.includes(body.status);
  }, { timeout: 60_000, interval: 200 }).toBe(true);
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

  it('accepts a real video, records its duration and size from ffprobe, and publishes it as HLS', async () => {
    const status = await statusOf(server, cookie, await upload(server, cookie, await makeVideo(2, 'ok.mp4')));
    expect(status).toMatchObject({ status: 'ready', reason: null, width: 320, height: 240, renditions: [240] });
    expect(Math.abs(status.duration - 2000)).toBeLessThan(150);
  });

  it('transcodes a ladder up to the source height with aligned ~4 s fMP4 segments, a poster and a storyboard', async () => {
    const mediaId = await upload(server, cookie, await makeVideo(9, 'hd.mp4', '1280x720'));
    const status = await statusOf(server, cookie, mediaId);
    expect(status).toMatchObject({ status: 'ready', renditions: [360, 720], manifestUrl: `/media/hls/${mediaId}/master.m3u8` });
    const master = await (await fetch(server.baseUrl + status.manifestUrl)).text();
    expect(master.match(/#EXT-X-STREAM-INF/g)).toHaveLength(2);
    expect(master).toContain('RESOLUTION=640x360');
    expect(master).toContain('RESOLUTION=1280x720');
    for (const rung of ['360p', '720p']) {
      const playlist = await (await fetch(`${server.baseUrl}/media/hls/${mediaId}/${rung}/index.m3u8`)).text();
      expect(playlist).toContain('#EXT-X-MAP:URI="init.mp4"');
      const durations = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
      expect(durations.slice(0, -1).every((d) => d >= 3.9 && d <= 4.1)).toBe(true);
      expect(durations.reduce((a, b) => a + b, 0)).toBeCloseTo(9, 0);
      const segment = playlist.split('\n').find((l) => l.endsWith('.m4s'))!;
      const bytes = await fetch(`${server.baseUrl}/media/hls/${mediaId}/${rung}/${segment}`);
      expect(bytes.status).toBe(200);
    }
    const poster = await sharp(Buffer.from(await (await fetch(server.baseUrl + status.posterUrl)).arrayBuffer())).metadata();
    expect([poster.format, poster.height]).toEqual(['jpeg', 720]);
    const board = await fetch(`${server.baseUrl}/media/hls/${mediaId}/storyboard.jpg`);
    expect(board.headers.get('content-type')).toBe('image/jpeg');
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
        expect((await statusOf(second, cookie, mediaId)).status).toBe('ready');
        const jobs = await second.db.selectFrom('jobs').select(['kind', 'status']).orderBy('id').execute();
        expect(jobs).toEqual([{ kind: 'media.probe', status: 'done' }, { kind: 'media.transcode', status: 'done' }]);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
