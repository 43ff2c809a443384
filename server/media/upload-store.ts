import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Upload, type DataStore } from '@tus/server';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { S3UploadConfig } from '../config.ts';
import { clearInterruptedWork } from './hls.ts';

/** How long an unfinished upload is kept (tus Upload-Expires). */
export const UPLOAD_EXPIRY_MS = 3600_000;

/**
 * Where resumable uploads live: files under UPLOAD_DIR, or an S3-compatible bucket. This is the
 * one place that knows which; the tus server, the media jobs and the demo seed only see this.
 */
export interface UploadStore {
  kind: 'file' | 's3';
  /** The tus data store (its own expiration: an unfinished upload lasts UPLOAD_EXPIRY_MS). */
  datastore: DataStore;
  /**
   * Runs `work` with the finished upload as a local file, for ffprobe and ffmpeg. From S3 it is
   * streamed to a temporary file under UPLOAD_DIR, removed when `work` ends, however it ends.
   */
  withLocalFile<T>(uploadId: string, work: (path: string) => Promise<T>): Promise<T>;
  /** Stores a local file as a finished upload (the demo catalogue's clips). */
  adopt(uploadId: string, file: string, metadata: Record<string, string>): Promise<void>;
}

export async function createUploadStore(options: { directory: string; s3?: S3UploadConfig }): Promise<UploadStore> {
  const { directory, s3 } = options;
  await mkdir(directory, { recursive: true });
  // What a killed predecessor on this machine left (a source copy, a half-made rung) goes first.
  await sweepDeadProcessesScratch(scratchRoot(directory), { atStart: true });
  if (!s3) {
    const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
    return {
      kind: 'file',
      datastore,
      withLocalFile: (uploadId, work) => work(join(directory, uploadId)),
      adopt: (uploadId, file, metadata) => storeThrough(datastore, uploadId, file, metadata),
    };
  }
  const scratch = scratchFolder(directory);
  await mkdir(scratch, { recursive: true });
  const datastore = new S3UploadStore(scratch, {
    // No object tags: Garage and other self-hosted servers lack them, and expiry does not need
    // them (deleteExpired aborts stale multipart uploads and removes their .info/.part objects).
    useTags: false,
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
    s3ClientConfig: {
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: s3.credentials,
      forcePathStyle: s3.forcePathStyle,
      // Checksums only where S3 demands them: newer SDKs otherwise send every part aws-chunked
      // with a trailing CRC, which several S3-compatible servers store or refuse as is.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    },
  });
  await datastore.assertUsable(s3.endpoint);
  return {
    kind: 's3',
    datastore,
    async withLocalFile(uploadId, work) {
      const path = join(scratch, `${uploadId}.${randomBytes(4).toString('hex')}`);
      try {
        await mkdir(scratch, { recursive: true });
        await pipeline(await datastore.read(uploadId), createWriteStream(path));
        return await work(path);
      } finally {
        await rm(path, { force: true });
      }
    },
    adopt: (uploadId, file, metadata) => storeThrough(datastore, uploadId, file, metadata),
  };
}

const scratchRoot = (uploadDir: string) => join(uploadDir, 'from-s3');
/** Host names as they may appear in a folder name. */
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

/**
 * With S3, where this process's jobs make their temporary files (copies of finished uploads,
 * the rungs and images being made before they go to the bucket): a folder of its own under
 * UPLOAD_DIR/from-s3, named by host and pid, so that processes sharing the disk never take each
 * other's files, and a later start can tell a killed process's leftovers from a live one's.
 */
export const scratchFolder = (uploadDir: string) => join(scratchRoot(uploadDir), `w-${HOST}-${process.pid}`);

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the scratch folders of processes of this machine that are gone (killed, crashed, the
 * machine restarted), first killing an ffmpeg such a process left running there. At start this
 * process's own pid is a predecessor's too (a container restarts with the same pid), since its
 * own folder does not exist yet; later it is skipped. Other machines' folders (a shared disk) are
 * left to them, and removed only when untouched for STALE_COPY_MS. Answers how many went.
 */
export async function sweepDeadProcessesScratch(root: string, options: { atStart: boolean }): Promise<number> {
  let removed = 0;
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const match = /^w-(.+)-(\d+)$/.exec(name);
    if (!match || match[1] !== HOST) continue;
    const pid = Number(match[2]);
    if (pid === process.pid ? !options.atStart : isAlive(pid)) continue;
    const folder = join(root, name);
    for (const media of await readdir(join(folder, 'media')).catch(() => [] as string[]))
      await clearInterruptedWork(join(folder, 'media', media));
    await rm(folder, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** A local copy older than this is a leftover of a process that was killed while it worked. */
const STALE_COPY_MS = 24 * 3600_000;

class S3UploadStore extends S3Store {
  /** Where finished uploads are copied for ffmpeg (withLocalFile). */
  readonly scratch: string;

  constructor(scratch: string, options: ConstructorParameters<typeof S3Store>[0]) {
    super(options);
    this.scratch = scratch;
  }

  /** The store's own expiry, then what killed processes left behind (see sweepDeadProcessesScratch). */
  override async deleteExpired(): Promise<number> {
    const removed = await super.deleteExpired();
    const root = join(this.scratch, '..');
    await sweepDeadProcessesScratch(root, { atStart: false });
    const cutoff = Date.now() - STALE_COPY_MS;
    for (const name of await readdir(root)) {
      if (join(root, name) === this.scratch) continue;
      const path = join(root, name);
      const modified = (await stat(path).catch(() => null))?.mtimeMs;
      if (modified !== undefined && modified < cutoff) await rm(path, { force: true });
    }
    return removed;
  }

  /** @tus/s3-store's termination leaves the incomplete part (`{id}.part`) in the bucket. */
  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await this.deleteIncompletePart(id);
  }

  /**
   * Refuses to start on a bucket these settings cannot use, rather than failing the first
   * upload. Listing multipart uploads needs no permission the store does not need anyway.
   */
  async assertUsable(endpoint: string | undefined): Promise<void> {
    try {
      await this.client.listMultipartUploads({ Bucket: this.bucket, MaxUploads: 1 });
    } catch (error) {
      const reason =
        (error as Error).name === 'Error'
          ? (error as Error).message
          : `${(error as Error).name}: ${(error as Error).message}`;
      throw new Error(
        `the upload bucket "${this.bucket}" at ${endpoint ?? 'AWS S3'} cannot be used (${reason}); check S3_ENDPOINT, S3_BUCKET and the keys`,
      );
    }
  }
}

/** A whole local file written as one finished tus upload, through the store's own protocol. */
async function storeThrough(
  datastore: DataStore,
  id: string,
  file: string,
  metadata: Record<string, string>,
): Promise<void> {
  const { size } = await stat(file);
  await datastore.create(new Upload({ id, size, offset: 0, metadata }));
  await datastore.write(createReadStream(file) as Readable, id, 0);
}
