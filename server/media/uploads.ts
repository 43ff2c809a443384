import { randomBytes } from 'node:crypto';
import { Server, MemoryLocker, ERRORS, type Upload } from '@tus/server';
import type { Logger } from '../logger.ts';
import { viewerFromCookies, type Viewer } from '../services/sessions.ts';
import type { Repositories } from '../repositories/index.ts';
import { can, refusal, type Action } from '../../src/lib/policy/policy.ts';
import { DATABASE_RETRY_AFTER_SECONDS, outageOf } from '../http/outage.ts';
import { ERROR_CODES, ERROR_STATUS, type ApiErrorBody, type ErrorCode } from '../../src/lib/api/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { hasControlCharacters } from '../../src/lib/validation/text.ts';
import type { UploadStore } from './upload-store.ts';
import type { UploadKind } from '../db/schema.ts';

/** SPEC §9: longest video, and how long an unfinished upload is kept. */
export const MAX_VIDEO_DURATION_S = 1800;
import { UPLOAD_EXPIRY_MS } from './upload-store.ts';
export { UPLOAD_EXPIRY_MS };
export const MEDIA_ID_HEADER = 'Stream-Media-Id';

/**
 * How one kind of upload (video, audio, photo) is taken: who may create it, its largest file,
 * its longest duration (0: the kind has none), and the job that probes the finished file (its
 * section's pipeline takes over from there). A kind without rules is refused.
 */
export interface UploadKindRules {
  permission: Action;
  maxBytes: number;
  maxDurationSeconds: number;
  probeJob: string;
}

export interface UploadOptions {
  /** The root's one repository set: sessions are looked up through its cache, as the API's are. */
  repositories: Pick<Repositories, 'sessions' | 'media' | 'uploads'>;
  logger: Logger;
  store: UploadStore;
  /** Full path of the endpoint, e.g. /api/video/tus. */
  path: string;
  /** The kinds this endpoint takes (metadata `kind`, video when absent), each with its rules. */
  kinds: Partial<Record<UploadKind, UploadKindRules>> & { video: UploadKindRules };
  /** 'members': every logged-in member who is not banned; 'staff': administrators only. */
  whoMayUpload: 'members' | 'staff';
  /** Unfinished, unexpired uploads one member may have at once (MAX_OPEN_UPLOADS); more are refused TOO_MANY_UPLOADS. */
  maxOpenUploads?: number;
  /** Site origins allowed to upload with credentials (the API's CORS list). */
  corsOrigins: string[];
  /** Called when a finished upload's processing is queued (wakes the job worker). */
  onMediaQueued?: () => void;
  /** The API's one error mapper (server/app/errors.ts), given by the composition root: tus's refusals answer as every endpoint's do. */
  errorAnswer: (
    error: unknown,
    headers: Headers,
    requestId?: string,
  ) => { body: ApiErrorBody; headers: Record<string, string> };
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

/** A refusal by our hooks: tus answers it with its status, and apiAnswer gives it the API's body. */
function reject(code: ErrorCode): { status_code: number; body: string } {
  return { status_code: ERROR_STATUS[code], body: JSON.stringify({ code }) };
}

/**
 * The API's code for what tus refuses by itself, by status (the hooks' refusals carry their own).
 * tus's 403s are a required header missing (Upload-Offset, Content-Type), not a permission.
 */
const TUS_STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  403: 'VALIDATION_FAILED',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'UPLOAD_EXPIRED',
  412: 'VALIDATION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'VALIDATION_FAILED',
  460: 'VALIDATION_FAILED',
  501: 'UNSUPPORTED_EXTENSION',
};
/** tus's 400s that are about the upload's state, not the request. */
const TUS_CONFLICTS = new Set<string>([ERRORS.INVALID_TERMINATION.body, ERRORS.ABORTED.body]);

