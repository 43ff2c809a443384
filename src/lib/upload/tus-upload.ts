/**
 * A thin driver of tus-js-client that feeds the upload state machine (machine.ts). It resumes a
 * previous unfinished upload of the same file automatically (tus's default fingerprint and its
 * localStorage URL store, so it also works after a reload) and reads the media id from the
 * Stream-Media-Id header of the last response.
 */
import type { DetailedError } from 'tus-js-client';
import { showToast } from '../stores/toast.ts';
import {
  addSample,
  initialUpload,
  transition,
  uploadSpeed,
  type ProgressSample,
  type UploadEvent,
  type UploadSnapshot,
} from './machine.ts';
import { MAX_AUDIO_DURATION_S } from '../api/contracts/audio.constants.ts';
import { buildUrl } from '../api/http.ts';
import { publicConfig } from '../public-config.ts';

/** The resumable upload endpoint (every kind of media): the API base + video/tus. */
export const tusEndpoint = () =>
  buildUrl(publicConfig.apiBase.endsWith('/') ? publicConfig.apiBase : `${publicConfig.apiBase}/`, 'video/tus');

/** SPEC §9. */
export const UPLOAD_CHUNK_SIZE = 52_428_800;
export const UPLOAD_RETRY_DELAYS = [0, 3000, 5000, 10_000, 20_000];
export const MAX_VIDEO_DURATION_SECONDS = 1800;
export const UPLOAD_EXPIRY_SECONDS = 3600;
export const MEDIA_ID_HEADER = 'Stream-Media-Id';

export interface UploadProgressView extends UploadSnapshot {
  /** Bytes per second over the last seconds (machine.ts SPEED_WINDOW_MS). */
  speed: number;
  /** Offset the server confirmed when the upload last went on from an earlier start (0: from the beginning). */
  resumedFrom: number;
}

export interface TusUploadOptions {
  /** API base + 'video/tus'. */
  endpoint: string;
  /** Sent as X-Client-Language, so refusals come back in the page's language. */
  locale: string;
  onChange: (view: UploadProgressView) => void;
  now?: () => number;
  /** What is uploaded (tus metadata `kind`): a video unless said; audio may run two hours. */
  kind?: UploadKind;
}

export type UploadKind = 'video' | 'audio' | 'photo';
/** The longest file of each kind the server takes (0: the kind has no duration). */
const MAX_DURATION_SECONDS: Record<UploadKind, number> = {
  video: MAX_VIDEO_DURATION_SECONDS,
  audio: MAX_AUDIO_DURATION_S,
  photo: 0,
};

export interface TusUploadHandle {
  pause: () => void;
  resume: () => void;
  view: () => UploadProgressView;
}

/** The server's localized message of a refused tus request, else the transport's message. */
function errorMessage(error: Error | DetailedError): string {
  const body = (error as DetailedError).originalResponse?.getBody();
  try {
    const parsed = body ? (JSON.parse(body) as { message?: unknown }) : undefined;
    if (typeof parsed?.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // not our JSON body
  }
  return error.message;
}

/**
 * Starts (or resumes) the upload of `file`. Without a file it shows the toast of SPEC §5
 * (`fileNotFoundMessage`) and answers null.
 */
export async function startTusUpload(
  file: File | null | undefined,
  fileNotFoundMessage: string,
  options: TusUploadOptions,
): Promise<TusUploadHandle | null> {
  if (!file) {
    showToast({ message: fileNotFoundMessage, severity: 'error' });
    return null;
  }
  // tus-js-client is loaded when an upload starts, not with the page.
  const { Upload } = await import('tus-js-client');
  const now = options.now ?? Date.now;
  let snapshot: UploadSnapshot = initialUpload;
  let samples: ProgressSample[] = [];
  let resumedFrom = 0;
  let mediaId: string | null = null;
  const view = (): UploadProgressView => ({ ...snapshot, speed: uploadSpeed(samples), resumedFrom });
  const apply = (event: UploadEvent) => {
    const next = transition(snapshot, event);
    if (next === snapshot) return;
    snapshot = next;
    options.onChange(view());
  };

  const upload = new Upload(file, {
    endpoint: options.endpoint,
    chunkSize: UPLOAD_CHUNK_SIZE,
    retryDelays: UPLOAD_RETRY_DELAYS,
    metadata: {
      name: file.name,
      kind: options.kind ?? 'video',
      maxDurationSeconds: String(MAX_DURATION_SECONDS[options.kind ?? 'video']),
      expiry: String(now() + UPLOAD_EXPIRY_SECONDS * 1000),
    },
    headers: { 'X-Client-Language': options.locale },
    storeFingerprintForResuming: true,
    // A finished upload must not be "resumed": it would answer no media id.
    removeFingerprintOnSuccess: true,
    onBeforeRequest(req) {
      const xhr = req.getUnderlyingObject() as XMLHttpRequest | undefined;
      if (xhr && 'withCredentials' in xhr) xhr.withCredentials = true;
    },
    onAfterResponse(req, res) {
      const id = res.getHeader(MEDIA_ID_HEADER);
      if (id) mediaId = id;
      // A resumed upload first asks the server (HEAD) where to go on from.
      if (req.getMethod() === 'HEAD' && res.getStatus() === 200) {
        const offset = Number(res.getHeader('Upload-Offset'));
        if (Number.isFinite(offset)) {
          resumedFrom = offset;
          samples = [{ at: now(), bytes: offset }];
          apply({ type: 'progress', bytesUploaded: offset, bytesTotal: file.size });
        }
      }
    },
    onProgress(bytesUploaded, bytesTotal) {
      samples = addSample(samples, { at: now(), bytes: bytesUploaded });
      apply({ type: 'progress', bytesUploaded, bytesTotal });
    },
    onSuccess() {
      apply({ type: 'finish', mediaId });
    },
    onError(error) {
      apply({ type: 'fail', error: errorMessage(error) });
    },
  });

  apply({ type: 'create', bytesTotal: file.size });
  try {
    const previous = (await upload.findPreviousUploads()).filter((p) => p.size === file.size);
    if (previous.length) upload.resumeFromPreviousUpload(previous[0]);
  } catch {
    // No usable storage: a fresh upload.
  }
  apply({ type: 'start' });
  upload.start();

  return {
    pause() {
      if (snapshot.state !== 'uploading') return;
      apply({ type: 'pause' });
      samples = [];
      void upload.abort();
    },
    resume() {
      if (snapshot.state !== 'pausing') return;
      apply({ type: 'resume' });
      upload.start();
    },
    view,
  };
}
