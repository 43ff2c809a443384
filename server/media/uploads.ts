import { randomBytes } from 'node:crypto';
import { Server, MemoryLocker, type Upload } from '@tus/server';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import { viewerFromCookies } from '../services/sessions.ts';
import { isBlocked, isStaff } from '../auth/roles.ts';
import { localMessage } from '../app/request-locale.ts';
import { MESSAGE_KEY } from '../app/errors.ts';
import type { ErrorCode } from '../../src/lib/api/contract.ts';
import { registerUploadedMedia } from './pipeline.ts';
import type { UploadStore } from './upload-store.ts';

/** SPEC §9: longest video, and how long an unfinished upload is kept. */
export const MAX_VIDEO_DURATION_S = 1800;
export const UPLOAD_EXPIRY_MS = 3600_000;
export const MEDIA_ID_HEADER = 'Stream-Media-Id';

export interface UploadOptions {
  db: Kysely<Database>;
  logger: Logger;
  store: UploadStore;
  /** Full path of the endpoint, e.g. /api/video/tus. */
  path: string;
  maxSizeBytes: number;
  /** 'members': every logged-in member who is not banned; 'staff': administrators only. */
  whoMayUpload: 'members' | 'staff';
  /** Site origins allowed to upload with credentials (the API's CORS list). */
  corsOrigins: string[];
  /** Called when a finished upload's processing is queued (wakes the job worker). */
  onMediaQueued?: () => void;
}

/**
 * The uploader states when its upload may be dropped (metadata `expiry`: epoch ms or an ISO
 * date, SPEC §7); the server keeps it at most UPLOAD_EXPIRY_MS and at least a minute.
 */
export function uploadExpiry(requested: string | null | undefined, now = Date.now()): Date {
  const latest = now + UPLOAD_EXPIRY_MS;
  const asked = requested ? (/^\d+$/.test(requested) ? Number(requested) : Date.parse(requested)) : Number.NaN;
  return new Date(Number.isFinite(asked) ? Math.min(latest, Math.max(now + 60_000, asked)) : latest);
}

/** A tus rejection with our error body: a stable code and a message in the caller's language. */
function reject(req: Request, code: ErrorCode, status: number): { status_code: number; body: string } {
  return { status_code: status, body: JSON.stringify({ success: false, code, message: localMessage(req.headers, MESSAGE_KEY[code]) }) };
}

/**
 * The resumable upload endpoint (tus 1.0) at video/tus. Only members who may upload create
 * uploads; each upload belongs to its creator, who alone can read its offset, resume or delete
 * it. When the last byte arrives the answer carries the media id in Stream-Media-Id.
 */
