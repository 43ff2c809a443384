/**
 * Crash safety, on real processes started from the real entry point: SIGKILL during a burst of
 * writes and a tus upload, SIGKILL during a transcode, SIGTERM during an upload and a transcode.
 * On PGlite and on PostgreSQL (a throwaway cluster of this file's own, port 4530).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeVideo, tusCreate, tusHead, tusMetadata, tusPatch, useVideoFixtures } from './media-helpers.ts';
import {
  canRunOwnPostgres,
  killHard,
  killLeftoverServers,
  scratchDir,
  seedDatabase,
  sha256,
  sha256OfFile,
  startOwnPostgres,
  startServerProcess,
  withDatabase,
  type OwnPostgres,
  type Seeded,
  type ServerProcess,
} from './fault-harness.ts';

const WRITERS = 20;
const TUS = { 'Tus-Resumable': '1.0.0' };
const json = (body: unknown, cookie: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', Cookie: cookie },
});

useVideoFixtures();
afterAll(killLeftoverServers);

/** Resolves when `check` answers true, checking every 50 ms (a state, not a duration). */
async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A tus PATCH whose body trickles out in 64 KiB pieces, so that the server is killed while bytes
 * are still arriving. `sent` counts what left this side.
 */
function slowPatch(server: ServerProcess, location: string, cookie: string, bytes: Uint8Array, offset = 0) {
  const progress = { sent: 0 };
  let position = offset;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (position >= bytes.length) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 15));
      const piece = bytes.subarray(position, Math.min(bytes.length, position + 65_536));
      position += piece.length;
      progress.sent = position;
      controller.enqueue(piece);
    },
  });
  const answer = fetch(new URL(location, server.baseUrl), {
    method: 'PATCH',
    body,
    duplex: 'half',
    headers: {
      ...TUS,
      Cookie: cookie,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
  } as RequestInit).catch((error: Error) => error);
  return { progress, answer };
}

const mediaStatus = async (server: ServerProcess, cookie: string, mediaId: string) =>
  (await (await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: cookie } })).json())
    .status as string;

/** Where a media item's transcode works before publishing (the folder store's named scratch folder). */
const workFolder = (mediaDir: string, mediaId: string) => join(mediaDir, '.scratch', `transcode-${mediaId}`);

/** Partial rung folders of a media item (work in progress), in its work folder or published by mistake. */
const partials = async (mediaDir: string, mediaId: string, height?: number) =>
  (
    await Promise.all(
      [join(mediaDir, 'hls', mediaId), workFolder(mediaDir, mediaId)].map((dir) =>
        readdir(dir).catch(() => [] as string[]),
      ),
    )
  )
    .flat()
    .filter((name) => name.includes('.partial-') && (!height || name.startsWith(`${height}p.`)));

/** Published playlists are whole: each rung's playlist is ended and names only segments that exist. */
async function expectWholeRenditions(mediaDir: string, mediaId: string, heights: number[]) {
  const dir = join(mediaDir, 'hls', mediaId);
  const master = await readFile(join(dir, 'master.m3u8'), 'utf8');
  for (const height of heights) {
    expect(master).toContain(`${height}p/index.m3u8`);
    const playlist = await readFile(join(dir, `${height}p`, 'index.m3u8'), 'utf8');
    expect(playlist.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    for (const segment of playlist.split('\n').filter((line) => line.endsWith('.m4s')))
      expect((await stat(join(dir, `${height}p`, segment))).size).toBeGreaterThan(0);
  }
  expect(await partials(mediaDir, mediaId)).toEqual([]);
  expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
}

/** ffmpeg processes still writing under a folder (an orphan of a killed server would be one). */
async function ffmpegWritingUnder(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('ffmpeg') && cmdline.includes(dir)) found.push(Number(pid));
  }
  return found;
}

