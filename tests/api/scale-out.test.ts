/**
 * The site scaled out: two web processes (WORKER=0) and two worker processes (SERVE_SITE=0),
 * each started from the real entry point (node server/main.ts) on its own port with its own
 * empty MEDIA_DIR, sharing one PostgreSQL database and one bucket (s3rver, MEDIA_STORE=s3).
 * Needs TEST_DATABASE_URL (several processes cannot share PGlite) and a built site (dist/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { freshPostgresDatabase, openDatabase, type TestServer } from './harness.ts';
import { insertVideo, makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { SseClient } from './sse-client.ts';
import { startS3Server, storedObject, type TestS3 } from './s3-server.ts';
import { migrateToLatest } from '../../server/db/database.ts';
import { hlsPath } from '../../server/media/paths.ts';
import { serverArguments } from '../../server/node-flags.ts';

const TRANSCODING_MS = 240_000;
const MEDIA_PREFIX = 'media/';

interface SiteProcess {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  mediaDir: string;
  /** Every log record the process wrote, as parsed JSON. */
  logs: Record<string, unknown>[];
  exited: Promise<void>;
}

/** Starts `node server/main.ts` with the shared settings plus `env`; resolves once it listens. */
async function startProcess(
  name: string,
  shared: Record<string, string>,
  env: Record<string, string>,
  root: string,
): Promise<SiteProcess> {
  const mediaDir = join(root, name, 'media');
  const child = spawn(process.execPath, serverArguments(), {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...shared,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DEMO: '0',
      API_CHECK_RESPONSES: '1',
      DATABASE_POOL_KEPT: '2',
      DATA_DIR: join(root, name, 'data'),
      MEDIA_DIR: mediaDir,
      UPLOAD_DIR: join(root, name, 'uploads'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        logs.push(record);
        if (record.msg === 'listening') resolve(String(record.url).replace(/\/$/, ''));
      } catch {
        // not a log record
      }
    });
    void exited.then(() => reject(new Error(`${name} exited before listening: ${stderr.slice(-1000)}`)));
  });
  return { name, child, baseUrl, mediaDir, logs, exited };
}

/** The harness's view of one process (for the media helpers), over the test's own connection. */
const asServer = (
  site: SiteProcess,
  db: TestServer['db'],
): Omit<TestServer, 'bus' | 'services' | 'caches' | 'repositories'> => ({
  baseUrl: site.baseUrl,
  api: (path, init) => fetch(`${site.baseUrl}/api/${path.replace(/^\//, '')}`, init),
  db,
  close: async () => {},
});

