/**
 * Resumable uploads kept in an S3-compatible bucket (S3_BUCKET set): the same tus endpoint, the
 * same rules, the same pipeline, over the real S3 protocol (see s3-server.ts for the server).
 * The restart case runs for both stores in uploads.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startTestServer, type TestServer } from './harness.ts';
import {
  makeVideo,
  member,
  statusOf,
  tusCreate,
  tusDelete,
  tusHead,
  tusPatch,
  upload,
  useVideoFixtures,
} from './media-helpers.ts';
import { startS3Server, storedObject, type TestS3 } from './s3-server.ts';
import { UPLOAD_EXPIRY_MS } from '../../server/media/uploads.ts';
import { scratchFolder } from '../../server/media/upload-store.ts';

const MiB = 1024 * 1024;
useVideoFixtures();

/** Every object key in the bucket, and the keys of its unfinished multipart uploads. */
async function bucketContents(s3: TestS3) {
  const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  const multipart = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
  return {
    objects: (objects.Contents ?? []).map((o) => o.Key!).sort(),
    multipart: (multipart.Uploads ?? []).map((u) => u.Key!),
  };
}

/** Files left anywhere under a folder (temporary copies must not stay). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

const idOf = (location: string) => location.split('/').at(-1)!;

describe('resumable uploads into an S3-compatible bucket', () => {
  let s3: TestS3;
  let server: TestServer;
  let uploadDir = '';
  beforeAll(async () => {
    s3 = await startS3Server();
    uploadDir = await mkdtemp(join(tmpdir(), 'kiraboshi-s3-scratch-'));
    server = await startTestServer('pglite', {
      env: { ...s3.env, UPLOAD_DIR: uploadDir, UPLOAD_MAX_BYTES: String(16 * MiB) },
    });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    await rm(uploadDir, { recursive: true, force: true });
  });

  it('takes an upload in pieces into the bucket and answers the media id at the last byte', async () => {
    const cookie = await member(server, 'BucketUploader');
    const bytes = new Uint8Array(randomBytes(11 * MiB));
    const created = await tusCreate(server, cookie, bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    // 6 MiB becomes a multipart part; 2 MiB is below S3's 5 MiB part minimum and waits aside.
    expect((await tusPatch(server, location, cookie, 0, bytes.subarray(0, 6 * MiB))).headers.get('upload-offset')).toBe(
      String(6 * MiB),
    );
    expect(
      (await tusPatch(server, location, cookie, 6 * MiB, bytes.subarray(6 * MiB, 8 * MiB))).headers.get(
        'upload-offset',
      ),
    ).toBe(String(8 * MiB));
    expect((await tusHead(server, location, cookie)).headers.get('upload-offset')).toBe(String(8 * MiB));
    expect((await bucketContents(s3)).multipart).toContain(idOf(location));

    const last = await tusPatch(server, location, cookie, 8 * MiB, bytes.subarray(8 * MiB));
    expect(last.status).toBe(204);
    const mediaId = last.headers.get('stream-media-id')!;
    expect(mediaId).toMatch(/^[0-9a-f]{24}$/);
    expect(Buffer.compare(await storedObject(s3, idOf(location)), bytes)).toBe(0);
    const { objects, multipart } = await bucketContents(s3);
    expect(objects).toContain(idOf(location));
    expect(multipart).not.toContain(idOf(location));
    // Random bytes are no video: the probe fetched them from the bucket, refused them, and kept no copy.
    expect(await statusOf(server, cookie, mediaId)).toMatchObject({ status: 'rejected', reason: 'NOT_A_VIDEO' });
    expect(await filesUnder(uploadDir)).toEqual([]);
  });

  it('keeps what arrived of a chunk whose connection dropped, and resumes from there', async () => {
    const cookie = await member(server, 'BucketDropper');
    const bytes = new Uint8Array(randomBytes(8 * MiB));
    const location = (await tusCreate(server, cookie, bytes.length)).headers.get('location')!;
    // The client announces the whole file but goes away after 3 MiB (a pause, a lost network).
    const request = httpRequest(new URL(location, server.baseUrl), {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        Cookie: cookie,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length),
      },
    });
    request.on('error', () => {}); // the dropped connection itself
    await new Promise<void>((resolve) => request.write(bytes.subarray(0, 3 * MiB), () => resolve()));
    request.destroy();
    await expect
      .poll(async () => (await tusHead(server, location, cookie)).headers.get('upload-offset'), { timeout: 15_000 })
      .toBe(String(3 * MiB));
    expect((await bucketContents(s3)).objects).toContain(`${idOf(location)}.part`);
    const rest = await tusPatch(server, location, cookie, 3 * MiB, bytes.subarray(3 * MiB));
    expect(rest.status).toBe(204);
    expect(Buffer.compare(await storedObject(s3, idOf(location)), bytes)).toBe(0);
  });

  it('lets nobody but the owner see, resume or delete an upload, and the owner delete it', async () => {
    const owner = await member(server, 'BucketOwner');
    const other = await member(server, 'BucketOther');
    const location = (await tusCreate(server, owner, 2 * MiB)).headers.get('location')!;
    expect((await tusPatch(server, location, owner, 0, new Uint8Array(MiB))).headers.get('upload-offset')).toBe(
      String(MiB),
    );
    expect((await tusHead(server, location, other)).status).toBe(403);
    expect((await tusPatch(server, location, other, MiB, new Uint8Array(MiB))).status).toBe(403);
    expect((await tusDelete(server, location, other)).status).toBe(403);
    expect((await tusHead(server, location, owner)).headers.get('upload-offset')).toBe(String(MiB));

    expect((await tusDelete(server, location, owner)).status).toBe(204);
    const { objects, multipart } = await bucketContents(s3);
    expect(multipart).not.toContain(idOf(location));
    expect(objects.filter((key) => key.startsWith(idOf(location)))).toEqual([]);
  });

  it('refuses an upload larger than UPLOAD_MAX_BYTES before anything reaches the bucket', async () => {
    const cookie = await member(server, 'BucketGreedy');
    const before = await bucketContents(s3);
    const refused = await tusCreate(server, cookie, 16 * MiB + 1);
    expect(refused.status).toBe(413);
    expect(await bucketContents(s3)).toEqual(before);
  });

  it('processes a finished upload from the bucket into HLS and removes the local copy', async () => {
    const cookie = await member(server, 'BucketDirector');
    const mediaId = await upload(server, cookie, await makeVideo(2, 's3.mp4'));
    const status = await statusOf(server, cookie, mediaId);
    expect(status).toMatchObject({ status: 'ready', reason: null, width: 320, height: 240, renditions: [240] });
    expect(Math.abs(status.duration - 2000)).toBeLessThan(150);
    // Not in a video yet: its files are its uploader's (media-access.ts).
    const master = await fetch(server.baseUrl + status.manifestUrl, { headers: { Cookie: cookie } });
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('RESOLUTION=320x240');
    expect(await filesUnder(uploadDir)).toEqual([]);
  });
});

describe('an S3 store that cannot be used', () => {
  it('stops the start with a message naming the bucket', async () => {
    const s3 = await startS3Server();
    try {
      await expect(startTestServer('pglite', { env: { ...s3.env, S3_BUCKET: 'no-such-bucket' } })).rejects.toThrow(
        /the upload bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be used \(NoSuchBucket/,
      );
    } finally {
      await s3.close();
    }
  });
});

describe('abandoned uploads in an S3-compatible bucket', () => {
  it('are removed with their parts once expired, while recent and finished ones stay', async () => {
    const s3 = await startS3Server();
    const dataDir = await mkdtemp(join(tmpdir(), 'kiraboshi-s3-expiry-'));
    const env = { ...s3.env, DATA_DIR: dataDir, WORKER: '0' };
    try {
      const first = await startTestServer('pglite', { env });
      const cookie = await member(first, 'Abandoner');
      const finished = await tusCreate(first, cookie, MiB);
      expect((await tusPatch(first, finished.headers.get('location')!, cookie, 0, new Uint8Array(MiB))).status).toBe(
        204,
      );
      const abandoned = idOf((await tusCreate(first, cookie, 8 * MiB)).headers.get('location')!);
      // A multipart part and an incomplete part, then the uploader goes away.
      expect((await tusPatch(first, `/api/video/tus/${abandoned}`, cookie, 0, new Uint8Array(6 * MiB))).status).toBe(
        204,
      );
      expect((await tusPatch(first, `/api/video/tus/${abandoned}`, cookie, 6 * MiB, new Uint8Array(MiB))).status).toBe(
        204,
      );
      expect((await bucketContents(s3)).objects).toEqual(
        expect.arrayContaining([`${abandoned}.info`, `${abandoned}.part`]),
      );
      const recent = idOf((await tusCreate(first, cookie, 8 * MiB)).headers.get('location')!);
      // Time passes: the upload's record and the bucket's multipart upload both grow older than
      // the expiry (the clock itself cannot move: S3 signatures carry the real time).
      await first.db
        .updateTable('uploads')
        .set({ expires_at: new Date(Date.now() - 60_000) })
        .where('id', '=', abandoned)
        .execute();
      await s3.age(abandoned, UPLOAD_EXPIRY_MS + 60_000);
      await first.close();
      // Copies left behind by a version that kept them all in one folder: one from two days ago,
      // one that could still be in use (a process's own folder is swept by pid: scratch-sweep.test.ts).
      const scratch = join(scratchFolder(join(dataDir, 'uploads')), '..');
      await writeFile(join(scratch, 'left-behind'), 'x');
      await utimes(
        join(scratch, 'left-behind'),
        new Date(Date.now() - 48 * 3600_000),
        new Date(Date.now() - 48 * 3600_000),
      );
      await writeFile(join(scratch, 'in-use'), 'x');

      // The next start cleans up (as the hourly sweep of a running server would).
      const second = await startTestServer('pglite', { env });
      try {
        const { objects, multipart } = await bucketContents(s3);
        expect(multipart).toEqual([recent]);
        expect(objects.filter((key) => key.startsWith(abandoned))).toEqual([]);
        expect(objects).toEqual(expect.arrayContaining([idOf(finished.headers.get('location')!), `${recent}.info`]));
        expect(
          await second.db.selectFrom('uploads').select('id').where('id', '=', abandoned).executeTakeFirst(),
        ).toBeUndefined();
        expect((await tusHead(second, `/api/video/tus/${abandoned}`, cookie)).status).toBe(404);
        expect((await readdir(scratch)).filter((name) => !name.startsWith('w-'))).toEqual(['in-use']);
      } finally {
        await second.close();
      }
    } finally {
      await s3.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