export function createUploadServer(options: UploadOptions) {
  const { db, store: { datastore } } = options;

  const server = new Server({
    path: options.path,
    datastore,
    locker: new MemoryLocker(),
    maxSize: options.maxSizeBytes,
    relativeLocation: true,
    respectForwardedHeaders: false,
    namingFunction: () => randomBytes(16).toString('hex'),
    exposedHeaders: [MEDIA_ID_HEADER],
    // The API's CORS policy, never '*': uploads carry credentials.
    allowedOrigins: (origin: string) => options.corsOrigins.includes(origin),
    allowedCredentials: true,

    async onUploadCreate(req: Request, upload: Upload) {
      const viewer = await viewerFromCookies(db, req.headers.get('cookie'));
      if (!viewer) throw reject(req, 'UNAUTHORIZED', 401);
      if (isBlocked(viewer.roles)) throw reject(req, 'USER_BLOCKED', 403);
      if (options.whoMayUpload === 'staff' && !isStaff(viewer.roles)) throw reject(req, 'FORBIDDEN', 403);
      const name = String(upload.metadata?.name ?? '').trim();
      const maxDuration = Number(upload.metadata?.maxDurationSeconds ?? MAX_VIDEO_DURATION_S);
      if (!name || name.length > 255) throw reject(req, 'VALIDATION_FAILED', 400);
      if (!Number.isInteger(maxDuration) || maxDuration <= 0 || maxDuration > MAX_VIDEO_DURATION_S) throw reject(req, 'VALIDATION_FAILED', 400);
      if (upload.size === undefined) throw reject(req, 'VALIDATION_FAILED', 400); // deferred length is not accepted
      await db.insertInto('uploads').values({
        id: upload.id, uid: viewer.uid, file_name: name, size: upload.size, max_duration_seconds: maxDuration,
        expires_at: uploadExpiry(upload.metadata?.expiry),
      }).execute();
      return { metadata: { ...upload.metadata, uid: String(viewer.uid) } };
    },

    async onIncomingRequest(req: Request, id: string) {
      // tus calls this for a creation too, before the upload exists: onUploadCreate checks those.
      if (req.method === 'POST') return;
      const viewer = await viewerFromCookies(db, req.headers.get('cookie'));
      if (!viewer) throw reject(req, 'UNAUTHORIZED', 401);
      const owner = await db.selectFrom('uploads').select('uid').where('id', '=', id).executeTakeFirst();
      if (!owner) throw reject(req, 'NOT_FOUND', 404);
      if (owner.uid !== viewer.uid) throw reject(req, 'FORBIDDEN', 403);
    },

    async onUploadFinish(_req: Request, upload: Upload) {
      const mediaId = randomBytes(12).toString('hex');
      const row = await db.updateTable('uploads').set({ finished_at: new Date(), media_id: mediaId }).where('id', '=', upload.id)
        .returning('uid').executeTakeFirstOrThrow();
      await registerUploadedMedia(db, { mediaId, uploadId: upload.id, uid: row.uid });
      options.onMediaQueued?.();
      options.logger.info('upload finished', { uploadId: upload.id, mediaId, size: upload.size });
      return { headers: { [MEDIA_ID_HEADER]: mediaId } };
    },
  });

  /** Removes unfinished uploads past their expiry (the store's files or objects, and the records). */
  async function cleanExpired(): Promise<number> {
    const removed = await datastore.deleteExpired().catch((error) => {
      options.logger.warn('the upload store could not remove expired uploads', { err: error, store: options.store.kind });
      return 0;
    });
    await db.deleteFrom('uploads').where('finished_at', 'is', null).where('expires_at', '<', new Date()).execute();
    return removed;
  }

  return {
    /** `body`, when given, replaces the request's own body stream (see coalescedBody). */
    handle: (req: Request, body?: ReadableStream<Uint8Array>) =>
      server.handleWeb(body ? new Request(req, { body, duplex: 'half' } as RequestInit) : req),
    cleanExpired,
  };
}

const COALESCE_BYTES = 1024 * 1024;

/**
 * The request body as a web stream of about 1 MiB pieces, read straight from Node's socket
 * stream. The generic adapter hands every 64 KiB socket read through two stream conversions
 * (Node → web here, web → Node inside the tus server); batching them cuts that per-piece
 * overhead, which dominated upload throughput (bench/tus-upload.ts).
 *
 * A client that goes away mid-body (pause, lost network) ends the body where it broke, so the
 * bytes that arrived are kept and the upload resumes from them: the file store writes as it
 * reads either way, but the S3 store keeps the unfinished tail of a chunk only when it ends.
 */
export function coalescedBody(incoming: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = incoming[Symbol.asyncIterator]();
  const broken: IteratorResult<Uint8Array> = { done: true, value: undefined };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const parts: Uint8Array[] = [];
      let size = 0;
      while (size < COALESCE_BYTES) {
        const { value, done } = await iterator.next().catch(() => broken);
        if (done) break;
        parts.push(value);
        size += value.byteLength;
      }
      if (size) controller.enqueue(parts.length === 1 ? parts[0] : Buffer.concat(parts, size));
      if (size < COALESCE_BYTES) controller.close();
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