/** Every file under a folder (the processes' own MEDIA_DIRs must stay empty). */
async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const json = (body: unknown, cookie: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', Cookie: cookie },
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'two web and two worker processes over PostgreSQL and one bucket',
  () => {
    useVideoFixtures();
    let root = '';
    let s3: TestS3;
    let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
    let db: TestServer['db'];
    let closeDb: () => Promise<void>;
    const sites: SiteProcess[] = [];
    let web1: Omit<TestServer, 'bus' | 'services' | 'caches' | 'repositories'>;
    let web2: Omit<TestServer, 'bus' | 'services' | 'caches' | 'repositories'>;
    let workers: SiteProcess[];

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'kiraboshi-scale-'));
      s3 = await startS3Server();
      database = await freshPostgresDatabase();
      const opened = await openDatabase({ databaseUrl: database.url });
      db = opened.db;
      closeDb = opened.close;
      await migrateToLatest(db);
      const shared = { ...s3.env, DATABASE_URL: database.url, MEDIA_STORE: 's3', S3_MEDIA_PREFIX: MEDIA_PREFIX };
      const started = await Promise.all([
        startProcess('web1', shared, { WORKER: '0' }, root),
        startProcess('web2', shared, { WORKER: '0' }, root),
        startProcess('worker1', shared, { SERVE_SITE: '0' }, root),
        startProcess('worker2', shared, { SERVE_SITE: '0' }, root),
      ]);
      sites.push(...started);
      web1 = asServer(started[0], db);
      web2 = asServer(started[1], db);
      workers = started.slice(2);
    }, 120_000);

    afterAll(async () => {
      for (const site of sites) {
        site.child.kill('SIGTERM');
        await site.exited;
      }
      await closeDb?.();
      await database?.drop();
      await s3?.close();
      await rm(root, { recursive: true, force: true });
    });

    /** Commits a video over the media through `site` and has an administrator approve it there. */
    async function approvedVideo(
      site: Omit<TestServer, 'bus' | 'services' | 'caches' | 'repositories'>,
      cookie: string,
      mediaId: string,
      title: string,
    ): Promise<number> {
      const committed = await site.api(
        'video/upload',
        json(
          {
            title,
            description: '',
            videoPart: [{ mediaId, videoPartTitle: 'P1' }],
            videoCategory: 'anime',
            copyright: 'original',
            ensureOriginal: true,
          },
          cookie,
        ),
      );
      expect(committed.status).toBe(200);
      const { videoId } = (await committed.json()) as { videoId: number };
      const admin = await member(site, `Admin${videoId}`, ['administrator']);
      expect((await site.api('video/pending/approved', json({ videoId }, admin))).status).toBe(200);
      return videoId;
    }

    it(
      'transcodes an upload made through web 1 on a worker, and web 2 serves its page, playlists and segments from the bucket',
      async () => {
        const cookie = await member(web1, 'Scaler');
        const mediaId = await upload(web1, cookie, await makeVideo(3, 'scale.mp4', '640x360'));
        expect(await statusOf(web2, cookie, mediaId)).toMatchObject({ status: 'ready', renditions: [360] });

        // Not yet in an approved video: its uploader only, and never for a shared cache.
        const privatePath = `/media/${hlsPath(mediaId)}/master.m3u8`;
        expect((await fetch(`${web2.baseUrl}${privatePath}`)).status).toBe(404);
        const own = await fetch(`${web2.baseUrl}${privatePath}`, { headers: { Cookie: cookie } });
        expect(own.status).toBe(200);
        expect(own.headers.get('cache-control')).toMatch(/^private/);

        // Approved through web 1: web 2, which had the media's access cached as private, is told at once.
        const videoId = await approvedVideo(web1, cookie, mediaId, '横向扩展');
        const page = await fetch(`${web2.baseUrl}/video/kv${videoId}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('横向扩展');

        const master = await fetch(`${web2.baseUrl}/media/videos/${videoId}/master.m3u8`);
        expect(master.status).toBe(200);
        expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
        const rendition = (await master.text()).split('\n').find((line) => line.endsWith('.m3u8'))!;
        const playlist = await (await fetch(`${web2.baseUrl}/media/videos/${videoId}/${rendition}`)).text();
        const firstSegment = playlist.split('\n').find((line) => line.endsWith('.m4s'))!;
        const segmentUrl = `${web2.baseUrl}/media/videos/${videoId}/${rendition.replace(/index\.m3u8$/, '')}${firstSegment}`;
        const segment = await fetch(segmentUrl);
        expect(segment.status).toBe(200);
        // Through the video's address for an hour (it follows the video's first part); by its own path, forever.
        expect(segment.headers.get('cache-control')).toBe('public, max-age=3600');
        const direct = await fetch(`${web2.baseUrl}/media/${hlsPath(mediaId)}/360p/${firstSegment}`);
        expect(direct.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        const bytes = Buffer.from(await segment.arrayBuffer());
        expect(bytes.equals(await storedObject(s3, `${MEDIA_PREFIX}${hlsPath(mediaId)}/360p/${firstSegment}`))).toBe(
          true,
        );
        // Players and CDNs ask for ranges; a repeated request revalidates by the bucket's ETag.
        const range = await fetch(segmentUrl, { headers: { Range: 'bytes=0-99' } });
        expect(range.status).toBe(206);
        expect((await range.arrayBuffer()).byteLength).toBe(100);
        expect((await fetch(segmentUrl, { headers: { 'If-None-Match': segment.headers.get('etag')! } })).status).toBe(
          304,
        );
        expect((await fetch(`${web2.baseUrl}/media/${hlsPath(mediaId)}/poster.jpg`)).headers.get('content-type')).toBe(
          'image/jpeg',
        );

        // No process wrote a served file to its own disk.
        for (const site of sites) expect(await filesIn(site.mediaDir)).toEqual([]);
      },
      TRANSCODING_MS,
    );

    it('shows a comment and a danmaku posted through web 2 on web 1 at once', async () => {
      const cookie = await member(web1, 'Talker');
      const mediaId = await upload(web1, cookie, await makeVideo(2, 'talk.mp4'));
      await statusOf(web1, cookie, mediaId);
      const videoId = await approvedVideo(web2, cookie, mediaId, '评论');
      // Web 1 has the (empty) danmaku answer cached before the send.
      expect((await (await web1.api(`video/danmaku?videoId=${videoId}`)).json()).danmaku).toEqual([]);

      const comment = await web2.api('video/comment/emit', json({ videoId, text: '<p>从二号进程发出</p>' }, cookie));
      expect(comment.status).toBe(200);
      const comments = await (
        await web1.api(`video/comment?videoId=${videoId}`, { headers: { Cookie: cookie } })
      ).json();
      expect(comments.videoCommentList.map((c: { text: string }) => c.text)).toEqual(['<p>从二号进程发出</p>']);

      const sent = await web2.api(
        'video/danmaku/emit',
        json(
          { videoId, time: 1, text: '弹幕', color: 'ffffff', fontSize: 'medium', mode: 'rtl', enableRainbow: false },
          cookie,
        ),
      );
      expect(sent.status).toBe(200);
      await expect
        .poll(
          async () =>
            (await (await web1.api(`video/danmaku?videoId=${videoId}`)).json()).danmaku.map(
              (d: { text: string }) => d.text,
            ),
          { interval: 50 },
        )
        .toEqual(['弹幕']);
    }, 60_000);

    it('forgets the page web 1 keeps for guests when the video is edited and approved through web 2', async () => {
      const uploader = await member(web1, 'KeptAcross');
      const reviewer = await member(web2, 'ReviewerAcross', ['administrator']);
      const videoId = await insertVideo(web1 as TestServer, uploader, 60_000);
      await db.updateTable('videos').set({ title: '一号进程的旧标题' }).where('video_id', '=', videoId).execute();
      const guestPage = () => fetch(`${web1.baseUrl}/en/video/kv${videoId}`);
      await guestPage();
      const kept = await guestPage();
      expect(kept.headers.get('x-cache')).toBe('HIT');
      expect(await kept.text()).toContain('一号进程的旧标题');
      // The edit sends the video back to review, and the approval brings it back: both through web 2.
      expect((await web2.api('video/update', json({ videoId, title: '二号进程的新标题' }, uploader))).status).toBe(200);
      expect((await web2.api('video/pending/approved', json({ videoId }, reviewer))).status).toBe(200);
      // The notice travels over PostgreSQL's NOTIFY: web 1 forgets its copy within milliseconds.
      await expect
        .poll(async () => (await (await guestPage()).text()).includes('二号进程的新标题'), {
          interval: 50,
          timeout: 10_000,
        })
        .toBe(true);
      expect(await (await guestPage()).text()).not.toContain('一号进程的旧标题');
    }, 60_000);

    it('tells a member whose bell listens on web 1 of a like given through web 2, within the one-second window of likes', async () => {
      const uploader = await member(web1, 'Belled');
      const fan = await member(web2, 'Liker');
      const videoId = await insertVideo(web1 as TestServer, uploader, 60_000);
      const bell = await SseClient.open(`${web1.baseUrl}/api/notification/live`, { headers: { Cookie: uploader } });
      expect(bell.status).toBe(200);
      const unread = () =>
        bell.events
          .filter((e) => e.event === 'unread')
          .map((e) => (JSON.parse(e.data) as { unreadCount: number }).unreadCount);
      await bell.until(() => unread().length > 0);
      expect(unread()).toEqual([0]);
      // The like is written through web 2; the count travels to web 1 over the shared bus (PostgreSQL's NOTIFY).
      expect((await web2.api('video/like', json({ videoId, mediaType: 'video' }, fan))).status).toBe(200);
      await bell.until(() => unread().at(-1) === 1);
      bell.close();
    }, 60_000);

    it(
      'leaves the transcode of a worker killed mid-job to the other worker, which completes it',
      async () => {
        const cookie = await member(web1, 'Survivor');
        const mediaId = await upload(web1, cookie, await makeVideo(12, 'killed.mp4', '1280x720'));
        // The worker that publishes the first rung is the one holding the transcode: killed there.
        let holder: SiteProcess | undefined;
        await expect
          .poll(
            () =>
              (holder = workers.find((w) =>
                w.logs.some((r) => r.msg === 'rendition published' && r.mediaId === mediaId),
              )),
            { timeout: TRANSCODING_MS, interval: 50 },
          )
          .toBeTruthy();
        holder!.child.kill('SIGKILL');
        await holder!.exited;
        const survivor = workers.find((w) => w !== holder)!;
        expect(await statusOf(web2, cookie, mediaId, ['playable', 'ready', 'failed'])).toMatchObject({
          renditions: [360],
        });

        // The dead worker's lease runs out (JOB_LEASE_MS); here its end is brought forward instead of waited for.
        await sql`UPDATE jobs SET locked_until = now() WHERE status = 'running' AND payload->>'mediaId' = ${mediaId}`.execute(
          db,
        );
        expect(await statusOf(web1, cookie, mediaId)).toMatchObject({ status: 'ready', renditions: [360, 720] });
        expect(
          survivor.logs.some((r) => r.msg === 'rendition published' && r.mediaId === mediaId && r.height === 720),
        ).toBe(true);
        const jobs = await db
          .selectFrom('jobs')
          .select(['kind', 'status', 'attempts'])
          .where(sql`payload->>'mediaId'`, '=', mediaId)
          .orderBy('id')
          .execute();
        expect(jobs).toEqual([
          { kind: 'media.probe', status: 'done', attempts: 1 },
          { kind: 'media.transcode', status: 'done', attempts: 2 },
        ]);
      },
      TRANSCODING_MS * 2,
    );
  },
);
