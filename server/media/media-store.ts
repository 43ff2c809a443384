/**
 * Where the files the site serves from uploads live: HLS playlists and segments, posters,
 * storyboards, avatars, covers (and any new kind of media file). One interface, two stores:
 * a folder (MEDIA_DIR, the embedded default) or an S3-compatible bucket (MEDIA_STORE=s3 with
 * the S3_* settings; docs/decisions/0009-scale-out.md). Code that writes or serves media only sees this.
 *
 * Keys are the paths under /media/ without the leading slash: `hls/<mediaId>/master.m3u8`,
 * `images/avatars/<file>.webp`. A key never starts with '.' or contains '..'.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3UploadConfig } from '../config.ts';
import { cacheControlFor, contentTypeFor, createStaticFiles } from '../site/static-files.ts';
import { preferredEncoding } from '../http/content-encoding.ts';

export interface MediaStore {
  kind: 'local' | 's3';
  /** Writes one file (replacing it atomically: a reader never sees half of it). */
  put(key: string, body: Buffer | string): Promise<void>;
  /** Publishes every file of a local folder under `prefix/`, then removes the folder. */
  publishFolder(prefix: string, folder: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Removes every file under a prefix (a refused or purged item's files). */
  removeAll(prefix: string): Promise<void>;
  /** A file's bytes, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** Every file under a prefix ('' for all), with its size. */
  list(prefix: string): AsyncIterable<{ key: string; size: number }>;
  /**
   * A private scratch folder for making files (ffmpeg writes there), removed when `work` ends.
   * In the folder store it is beside the media (a publish is a rename); never served.
   */
  withScratchFolder<T>(work: (folder: string) => Promise<T>): Promise<T>;
  /**
   * A named scratch folder (not created) for work that must find its own leftovers again, such as
   * a transcode killed midway whose next attempt clears what it left.
   */
  scratchPath(name: string): string;
  /** Answers GET or HEAD of a file (ETag, ranges, the path's cache policy); false when there is none. */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    extraHeaders?: Record<string, string>,
  ): Promise<boolean>;
}

export interface MediaStoreConfig {
  /** MEDIA_DIR: the folder store's root; unused by the S3 store. */
  directory: string;
  /** MEDIA_STORE=s3: the bucket (the S3_* settings); media go under `prefix`. */
  s3?: S3UploadConfig & { prefix: string };
  /** A local folder for temporary work (the S3 store's scratch). */
  scratchDirectory: string;
}

/** A key as given by a URL path or a caller: null when it could reach outside the store. */
export function safeKey(key: string): string | null {
  const parts = key.split('/');
  if (
    !key ||
    key.includes('\0') ||
    key.includes('\\') ||
    parts.some((p) => !p || p === '.' || p === '..' || p.startsWith('.'))
  )
    return null;
  return key;
}

const checkedKey = (key: string) => {
  if (safeKey(key) === null) throw new Error(`not a media key: ${JSON.stringify(key)}`);
  return key;
};

export async function createMediaStore(config: MediaStoreConfig): Promise<MediaStore> {
  return config.s3 ? createS3MediaStore(config.s3, config.scratchDirectory) : createFolderMediaStore(config.directory);
}

/** Every file under a local folder, as keys relative to it. */
async function* filesUnder(folder: string, base = folder): AsyncIterable<{ key: string; path: string; size: number }> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path, base);
    else if (entry.isFile())
      yield { key: relative(base, path).split(sep).join('/'), path, size: (await stat(path)).size };
  }
}
export { filesUnder as localFilesUnder };