function codeOfTusAnswer(status: number, body: string): ErrorCode {
  try {
    const { code } = JSON.parse(body) as { code?: ErrorCode };
    if (code && ERROR_CODES.includes(code)) return code;
  } catch {
    // tus's own plain-text refusal
  }
  if (TUS_CONFLICTS.has(body)) return 'CONFLICT';
  return TUS_STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED');
}

/** tus's refusal as the domain error the API's mapper answers (the database away: try again in a few seconds). */
function refusalOfTusAnswer(status: number, body: string): DomainError {
  const code = codeOfTusAnswer(status, body);
  return new DomainError(
    code,
    code === 'SERVICE_UNAVAILABLE' ? { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS } : {},
  );
}

/** An upload's kind from its metadata: video when absent; undefined for anything else unknown. */
function kindOf(metadata: Upload['metadata']): UploadKind | undefined {
  const kind = metadata?.kind ?? 'video';
  return kind === 'video' || kind === 'audio' || kind === 'photo' ? kind : undefined;
}

/**
 * The resumable upload endpoint (tus 1.0) at video/tus, for every kind of media (metadata
 * `kind`: video, audio or photo, each with its own limits and probe). Only members who may
 * upload that kind create uploads; each upload belongs to its creator, who alone can read its
 * offset, resume or delete it. When the last byte arrives the answer carries the media id in
 * Stream-Media-Id, and the kind's probe job is queued.
 */
