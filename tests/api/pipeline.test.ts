import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { sql, type SqlBool } from 'kysely';
import { startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { damageMediaData } from '../fixtures/damaged-video.ts';
import { createUploadStore } from '../../server/media/upload-store.ts';
import { createMediaStore } from '../../server/media/media-store.ts';
import { hlsPath, transcodeJob } from '../../server/media/pipeline.ts';
import { createLogger } from '../../server/logger.ts';

useVideoFixtures();

describe('probing uploaded media', () => {
  let server: TestServer;
  let cookie = '';
  let mediaDir = '';
  let uploadDir = '';
  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-pipeline-media-'));
    uploadDir = await mkdtemp(join(tmpdir(), 'kiraboshi-pipeline-uploads-'));
    server = await startTestServer('pglite', { env: { MEDIA_DIR: mediaDir, UPLOAD_DIR: uploadDir } });
    cookie = await member(server, 'Prober');
  });
  afterAll(async () => {
    await server?.close();
    for (const dir of [mediaDir, uploadDir]) await rm(dir, { recursive: true, force: true });
  });

  it('accepts a real video, records its duration and size from ffprobe, and publishes it as HLS', async () => {
    const status = await statusOf(server, cookie, await upload(server, cookie, await makeVideo(2, 'ok.mp4')));
    expect(status).toMatchObject({ status: 'ready', reason: null, width: 320, height: 240, renditions: [240] });
    expect(Math.abs(status.duration - 2000)).toBeLessThan(150);
  });

  it('transcodes a ladder up to the source height with aligned ~4 s fMP4 segments, a poster and a storyboard', async () => {
    const mediaId = await upload(server, cookie, await makeVideo(9, 'hd.mp4', '1280x720'));
    const status = await statusOf(server, cookie, mediaId);
    expect(status).toMatchObject({
      status: 'ready',
      renditions: [360, 720],
      manifestUrl: `/media/hls/${mediaId}/master.m3u8`,
    });
    // Not in a video yet: its files are its uploader's (media-access.ts).
    const own = { headers: { Cookie: cookie } };
    const master = await (await fetch(server.baseUrl + status.manifestUrl, own)).text();
    expect(master.match(/#EXT-X-STREAM-INF/g)).toHaveLength(2);
    expect(master).toContain('RESOLUTION=640x360');
    expect(master).toContain('RESOLUTION=1280x720');
    // Each rung advertises the H.264 level it was encoded at (3.0 for 360p, 3.1 for 720p).
    expect(master).toContain('CODECS="avc1.4d401e,mp4a.40.2"');
    expect(master).toContain('CODECS="avc1.4d401f,mp4a.40.2"');
    // The source's frame rate (ffprobe), which players step frames by.
    expect(master.match(/,FRAME-RATE=25\.000,/g)).toHaveLength(2);
    for (const rung of ['360p', '720p']) {
      const playlist = await (await fetch(`${server.baseUrl}/media/hls/${mediaId}/${rung}/index.m3u8`, own)).text();
      expect(playlist).toContain('#EXT-X-MAP:URI="init.mp4"');
      const durations = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
      expect(durations.slice(0, -1).every((d) => d >= 3.9 && d <= 4.1)).toBe(true);
      expect(durations.reduce((a, b) => a + b, 0)).toBeCloseTo(9, 0);
      const segment = playlist.split('\n').find((l) => l.endsWith('.m4s'))!;
      const bytes = await fetch(`${server.baseUrl}/media/hls/${mediaId}/${rung}/${segment}`, own);
      expect(bytes.status).toBe(200);
    }
    const poster = await sharp(
      Buffer.from(await (await fetch(server.baseUrl + status.posterUrl, own)).arrayBuffer()),
    ).metadata();
    expect([poster.format, poster.height]).toEqual(['jpeg', 720]);
    const board = await fetch(`${server.baseUrl}/media/hls/${mediaId}/storyboard.jpg`, own);
    expect(board.headers.get('content-type')).toBe('image/jpeg');
  });

  it('rejects what is not a video, what is too long, and a truncated file, with a reason', async () => {
    const text = await statusOf(
      server,
      cookie,
      await upload(
        server,
        cookie,
        new TextEncoder().encode('definitely not a video'.repeat(100)) as Uint8Array<ArrayBuffer>,
      ),
    );
    expect(text).toMatchObject({ status: 'rejected', reason: 'NOT_A_VIDEO' });
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f06e8e' } })
      .png()
      .toBuffer();
    expect(await statusOf(server, cookie, await upload(server, cookie, new Uint8Array(png)))).toMatchObject({
      status: 'rejected',
      reason: 'NOT_A_VIDEO',
    });
    const long = await statusOf(server, cookie, await upload(server, cookie, await makeVideo(3, 'long.mp4'), 2));
    expect(long).toMatchObject({ status: 'rejected', reason: 'TOO_LONG' });
    const whole = await makeVideo(2, 'cut.mp4');
    const cut = await statusOf(
      server,
      cookie,
      await upload(server, cookie, whole.slice(0, Math.floor(whole.length * 0.3))),
    );
    expect(cut.status).toBe('rejected');
    expect(['NOT_A_VIDEO', 'CORRUPT']).toContain(cut.reason);
  });

  it('rejects a file whose header is whole but whose frames are damaged, at the probe', async () => {
    const damaged = damageMediaData(await makeVideo(6, 'damaged.mp4'));
    const status = await statusOf(server, cookie, await upload(server, cookie, damaged));
    expect(status).toMatchObject({ status: 'rejected', reason: 'CORRUPT', renditions: [] });
    const jobs = await server.db
      .selectFrom('jobs')
      .select('kind')
      .where(sql<SqlBool>`payload->>'mediaId' = ${status.mediaId}`)
      .execute();
    expect(jobs).toEqual([{ kind: 'media.probe' }]); // never queued for transcoding
  });

  it('marks the media failed when transcoding fails on its last attempt, and only then', async () => {
    const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
    const mediaId = 'f'.repeat(24);
    await server.db
      .insertInto('uploads')
      .values({
        id: 'gone'.repeat(8),
        uid,
        file_name: 'gone.mp4',
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
        upload_id: 'gone'.repeat(8),
        uid,
        status: 'probed',
        duration_ms: 2000,
        width: 320,
        height: 240,
      })
      .execute();
    const scratch = await mkdtemp(join(tmpdir(), 'kiraboshi-failing-'));
    try {
      // The upload's file is missing, so ffmpeg fails however often it is asked.
      const job = transcodeJob({
        repositories: server.repositories,
        uploads: await createUploadStore({ directory: scratch }),
        media: await createMediaStore({ directory: scratch, scratchDirectory: scratch }),
        logger: createLogger('error'),
      });
      const statusNow = async () =>
        (await server.db.selectFrom('media').select('status').where('media_id', '=', mediaId).executeTakeFirstOrThrow())
          .status;
      await expect(job({ mediaId }, { attempt: 1, isLastAttempt: false })).rejects.toThrow(/ffmpeg failed/);
      expect(await statusNow()).toBe('transcoding');
      await expect(job({ mediaId }, { attempt: 5, isLastAttempt: true })).rejects.toThrow(/ffmpeg failed/);
      expect(await statusNow()).toBe('failed');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('goes on from the rungs an earlier attempt published, and finishes a playable video as ready if the last attempt fails', async () => {
    const mediaId = await upload(server, cookie, await makeVideo(3, 'retry.mp4', '1280x720'));
    expect(await statusOf(server, cookie, mediaId)).toMatchObject({ status: 'ready', renditions: [360, 720] });
    const hls = join(mediaDir, hlsPath(mediaId));
    // As an attempt that failed at 720p leaves it: 360p published, playable, nothing after it.
    await rm(join(hls, '720p'), { recursive: true });
    await rm(join(hls, 'storyboard.jpg'));
    await server.db
      .updateTable('media')
      .set({ status: 'playable', renditions: [360], storyboard: sql<string>`NULL` })
      .where('media_id', '=', mediaId)
      .execute();
    const lowRung = join(hls, '360p', 'index.m3u8');
    const lowWritten = (await stat(lowRung)).mtimeMs;
    const job = transcodeJob({
      repositories: server.repositories,
      uploads: await createUploadStore({ directory: uploadDir }),
      media: await createMediaStore({ directory: mediaDir, scratchDirectory: uploadDir }),
      logger: createLogger('error'),
    });
    const media = () =>
      server.db
        .selectFrom('media')
        .select(['status', 'renditions', 'storyboard'])
        .where('media_id', '=', mediaId)
        .executeTakeFirstOrThrow();

    await job({ mediaId }, { attempt: 2, isLastAttempt: false });
    expect(await media()).toMatchObject({ status: 'ready', renditions: [360, 720] });
    expect((await media()).storyboard).not.toBeNull();
    expect((await stat(lowRung)).mtimeMs).toBe(lowWritten); // not transcoded again
    expect((await readFile(join(hls, 'master.m3u8'), 'utf8')).match(/#EXT-X-STREAM-INF/g)).toHaveLength(2);

    // The upload is gone now, so 720p fails every time: the video stays watchable at 360p.
    await rm(join(hls, '720p'), { recursive: true });
    await server.db
      .updateTable('media')
      .set({ status: 'playable', renditions: [360], storyboard: sql<string>`NULL` })
      .where('media_id', '=', mediaId)
      .execute();
    const noUpload = await mkdtemp(join(tmpdir(), 'kiraboshi-no-upload-'));
    try {
      const failing = transcodeJob({
        repositories: server.repositories,
        uploads: await createUploadStore({ directory: noUpload }),
        media: await createMediaStore({ directory: mediaDir, scratchDirectory: noUpload }),
        logger: createLogger('error'),
      });
      await expect(failing({ mediaId }, { attempt: 4, isLastAttempt: false })).rejects.toThrow(/ffmpeg failed/);
      expect(await media()).toMatchObject({ status: 'playable', renditions: [360] });
      await expect(failing({ mediaId }, { attempt: 5, isLastAttempt: true })).rejects.toThrow(/ffmpeg failed/);
      expect(await media()).toMatchObject({ status: 'ready', renditions: [360], storyboard: null });
      expect(
        (await fetch(`${server.baseUrl}/media/hls/${mediaId}/360p/index.m3u8`, { headers: { Cookie: cookie } })).status,
      ).toBe(200);
    } finally {
      await rm(noUpload, { recursive: true, force: true });
    }
  });

  it('shows a media item to its owner only', async () => {
    const mediaId = await upload(server, cookie, await makeVideo(1, 'mine.mp4'));
    const other = await member(server, 'Nosy');
    expect((await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: other } })).status).toBe(
      403,
    );
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
        expect(jobs).toEqual([
          { kind: 'media.probe', status: 'done' },
          { kind: 'media.transcode', status: 'done' },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