/** Runs `work` in a fresh folder under `root`, removed when it ends, however it ends. */
async function inScratchFolder<T>(root: string, work: (folder: string) => Promise<T>): Promise<T> {
  const folder = join(root, randomBytes(8).toString('hex'));
  await mkdir(folder, { recursive: true });
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Playlists last: a player finds a playlist only once the segments it names are there. */
const publishOrder = (a: { key: string }, b: { key: string }) =>
  Number(a.key.endsWith('.m3u8')) - Number(b.key.endsWith('.m3u8')) ||
  Number(a.key.endsWith('master.m3u8')) - Number(b.key.endsWith('master.m3u8'));

function createFolderMediaStore(root: string): MediaStore {
  const serveFile = createStaticFiles(root);
  const pathOf = (key: string) => join(root, ...checkedKey(key).split('/'));
  const scratchRoot = join(root, '.scratch');
  return {
    kind: 'local',
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
      // Whole or not at all: on a full disk the partial file goes and the error (507) goes up.
      await writeFile(temporary, body).catch(async (error) => {
        await rm(temporary, { force: true });
        throw error;
      });
      await rename(temporary, path);
    },
    async publishFolder(prefix, folder) {
      const files = [];
      for await (const file of filesUnder(folder)) files.push(file);
      for (const file of files.sort(publishOrder)) {
        const path = pathOf(`${prefix}/${file.key}`);
        await mkdir(dirname(path), { recursive: true });
        await rename(file.path, path);
      }
      await rm(folder, { recursive: true, force: true });
    },
    exists: (key) =>
      stat(pathOf(key)).then(
        (info) => info.isFile(),
        () => false,
      ),
    removeAll: (prefix) => rm(pathOf(prefix), { recursive: true, force: true }),
    read: (key) =>
      readFile(pathOf(key)).catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' ? null : Promise.reject(error),
      ),
    async *list(prefix) {
      const base = prefix ? pathOf(prefix) : root;
      for await (const file of filesUnder(base)) {
        const key = prefix ? `${prefix}/${file.key}` : file.key;
        if (safeKey(key)) yield { key, size: file.size };
      }
    },
    withScratchFolder: (work) => inScratchFolder(scratchRoot, work),
    scratchPath: (name) => join(scratchRoot, checkedKey(name)),
    serve: (req, res, key, extraHeaders) =>
      safeKey(key) ? serveFile(req, res, `/${key}`, extraHeaders) : Promise.resolve(false),
  };
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** Kinds of media file that may have a brotli copy (`<key>.br`) beside them: the fonts kept for subtitles. */
const PRECOMPRESSED = new Set(['.ttf', '.otf', '.ttc']);

/** Files sent to the bucket at once when publishing a folder (segments of about 4 s each). */
const PUT_CONCURRENCY = 4;

