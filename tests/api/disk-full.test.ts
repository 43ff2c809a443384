/**
 * Disk trouble, on tiny size-limited file systems (tmpfs mounts) for the upload and media
 * folders: a full upload disk answers 507 STORAGE_FULL and keeps a whole prefix to resume from;
 * a read-only one refuses new uploads the same way; a full media disk fails the transcode job
 * visibly in the log, leaves no partial or half-written files, and the retry succeeds once
 * there is room. Needs root to mount (the suite runs as root here); skipped otherwise.
 * On PGlite and on PostgreSQL (a throwaway cluster of this file's own, port 4532).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { makeVideo, tusCreate, tusHead, tusPatch, upload, useVideoFixtures } from './media-helpers.ts';
import {
  canRunOwnPostgres,
  killLeftoverServers,
  scratchDir,
  seedDatabase,
  sha256,
  startOwnPostgres,
  startServerProcess,
  type OwnPostgres,
  type Seeded,
  type ServerProcess,
} from './fault-harness.ts';

useVideoFixtures();

/** Whether this process may mount a tmpfs (root in a sandbox that allows it). */
function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = spawnSync('sh', [
    '-c',
    'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; s=$?; rmdir "$d"; exit $s',
  ]);
  return probe.status === 0;
}
const mountable = canMount();