export function createUploadServer(options: UploadOptions) {
  const {
    store: { datastore },
  } = options;
  const sessions = { sessions: options.repositories.sessions };
  const { uploads, media: mediaRows } = options.repositories;

  /** The caller, when the policy lets them do this (before the upload is known); else our refusal. */
  async function permitted(req: Request, action: Action): Promise<Viewer> {
    const viewer = await viewerFromCookies(sessions, req.headers.get('cookie'));
    const why = refusal(viewer, action, undefined, { whoMayUpload: options.whoMayUpload });
    if (why) throw reject(why);
    return viewer!;
  }

  const server = new Server({
    path: options.path,
    datastore,
    locker: new MemoryLocker(),
    // The largest kind's limit; each kind's own is checked at creation.
    maxSize: Math.max(...Object.values(options.kinds).map((rules) => rules.maxBytes)),
    relativeLocation: true,
    respectForwardedHeaders: false,
    namingFunction: () => randomBytes(16).toString('hex'),
    exposedHeaders: [MEDIA_ID_HEADER],
    // The API's CORS policy, never '*': uploads carry credentials.
    allowedOrigins: (origin: string) => options.corsOrigins.includes(origin),
    allowedCredentials: true,

    async onUploadCreate(req: Request, upload: Upload) {
      const kind = kindOf(upload.metadata);
      const rules = kind && options.kinds[kind];
      if (!kind || !rules) throw reject('VALIDATION_FAILED');
      const viewer = await permitted(req, rules.permission);
      const name = String(upload.metadata?.name ?? '').trim();
      const maxDuration = Number(upload.metadata?.maxDurationSeconds ?? rules.maxDurationSeconds);
      if (!name || name.length > 255 || hasControlCharacters(name)) throw reject('VALIDATION_FAILED');
      if (
        !Number.isInteger(maxDuration) ||
        maxDuration < 0 ||
        maxDuration > rules.maxDurationSeconds ||
        (maxDuration === 0 && rules.maxDurationSeconds > 0)
      ) {
        throw reject('VALIDATION_FAILED');
      }
      if (upload.size === undefined) throw reject('VALIDATION_FAILED'); // deferred length is not accepted
      if (upload.size > rules.maxBytes) throw reject('PAYLOAD_TOO_LARGE');
      await uploads.create({
        id: upload.id,
        uid: viewer.uid,
        fileName: name,
        size: upload.size,
        maxDurationSeconds: maxDuration,
        kind,
        expiresAt: uploadExpiry(upload.metadata?.expiry),
      });
      // Counted after the insert, so two creations at once cannot both slip under the limit
      // (both may be refused instead; the member tries again). Finished or expired ones do not count.
      if ((await uploads.openCount(viewer.uid)) > (options.maxOpenUploads ?? 3)) {
        await uploads.remove(upload.id);
        throw reject('TOO_MANY_UPLOADS');
      }
      return { metadata: { ...upload.metadata, uid: String(viewer.uid) } };
    },

    async onIncomingRequest(req: Request, id: string) {
      // tus calls this for a creation too, before the upload exists: onUploadCreate checks those.
      if (req.method === 'POST') return;
      const viewer = await permitted(req, 'upload.resume');
      const owner = await uploads.ownerOf(id);
      if (!owner) throw reject('NOT_FOUND');
      if (!can(viewer, 'upload.resume', { ownerUid: owner.uid })) throw reject('FORBIDDEN');
    },

    // The database away or the upload disk full are told as such (503, 507), and the bytes
    // stored so far stay: HEAD gives the offset to resume from once it is back. Anything else
    // thrown is ours gone wrong: logged here, answered INTERNAL without its message.
    async onResponseError(_req: Request, error: Error | { status_code: number; body: string }) {
      if ('status_code' in error) return undefined;
      const outage = outageOf(error);
      if (outage) {
        options.logger.warn('upload request refused: service trouble', { code: outage.code, err: error });
        return reject(outage.code);
      }
      options.logger.error('upload request failed', { err: error });
      return undefined;
    },

    async onUploadFinish(_req: Request, upload: Upload) {
      const mediaId = randomBytes(12).toString('hex');
      const row = await uploads.finish(upload.id, mediaId);
      const rules = options.kinds[row.kind];
      if (!rules) throw new Error(`no rules for the upload kind ${row.kind}`); // its creation was refused
      await mediaRows.register({
        mediaId,
        uploadId: upload.id,
        uid: row.uid,
        kind: row.kind,
        probeJob: rules.probeJob,
      });
      options.onMediaQueued?.();
      options.logger.info('upload finished', { uploadId: upload.id, mediaId, kind: row.kind, size: upload.size });
      return { headers: { [MEDIA_ID_HEADER]: mediaId } };
    },
  });

  /** Removes unfinished uploads past their expiry (the store's files or objects, and the records). */
  async function cleanExpired(): Promise<number> {
    const removed = await datastore.deleteExpired().catch((error) => {
      options.logger.warn('the upload store could not remove expired uploads', {
        err: error,
        store: options.store.kind,
      });
      return 0;
    });
    await uploads.removeExpired();
    return removed;
  }

  /**
   * tus's answer as the API's: with the request's id, and every refusal, tus's own included,
   * answered by the API's error mapper (body, Retry-After, Cache-Control); the status and tus's
   * headers (Tus-Resumable, CORS) stay as tus set them. A HEAD answer stays without a body.
   */
  async function apiAnswer(req: Request, answer: Response, requestId: string | undefined): Promise<Response> {
    if (requestId) answer.headers.set('X-Request-Id', requestId);
    if (answer.status < 400) return answer;
    const mapped = options.errorAnswer(refusalOfTusAnswer(answer.status, await answer.text()), req.headers, requestId);
    const headers = new Headers(answer.headers);
    headers.delete('Content-Length');
    headers.set('Content-Type', 'application/json; charset=utf-8');
    for (const [name, value] of Object.entries(mapped.headers)) headers.set(name, value);
    return new Response(req.method === 'HEAD' ? null : JSON.stringify(mapped.body), { status: answer.status, headers });
  }

  return {
    /** `body`, when given, replaces the request's own body stream (see coalescedBody). */
    handle: async (req: Request, body?: ReadableStream<Uint8Array>, requestId?: string) => {
      const answer = await server.handleWeb(body ? new Request(req, { body, duplex: 'half' } as RequestInit) : req);
      // A cancelled upload (tus termination) no longer counts against its member's open uploads.
      if (req.method === 'DELETE' && answer.status === 204) {
        const id = new URL(req.url).pathname.split('/').pop() ?? '';
        await uploads.removeUnfinished(id);
      }
      return apiAnswer(req, answer, requestId);
    },
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