function createS3MediaStore(s3: S3UploadConfig & { prefix: string }, scratchDirectory: string): MediaStore {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    credentials: s3.credentials,
    forcePathStyle: s3.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = s3.bucket;
  const objectKey = (key: string) => `${s3.prefix}${checkedKey(key)}`;
  // Stored with the object, so a CDN or browser reading the bucket directly gets the same policy.
  const headersOf = (key: string) => ({
    ContentType: contentTypeFor(extname(key)),
    CacheControl: cacheControlFor(`/${key}`),
  });
  const putObject = (key: string, Body: Buffer | string | Readable, ContentLength?: number) =>
    client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body, ContentLength, ...headersOf(key) }));

  return {
    kind: 's3',
    async put(key, body) {
      await putObject(key, body);
    },
    async publishFolder(prefix, folder) {
      const files = [];
      for await (const file of filesUnder(folder)) files.push(file);
      const playlists = files.filter((f) => f.key.endsWith('.m3u8')).sort(publishOrder);
      const rest = files.filter((f) => !f.key.endsWith('.m3u8'));
      for (let i = 0; i < rest.length; i += PUT_CONCURRENCY) {
        await Promise.all(
          rest
            .slice(i, i + PUT_CONCURRENCY)
            .map((f) => putObject(`${prefix}/${f.key}`, createReadStream(f.path), f.size)),
        );
      }
      for (const f of playlists) await putObject(`${prefix}/${f.key}`, await readFile(f.path));
      await rm(folder, { recursive: true, force: true });
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async removeAll(prefix) {
      const keys: string[] = [];
      for await (const file of this.list(prefix)) keys.push(file.key);
      for (let i = 0; i < keys.length; i += 1000) {
        await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: keys.slice(i, i + 1000).map((key) => ({ Key: objectKey(key) })) },
          }),
        );
      }
    },
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix: `${s3.prefix}${prefix ? `${checkedKey(prefix)}/` : ''}`,
            ContinuationToken,
          }),
        );
        for (const object of page.Contents ?? [])
          yield { key: object.Key!.slice(s3.prefix.length), size: object.Size ?? 0 };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    withScratchFolder: (work) => inScratchFolder(scratchDirectory, work),
    scratchPath: (name) => join(scratchDirectory, checkedKey(name)),
    /**
     * Proxied from the bucket (docs/decisions/0009-scale-out.md): the bucket stays private, the access rules
     * and cache headers are the web process's, and ranges and ETags pass through.
     */
    async serve(req, res, key, extraHeaders = {}) {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !safeKey(key)) return false;
      const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
      // A font kept for subtitles has a brotli copy beside it (server/media/subtitle-streams.ts): sent
      // as it is to a browser that takes brotli, as the folder store does, since the bucket is proxied
      // as stored (a CJK font is 2.5 MB plain, about half of that compressed). A font kept before has
      // none: then the plain one.
      const precompressed =
        !range && PRECOMPRESSED.has(extname(key)) && preferredEncoding(req.headers['accept-encoding']) === 'br';
      if (
        precompressed &&
        (await this.serve(req, res, `${key}.br`, {
          ...extraHeaders,
          'Content-Type': contentTypeFor(extname(key)),
          'Cache-Control': cacheControlFor(`/${key}`),
          'Content-Encoding': 'br',
          Vary: 'Accept-Encoding',
        }))
      )
        return true;
      const ifNoneMatch = req.headers['if-none-match'];
      let object;
      try {
        const input = {
          Bucket,
          Key: objectKey(key),
          Range: range,
          IfNoneMatch: typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined,
        };
        object =
          req.method === 'HEAD'
            ? await client.send(new HeadObjectCommand(input))
            : await client.send(new GetObjectCommand(input));
      } catch (error) {
        if (isMissing(error)) return false;
        const status = (error as S3ServiceException).$metadata?.httpStatusCode;
        if (status === 304 || status === 416) {
          res
            .writeHead(status, {
              'Cache-Control': cacheControlFor(`/${key}`),
              ...(status === 304 && typeof ifNoneMatch === 'string' ? { ETag: ifNoneMatch } : {}),
              ...extraHeaders,
            })
            .end();
          return true;
        }
        throw error;
      }
      const headers: Record<string, string> = {
        'Content-Type': contentTypeFor(extname(key)),
        'Cache-Control': cacheControlFor(`/${key}`),
        'X-Content-Type-Options': 'nosniff',
        'Accept-Ranges': 'bytes',
        ...(PRECOMPRESSED.has(extname(key)) ? { Vary: 'Accept-Encoding' } : {}),
        ...extraHeaders,
      };
      if (object.ETag) headers.ETag = object.ETag;
      if (object.ContentLength !== undefined) headers['Content-Length'] = String(object.ContentLength);
      if ('ContentRange' in object && object.ContentRange) headers['Content-Range'] = object.ContentRange;
      res.writeHead('ContentRange' in object && object.ContentRange ? 206 : 200, headers);
      const body = 'Body' in object ? (object.Body as Readable | undefined) : undefined;
      if (!body) {
        res.end();
        return true;
      }
      await pipeline(body, res).catch(() => res.destroy());
      return true;
    },
  };
}

/** Makes a local copy of a stored file (ffprobe reads files). */
export async function downloadTo(store: MediaStore, key: string, path: string): Promise<boolean> {
  const bytes = await store.read(key);
  if (!bytes) return false;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return true;
}