describe.each([
  { backend: 'pglite' as const, port: 0 },
  { backend: 'postgres' as const, port: 4530 },
])('crash safety on $backend', ({ backend, port }) => {
  const skip = backend === 'postgres' && !canRunOwnPostgres;
  let cluster: OwnPostgres | undefined;
  let target: { databaseUrl?: string; dataDir?: string } = {};
  let env: Record<string, string> = {};
  let dataDir = '';
  let seeded: Seeded;
  let server: ServerProcess;
  const uploader = () => seeded.cookies[0];

  beforeAll(async () => {
    if (skip) return;
    dataDir = await scratchDir(`crash-${backend}`);
    if (backend === 'postgres') {
      cluster = await startOwnPostgres(port);
      target = { databaseUrl: await cluster.freshDatabase() };
    } else {
      target = { dataDir };
    }
    seeded = await seedDatabase(target, WRITERS);
    env = {
      DATA_DIR: dataDir,
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
      SHUTDOWN_GRACE_MS: '2000',
    };
  }, 120_000);
  afterAll(async () => {
    killLeftoverServers();
    await cluster?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(skip)(
    'SIGKILL during a write burst and a tus upload: every acknowledged write is stored, the upload resumes with a matching checksum',
    async () => {
      server = await startServerProcess(env);
      const { videoId, cookies } = seeded;
      // The upload: 16 MiB trickling in while the writers write.
      const file = new Uint8Array(randomBytes(16 * 1024 * 1024));
      const created = await tusCreate(
        server.asTestServer(),
        cookies[1],
        file.length,
        tusMetadata({ name: 'big.bin', maxDurationSeconds: '1800' }),
      );
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      const uploadId = location.split('/').pop()!;
      const patch = slowPatch(server, location, cookies[1], file);

      const acknowledged: string[] = [];
      const acknowledgedDanmaku: string[] = [];
      let attempts = 0;
      let killed = false;
      const writer = async (i: number) => {
        const danmaku = `弹幕 ${i}`;
        const sent = await server
          .api('video/danmaku/emit', json({ videoId, time: i, text: danmaku, color: 'ffffff' }, cookies[i]))
          .catch(() => null);
        if (sent?.status === 200) acknowledgedDanmaku.push(danmaku);
        for (let n = 0; n < 10 && !killed; n++) {
          const text = `评论 ${i}-${n}`;
          attempts++;
          const answer = await server.api('video/comment/emit', json({ videoId, text }, cookies[i])).catch(() => null);
          if (!answer) return; // the server is gone
          if (answer.status === 200) acknowledged.push(text);
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
      // Killed once the store holds part of the upload (not merely once it left this side).
      const storedBytes = async () => (await stat(join(dataDir, 'uploads', uploadId)).catch(() => null))?.size ?? 0;
      await until(
        async () => acknowledged.length >= 60 && (await storedBytes()) >= 1024 * 1024,
        'writes and upload bytes under way',
      );
      killed = true;
      await killHard(server);
      await Promise.all(writers);
      await patch.answer;

      server = await startServerProcess(env);
      const stored = new Set<string>();
      for (let page = 1; ; page++) {
        const body = await (await server.api(`video/comment?videoId=${videoId}&page=${page}&pageSize=50`)).json();
        const texts = (body.videoCommentList as Array<{ text: string }>).map((c) => c.text);
        for (const text of texts) stored.add(text.replace(/<[^>]+>/g, ''));
        if (texts.length < 50) break;
      }
      const lost = acknowledged.filter((text) => !stored.has(text));
      const danmakuStored = new Set(
        ((await (await server.api(`video/danmaku?videoId=${videoId}`)).json()).danmaku as Array<{ text: string }>).map(
          (d) => d.text,
        ),
      );
      console.log(
        `[crash ${backend}] write burst: ${attempts} comment requests, ${acknowledged.length} acknowledged, ${stored.size} stored, ${lost.length} lost; ` +
          `danmaku ${acknowledgedDanmaku.length} acknowledged, ${danmakuStored.size} stored; restart ${Math.round(server.startMs)} ms`,
      );
      expect(lost).toEqual([]);
      expect(acknowledgedDanmaku.filter((text) => !danmakuStored.has(text))).toEqual([]);

      // The upload: the offset the store kept, then the rest from there; the file is the one sent.
      const head = await tusHead(server.asTestServer(), location, cookies[1]);
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      console.log(
        `[crash ${backend}] tus upload: ${patch.progress.sent} of ${file.length} bytes sent before the kill, resumed from ${offset}`,
      );
      expect(offset).toBeGreaterThanOrEqual(1024 * 1024);
      expect(offset).toBeLessThan(file.length);
      const rest = await tusPatch(server.asTestServer(), location, cookies[1], offset, file.slice(offset));
      expect(rest.status).toBe(204);
      expect(await sha256OfFile(join(dataDir, 'uploads', uploadId))).toBe(sha256(file));
    },
    120_000,
  );

  it.skipIf(skip)(
    'SIGKILL during transcoding: the video is playable within restart + its transcode time + 10 s, with whole playlists',
    async () => {
      const clip = await makeVideo(6, `hd-${backend}-1.mp4`, '1280x720');
      const created = await tusCreate(server.asTestServer(), uploader(), clip.length);
      const done = await tusPatch(server.asTestServer(), created.headers.get('location')!, uploader(), 0, clip);
      const mediaId = done.headers.get('stream-media-id')!;
      const mediaDir = join(dataDir, 'media');
      // Killed while the first rung is being written (nothing published yet).
      await until(async () => (await partials(mediaDir, mediaId, 360)).length > 0, 'the 360p rung under way');
      const killedAt = performance.now();
      await killHard(server);

      server = await startServerProcess(env);
      await until(
        async () => ['playable', 'ready'].includes(await mediaStatus(server, uploader(), mediaId)),
        'playable again',
      );
      const playableAfter = performance.now() - killedAt;
      const rung = await server.logLine(
        (line) => line.msg === 'rendition published' && line.mediaId === mediaId && line.height === 360,
      );
      const overhead = playableAfter - server.startMs - rung.ms;
      console.log(
        `[crash ${backend}] transcode SIGKILL: playable ${Math.round(playableAfter)} ms after the kill = restart ${Math.round(server.startMs)} ms` +
          ` + 360p transcode ${rung.ms} ms + ${Math.round(overhead)} ms recovery (goal: under 10000 ms)`,
      );
      expect(overhead).toBeLessThan(10_000);
      await until(async () => (await mediaStatus(server, uploader(), mediaId)) === 'ready', 'ready');
      await expectWholeRenditions(mediaDir, mediaId, [360, 720]);
      // The killed server's ffmpeg did not live on, writing beside the new attempt.
      expect(await ffmpegWritingUnder(join(mediaDir, 'hls', mediaId))).toEqual([]);
      expect(await ffmpegWritingUnder(workFolder(mediaDir, mediaId))).toEqual([]);
      const master = await server.api(`../media/hls/${mediaId}/master.m3u8`, { headers: { Cookie: uploader() } });
      expect(master.status).toBe(200);
    },
    180_000,
  );

  it.skipIf(skip)(
    'SIGTERM during an upload and a transcode: drained, the job handed back unspent, both finish after the restart',
    async () => {
      const clip = await makeVideo(6, `hd-${backend}-2.mp4`, '1280x720');
      const created = await tusCreate(server.asTestServer(), uploader(), clip.length);
      const done = await tusPatch(server.asTestServer(), created.headers.get('location')!, uploader(), 0, clip);
      const mediaId = done.headers.get('stream-media-id')!;
      const mediaDir = join(dataDir, 'media');
      // Mid-ladder: 360p published (playable), 720p being written.
      await until(async () => (await partials(mediaDir, mediaId, 720)).length > 0, 'the 720p rung under way');
      // Longer than the grace (2 s here): the drain must cut it, and the stored part stays.
      const file = new Uint8Array(randomBytes(16 * 1024 * 1024));
      const upload = await tusCreate(
        server.asTestServer(),
        seeded.cookies[2],
        file.length,
        tusMetadata({ name: 'term.bin', maxDurationSeconds: '1800' }),
      );
      const location = upload.headers.get('location')!;
      const patch = slowPatch(server, location, seeded.cookies[2], file);
      await until(() => patch.progress.sent >= 512 * 1024, 'upload bytes under way');

      process.kill(server.pid, 'SIGTERM');
      const exit = await server.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      const stopped = server.logs.find((line) => line.msg === 'stopped')!;
      console.log(
        `[crash ${backend}] SIGTERM: ${JSON.stringify({ ms: stopped.ms, requestsInFlight: stopped.requestsInFlight, requestsCutAtGrace: stopped.requestsCutAtGrace, jobsHandedBack: stopped.jobsHandedBack })}`,
      );
      expect(stopped.jobsHandedBack).toHaveLength(1);
      expect(stopped.requestsCutAtGrace).toBe(1);
      await patch.answer;
      // Handed back, not failed, its attempt not counted; the published rung kept.
      const [job, media] = await withDatabase(target, (db) =>
        Promise.all([
          db.selectFrom('jobs').selectAll().where('id', '=', stopped.jobsHandedBack[0]).executeTakeFirstOrThrow(),
          db
            .selectFrom('media')
            .select(['status', 'renditions'])
            .where('media_id', '=', mediaId)
            .executeTakeFirstOrThrow(),
        ]),
      );
      expect(job).toMatchObject({
        kind: 'media.transcode',
        status: 'queued',
        attempts: 0,
        last_error: null,
        locked_by: null,
      });
      expect(job.payload).toEqual({ mediaId });
      expect(media).toEqual({ status: 'playable', renditions: [360] });

      server = await startServerProcess(env);
      await until(async () => (await mediaStatus(server, uploader(), mediaId)) === 'ready', 'ready after the restart');
      await expectWholeRenditions(mediaDir, mediaId, [360, 720]);
      const head = await tusHead(server.asTestServer(), location, seeded.cookies[2]);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThan(0);
      expect(offset).toBeLessThan(file.length);
      expect(
        (await tusPatch(server.asTestServer(), location, seeded.cookies[2], offset, file.slice(offset))).status,
      ).toBe(204);
      expect(await sha256OfFile(join(dataDir, 'uploads', location.split('/').pop()!))).toBe(sha256(file));

      process.kill(server.pid, 'SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      const finished = await withDatabase(target, (db) =>
        db
          .selectFrom('jobs')
          .select(['status', 'attempts'])
          .where('id', '=', stopped.jobsHandedBack[0])
          .executeTakeFirstOrThrow(),
      );
      expect(finished).toEqual({ status: 'done', attempts: 1 });
    },
    180_000,
  );
});
