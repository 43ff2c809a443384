/**
 * `npm run cli -- media:to-s3`: an existing media folder copied into the bucket (s3rver), with a
 * dry run, resumable after a stop, idempotent; the media store then serves the same bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeleteObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startS3Server, storedObject, type TestS3 } from './s3-server.ts';
import { createMediaStore, type MediaStore } from '../../server/media/media-store.ts';
import { copyMediaFolder } from '../../server/media/copy-media.ts';

const FILES: Record<string, string> = {
  'hls/0123456789abcdef01234567/master.m3u8': '#EXTM3U\n360p/index.m3u8\n',
  'hls/0123456789abcdef01234567/360p/index.m3u8': '#EXTM3U\nseg_0000.m4s\n',
  'hls/0123456789abcdef01234567/360p/init.mp4': 'init',
  'hls/0123456789abcdef01234567/360p/seg_0000.m4s': 'segment zero',
  'hls/0123456789abcdef01234567/poster.jpg': 'jpeg',
  'images/avatars/1-abc.webp': 'webp',
};

describe('media:to-s3', () => {
  let s3: TestS3;
  let folder = '';
  let store: MediaStore;
  const keysInBucket = async () =>
    ((await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'media/' }))).Contents ?? []).map((o) => o.Key!).sort();

  beforeAll(async () => {
    s3 = await startS3Server();
    folder = await mkdtemp(join(tmpdir(), 'kiraboshi-media-to-s3-'));
    for (const [key, text] of Object.entries(FILES)) {
      await mkdir(join(folder, key, '..'), { recursive: true });
      await writeFile(join(folder, key), text);
    }
    // The folder store's scratch and temporary files are not media.
    await mkdir(join(folder, '.scratch', 'x'), { recursive: true });
    await writeFile(join(folder, '.scratch', 'x', 'half.m4s'), 'half');
    const { S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = s3.env;
    store = await createMediaStore({
      directory: folder, scratchDirectory: join(folder, '..'),
      s3: { bucket: s3.bucket, endpoint, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey }, forcePathStyle: true, prefix: 'media/' },
    });
  });
  afterAll(async () => {
    await s3?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('says what it would copy in a dry run, and copies nothing', async () => {
    const report = await copyMediaFolder({ folder, store, dryRun: true });
    expect(report).toMatchObject({ files: 6, copied: 6, skipped: 0, refused: [] });
    expect(await keysInBucket()).toEqual([]);
  });

  it('copies every media file with progress, playlists last; a second run copies nothing', async () => {
    const seen: number[] = [];
    const report = await copyMediaFolder({ folder, store, onProgress: (p) => seen.push(p.done) });
    expect(report).toMatchObject({ files: 6, copied: 6, skipped: 0 });
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await keysInBucket()).toEqual(Object.keys(FILES).map((k) => `media/${k}`).sort());
    for (const [key, text] of Object.entries(FILES)) expect((await storedObject(s3, `media/${key}`)).toString()).toBe(text);
    expect(await copyMediaFolder({ folder, store })).toMatchObject({ copied: 0, skipped: 6 });
  });

  it('goes on after a stop: only what is missing or incomplete is copied again', async () => {
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'media/hls/0123456789abcdef01234567/360p/seg_0000.m4s' }));
    await store.put('images/avatars/1-abc.webp', 'we'); // a different size: copied again
    expect(await copyMediaFolder({ folder, store })).toMatchObject({ copied: 2, skipped: 4 });
    expect((await storedObject(s3, 'media/images/avatars/1-abc.webp')).toString()).toBe('webp');
  });

  it('runs from the command line with the S3_* settings', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/cli.ts', 'media:to-s3', '--from', folder, '--dry-run'], {
      env: { PATH: process.env.PATH, ...s3.env, DATA_DIR: join(folder, '..', 'cli-data') },
    });
    expect(stdout).toContain(`Dry run: would copy ${folder} to s3://${s3.bucket}/media/`);
    expect(stdout).toContain('6 files: 0 to copy (0.0 MiB), 6 already in the bucket.');
  });
});
