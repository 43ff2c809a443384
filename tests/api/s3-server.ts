/**
 * A real S3-compatible server inside the test process: s3rver answers the S3 HTTP protocol
 * (signed requests, XML bodies, multipart uploads) over a scratch folder. It is the only S3
 * server that can run here: MinIO, Garage and the like are binaries that cannot be fetched.
 *
 * s3rver (3.7, and its @20minutes fork alike) lacks three multipart calls that @tus/s3-store
 * makes: ListParts (the offset of an upload), AbortMultipartUpload (termination, expiry) and
 * ListMultipartUploads (finding expired uploads). They are answered below, in front of s3rver's
 * router, from s3rver's own record of each multipart upload (a folder per upload id holding
 * the object key and one file per part), with the XML and error codes S3 documents.
 */
import { mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import S3Error from 's3rver/lib/models/error.js';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';

const BUCKET = 'kiraboshi-uploads';
// s3rver's default key pair; it checks every signature against it.
const KEY = 'S3RVER';

export interface TestS3 {
  /** The S3_* settings that point the server at this bucket. */
  env: Record<string, string>;
  bucket: string;
  /** An SDK client for looking into the bucket. */
  client: S3Client;
  /** Makes the unfinished multipart upload of `key` `ms` older, as S3 reports when it began. */
  age: (key: string, ms: number) => Promise<void>;
  close: () => Promise<void>;
}

export async function startS3Server(): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'kiraboshi-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  // Before the router (the last middleware), after s3rver's XML encoding and error handling.
  server.middleware.splice(server.middleware.length - 1, 0, multipartCalls(directory));
  const uploadsDir = uploadsFolder(directory, BUCKET);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
  });
  return {
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: KEY, S3_SECRET_ACCESS_KEY: KEY },
    bucket: BUCKET,
    client,
    age: async (key, ms) => {
      for (const id of await readdir(uploadsDir)) {
        const keyFile = join(uploadsDir, id, 'key');
        if ((await readFile(keyFile, 'utf8')) !== key) continue;
        const then = new Date((await stat(keyFile)).mtimeMs - ms);
        await utimes(keyFile, then, then);
      }
    },
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** An object's bytes, read back through the S3 API. */
export async function storedObject(s3: TestS3, key: string): Promise<Buffer> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
}

/** Where s3rver keeps a bucket's multipart uploads: a folder per upload id. */
const uploadsFolder = (directory: string, bucket: string) => join(directory, bucket, '._S3rver_uploads');

/** ListParts, AbortMultipartUpload and ListMultipartUploads over s3rver's upload folders. */
function multipartCalls(directory: string) {
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );
  const noSuchUpload = (uploadId: string) =>
    new S3Error('NoSuchUpload', 'The specified upload does not exist.', { UploadId: uploadId });

  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const [bucket, ...keyParts] = ctx.path.slice(1).split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
    const uploadId = ctx.query.uploadId;
    const handled =
      (key && uploadId && (ctx.method === 'GET' || ctx.method === 'DELETE')) ||
      (!key && ctx.method === 'GET' && 'uploads' in ctx.query);
    if (!handled) return next();
    if (!(await exists(join(directory, bucket))))
      throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
    const uploadsDir = uploadsFolder(directory, bucket);
    if (uploadId) {
      const folder = join(uploadsDir, uploadId);
      if (!(await exists(folder))) throw noSuchUpload(uploadId);
      if (ctx.method === 'DELETE') {
        await rm(folder, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      const names = (await readdir(folder))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .sort((a, b) => a - b);
      const parts = await Promise.all(
        names.map(async (number) => {
          const file = join(folder, String(number));
          const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
          return {
            PartNumber: number,
            LastModified: info.mtime.toISOString(),
            ETag: JSON.stringify(md5),
            Size: info.size,
          };
        }),
      );
      ctx.body = {
        ListPartsResult: {
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          MaxParts: 10000,
          IsTruncated: false,
          Part: parts,
        },
      };
      return;
    }
    const ids = (await exists(uploadsDir)) ? await readdir(uploadsDir) : [];
    const uploads = await Promise.all(
      ids.map(async (id) => {
        const keyFile = join(uploadsDir, id, 'key');
        // When the upload began: s3rver writes this file then; age() moves it back.
        return {
          Key: await readFile(keyFile, 'utf8'),
          UploadId: id,
          Initiated: (await stat(keyFile)).mtime.toISOString(),
        };
      }),
    );
    ctx.body = {
      ListMultipartUploadsResult: { Bucket: bucket, MaxUploads: 1000, IsTruncated: false, Upload: uploads },
    };
  };
}