const mount = (dir: string, options: string) => {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mount failed: ${result.stderr}`);
};
const remount = (dir: string, mode: 'ro' | 'rw') => {
  const result = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`remount failed: ${result.stderr}`);
};

/** Fills a file system but for `leaveBytes`; answers the filler's path. */
async function fill(dir: string, leaveBytes: number): Promise<string> {
  const { bavail, bsize } = await statfs(dir);
  const filler = join(dir, 'filler');
  await writeFile(filler, Buffer.alloc(Math.max(0, bavail * bsize - leaveBytes)));
  return filler;
}

describe.each([
  { backend: 'pglite' as const, port: 0 },
  { backend: 'postgres' as const, port: 4532 },
])('a full or read-only disk on $backend', ({ backend, port }) => {
  const skip = !mountable || (backend === 'postgres' && !canRunOwnPostgres);
  let cluster: OwnPostgres | undefined;
  let root = '';
  let uploads = '';
  let media = '';
  let seeded: Seeded;
  let server: ServerProcess;
  let dataDir = '';

  beforeAll(async () => {
    if (skip) return;
    root = await scratchDir(`disk-${backend}`);
    uploads = join(root, 'uploads');
    media = join(root, 'media');
    await mkdir(uploads);
    await mkdir(media);
    mount(uploads, 'size=8m');
    mount(media, 'size=4m');
    dataDir = join(root, 'data');
    await mkdir(dataDir);
    // PGlite's data directory on a small disk of its own too.
    if (backend === 'pglite') mount(dataDir, 'size=64m');
    let databaseUrl: string | undefined;
    if (backend === 'postgres') {
      cluster = await startOwnPostgres(port);
      databaseUrl = await cluster.freshDatabase();
    }
    seeded = await seedDatabase(databaseUrl ? { databaseUrl } : { dataDir }, 2);
    server = await startServerProcess({
      DATA_DIR: dataDir,
      UPLOAD_DIR: uploads,
      MEDIA_DIR: media,
      JOB_RETRY_DELAY_MS: '300',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
  }, 120_000);
  afterAll(async () => {
    killLeftoverServers();
    await server?.exited;
    await cluster?.destroy();
    for (const dir of [uploads, media, join(root, 'data')]) if (root) spawnSync('umount', [dir]);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.skipIf(skip)(
    'a full upload disk: 507 STORAGE_FULL, the stored part is whole, the upload completes once there is room',
    async () => {
      const cookie = seeded.cookies[1];
      const filler = await fill(uploads, 1024 * 1024);
      const file = new Uint8Array(randomBytes(3 * 1024 * 1024));
      const created = await tusCreate(server.asTestServer(), cookie, file.length);
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      const refused = await fetch(new URL(location, server.baseUrl), {
        method: 'PATCH',
        body: file,
        headers: {
          'Tus-Resumable': '1.0.0',
          Cookie: cookie,
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
          'Accept-Language': 'fr',
        },
      });
      const body = await refused.json();
      expect([refused.status, body.code]).toEqual([507, 'STORAGE_FULL']);
      expect(body.message).toBe(
        'Le serveur manque d’espace de stockage et ne peut pas enregistrer ceci pour le moment. Veuillez réessayer plus tard.',
      );
      expect(server.logs.some((line) => line.level === 'error')).toBe(false);

      const offset = Number((await tusHead(server.asTestServer(), location, cookie)).headers.get('upload-offset'));
      expect(offset).toBeLessThan(file.length);
      const stored = await readFile(join(uploads, location.split('/').pop()!));
      expect(stored.length).toBe(offset);
      expect(sha256(stored)).toBe(sha256(file.subarray(0, offset)));

      await rm(filler);
      expect((await tusPatch(server.asTestServer(), location, cookie, offset, file.slice(offset))).status).toBe(204);
      expect(sha256(await readFile(join(uploads, location.split('/').pop()!)))).toBe(sha256(file));
    },
    60_000,
  );

  it.skipIf(skip)(
    'a read-only upload disk: new uploads are refused with 507, and taken again once it is writable',
    async () => {
      remount(uploads, 'ro');
      try {
        const refused = await tusCreate(server.asTestServer(), seeded.cookies[1], 1000);
        expect([refused.status, (await refused.json()).code]).toEqual([507, 'STORAGE_FULL']);
      } finally {
        remount(uploads, 'rw');
      }
      expect((await tusCreate(server.asTestServer(), seeded.cookies[1], 1000)).status).toBe(201);
    },
    30_000,
  );

  it.skipIf(skip)(
    'a full media disk: the transcode fails visibly and cleanly, and is retried into a whole video once there is room',
    async () => {
      const cookie = seeded.cookies[0];
      const filler = await fill(media, 32 * 1024);
      const mediaId = await upload(server.asTestServer(), cookie, await makeVideo(3, `full-${backend}.mp4`, '640x360'));
      const failed = await server.logLine((line) => line.msg === 'job failed' && line.kind === 'media.transcode');
      expect(failed).toMatchObject({ level: 'warn', attempt: 1, final: false });
      expect(failed.err.message).toMatch(/no space left on the media disk/);
      // Nothing partial or half-written is left to be served.
      const dir = join(media, 'hls', mediaId);
      expect((await readdir(dir).catch(() => [] as string[])).filter((name) => name !== 'poster.jpg')).toEqual([]);
      const status = await (
        await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: cookie } })
      ).json();
      expect(status.status).toBe('transcoding');
      // An avatar (a picture big enough not to fit) on the same full disk: 507, and no file left.
      const { result: grant } = await (
        await server.api('user/avatar/preUpload', { headers: { Cookie: cookie } })
      ).json();
      const form = new FormData();
      const noise = await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
        .jpeg({ quality: 100 })
        .toBuffer();
      form.set('file', new Blob([new Uint8Array(noise)], { type: 'image/jpeg' }), 'avatar.jpg');
      const avatar = await fetch(grant.signedUrl, { method: 'POST', body: form });
      expect([avatar.status, (await avatar.json()).code]).toEqual([507, 'STORAGE_FULL']);
      expect(await readdir(join(media, 'images', 'avatars')).catch(() => [])).toEqual([]);

      await rm(filler);
      const deadline = Date.now() + 60_000;
      let final = '';
      while (!['ready', 'failed'].includes(final) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        final = (
          await (await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: cookie } })).json()
        ).status;
      }
      expect(final).toBe('ready');
      const master = await readFile(join(dir, 'master.m3u8'), 'utf8');
      expect(master).toContain('360p/index.m3u8');
      expect((await readFile(join(dir, '360p', 'index.m3u8'), 'utf8')).trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
      expect((await readdir(dir)).filter((name) => name.includes('.partial-') || name.endsWith('.tmp'))).toEqual([]);
    },
    90_000,
  );

  it.skipIf(skip || backend !== 'pglite')(
    'a full DATA_DIR (PGlite): writes are refused with 507, what was stored stays, and writes go through once there is room',
    async () => {
      const { videoId, cookies } = seeded;
      const comment = (text: string, cookie: string) =>
        server.api('video/comment/emit', {
          method: 'POST',
          body: JSON.stringify({ videoId, text }),
          headers: { 'Content-Type': 'application/json', Cookie: cookie, 'Accept-Language': 'ko' },
        });
      expect((await comment('자리가 있을 때', cookies[0])).status).toBe(200);
      const filler = await fill(dataDir, 4096);
      const answers: Array<[number, string]> = [];
      // Text that does not compress, so that each comment needs new pages (10 a minute per member).
      for (let i = 0; i < 19 && !answers.some(([status]) => status === 507); i++) {
        const answer = await comment(randomBytes(4000).toString('base64'), cookies[i % 2]);
        answers.push([answer.status, (await answer.json()).message]);
      }
      expect(answers.filter(([status]) => status !== 200 && status !== 507)).toEqual([]);
      expect(answers.at(-1)).toEqual([
        507,
        '서버 저장 공간이 부족해 지금은 저장할 수 없습니다. 잠시 후 다시 시도해 주세요.',
      ]);
      expect(server.logs.some((line) => line.level === 'error')).toBe(false);
      await rm(filler);
      expect((await comment('다시 자리가 생겼다', cookies[1])).status).toBe(200);
      const texts = (
        (await (await server.api(`video/comment?videoId=${videoId}&pageSize=50`)).json()).videoCommentList as Array<{
          text: string;
        }>
      ).map((c) => c.text);
      expect(texts).toEqual(expect.arrayContaining(['자리가 있을 때', '다시 자리가 생겼다']));
    },
    60_000,
  );
});
