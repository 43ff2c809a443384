/**
 * `npm run cli -- media:to-s3`: an existing media folder copied into the bucket (s3rver), with a
 * dry run, resumable after a stop, idempotent; the media store then serves the same bytes, and a
 * subtitle font's brotli copy to browsers that take it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
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
    ((await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'media/' }))).Contents ?? [])
      .map((o) => o.Key!)
      .sort();

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
      directory: folder,
      scratchDirectory: join(folder, '..'),
      s3: {
        bucket: s3.bucket,
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId, secretAccessKey },
        forcePathStyle: true,
        prefix: 'media/',
      },
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
    expect(await keysInBucket()).toEqual(
      Object.keys(FILES)
        .map((k) => `media/${k}`)
        .sort(),
    );
    for (const [key, text] of Object.entries(FILES))
      expect((await storedObject(s3, `media/${key}`)).toString()).toBe(text);
    expect(await copyMediaFolder({ folder, store })).toMatchObject({ copied: 0, skipped: 6 });
  });

  it('goes on after a stop: only what is missing or incomplete is copied again', async () => {
    await s3.client.send(
      new DeleteObjectCommand({ Bucket: s3.bucket, Key: 'media/hls/0123456789abcdef01234567/360p/seg_0000.m4s' }),
    );
    await store.put('images/avatars/1-abc.webp', 'we'); // a different size: copied again
    expect(await copyMediaFolder({ folder, store })).toMatchObject({ copied: 2, skipped: 4 });
    expect((await storedObject(s3, 'media/images/avatars/1-abc.webp')).toString()).toBe('webp');
  });

  it('runs from the command line with the S3_* settings', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['scripts/cli.ts', 'media:to-s3', '--from', folder, '--dry-run'],
      {
        env: { PATH: process.env.PATH, ...s3.env, DATA_DIR: join(folder, '..', 'cli-data') },
      },
    );
    expect(stdout).toContain(`Dry run: would copy ${folder} to s3://${s3.bucket}/media/`);
    expect(stdout).toContain('6 files: 0 to copy (0.0 MiB), 6 already in the bucket.');
  });

  it('serves a subtitle font’s brotli copy from the bucket to a browser that takes brotli, and the font itself otherwise', async () => {
    const font = Buffer.from('a font kept for an ASS track, '.repeat(200));
    await store.put('hls/0123456789abcdef01234567/fonts/1.ttf', font);
    await store.put('hls/0123456789abcdef01234567/fonts/1.ttf.br', brotliCompressSync(font));
    // Kept before its copy was made: no .br beside it.
    await store.put('hls/0123456789abcdef01234567/fonts/2.ttf', font);
    const server = createServer(
      (req, res) => void store.serve(req, res, req.url!.slice(1)).then((found) => found || res.writeHead(404).end()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hls/0123456789abcdef01234567/fonts`;
    // Raw bytes as sent (fetch would undo the encoding on its own).
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${base}/${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res
            .on('data', (chunk: Buffer) => chunks.push(chunk))
            .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
            .on('error', reject);
        }).on('error', reject);
      });
    try {
      const compressed = await get('1.ttf', { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(compressed.status).toBe(200);
      expect(compressed.headers).toMatchObject({
        'content-type': 'font/ttf',
        'content-encoding': 'br',
        vary: 'Accept-Encoding',
        'content-length': String(compressed.body.length),
      });
      expect(compressed.body.length).toBeLessThan(font.length / 10);
      expect(brotliDecompressSync(compressed.body).equals(font)).toBe(true);
      // Asked again with its ETag: 304.
      expect((await get('1.ttf', { 'Accept-Encoding': 'br', 'If-None-Match': compressed.headers.etag! })).status).toBe(
        304,
      );
      for (const [path, headers] of [
        ['1.ttf', { 'Accept-Encoding': 'gzip' }],
        ['2.ttf', { 'Accept-Encoding': 'br' }],
      ] as const) {
        const plain = await get(path, headers);
        expect(plain.status).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers['content-type']).toBe('font/ttf');
        expect(plain.body.equals(font)).toBe(true);
      }
      // A range is of the font itself.
      const part = await get('1.ttf', { 'Accept-Encoding': 'br', Range: 'bytes=0-9' });
      expect(part.status).toBe(206);
      expect(part.headers['content-encoding']).toBeUndefined();
      expect(part.body.equals(font.subarray(0, 10))).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
