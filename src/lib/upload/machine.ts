/**
 * The video upload state machine of SPEC §4, free of any transport: the tus driver and the
 * uploader island feed it events and render its state.
 *
 *   pending ─create→ created ─start→ uploading ⇄ pausing (pause / resume)
 *   uploading ─finish(mediaId)→ success     (no media id: error 'Can not find the video ID')
 *   any state but success ─fail→ error
 */
export type UploadState = 'pending' | 'created' | 'uploading' | 'pausing' | 'success' | 'error';

export const MISSING_MEDIA_ID = 'Can not find the video ID';

export interface UploadSnapshot {
  state: UploadState;
  /** Bytes the server has confirmed, and the file's size. */
  bytesUploaded: number;
  bytesTotal: number;
  mediaId: string | null;
  error: string | null;
}

export type UploadEvent =
  | { type: 'create'; bytesTotal: number }
  | { type: 'start' }
  | { type: 'progress'; bytesUploaded: number; bytesTotal: number }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'finish'; mediaId: string | null | undefined }
  | { type: 'fail'; error: string };

export const initialUpload: UploadSnapshot = {
  state: 'pending',
  bytesUploaded: 0,
  bytesTotal: 0,
  mediaId: null,
  error: null,
};

/** Whether an event is allowed in a state; the buttons of the island follow this. */
export function canApply(state: UploadState, type: UploadEvent['type']): boolean {
  switch (type) {
    case 'create':
      return state === 'pending';
    case 'start':
      return state === 'created';
    case 'progress':
      return state === 'uploading';
    case 'pause':
      return state === 'uploading';
    case 'resume':
      return state === 'pausing';
    case 'finish':
      return state === 'uploading';
    case 'fail':
      return state !== 'success' && state !== 'error';
  }
}

/** The next snapshot; an event that is not allowed leaves the snapshot as it is. */
export function transition(snapshot: UploadSnapshot, event: UploadEvent): UploadSnapshot {
  if (!canApply(snapshot.state, event.type)) return snapshot;
  switch (event.type) {
    case 'create':
      return { ...initialUpload, state: 'created', bytesTotal: event.bytesTotal };
    case 'start':
      return { ...snapshot, state: 'uploading' };
    case 'progress':
      return { ...snapshot, bytesUploaded: event.bytesUploaded, bytesTotal: event.bytesTotal };
    case 'pause':
      return { ...snapshot, state: 'pausing' };
    case 'resume':
      return { ...snapshot, state: 'uploading' };
    case 'finish':
      return event.mediaId
        ? { ...snapshot, state: 'success', mediaId: event.mediaId, bytesUploaded: snapshot.bytesTotal }
        : { ...snapshot, state: 'error', error: MISSING_MEDIA_ID };
    case 'fail':
      return { ...snapshot, state: 'error', error: event.error };
  }
}

/** A progress sample: bytes confirmed at a moment (ms). */
export interface ProgressSample {
  at: number;
  bytes: number;
}

/** How far back the speed looks: long enough to smooth chunks, short enough to follow changes. */
export const SPEED_WINDOW_MS = 5000;

/**
 * Adds a sample and drops the ones older than the window (keeping one at or before the window's
 * start, so the speed always spans the window once there is history).
 */
export function addSample(
  samples: readonly ProgressSample[],
  sample: ProgressSample,
  windowMs = SPEED_WINDOW_MS,
): ProgressSample[] {
  // Bytes going back (a resume from the server's offset) start a new measurement.
  const last = samples.at(-1);
  const kept = last && sample.bytes < last.bytes ? [] : [...samples];
  kept.push(sample);
  let first = 0;
  while (first + 1 < kept.length && kept[first + 1].at <= sample.at - windowMs) first++;
  return kept.slice(first);
}

/** Bytes per second over the samples; 0 until two samples a moment apart exist. */
export function uploadSpeed(samples: readonly ProgressSample[]): number {
  if (samples.length < 2) return 0;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const elapsed = last.at - first.at;
  return elapsed > 0 ? Math.max(0, ((last.bytes - first.bytes) * 1000) / elapsed) : 0;
}

/** Seconds left at a speed, rounded up; null when it cannot be told (no speed yet). */
export function secondsLeft(bytesUploaded: number, bytesTotal: number, bytesPerSecond: number): number | null {
  const remaining = Math.max(0, bytesTotal - bytesUploaded);
  if (remaining === 0) return 0;
  if (!(bytesPerSecond > 0)) return null;
  return Math.ceil(remaining / bytesPerSecond);
}

/** Whole percent done, never 100 before the last byte. */
export function percentDone(bytesUploaded: number, bytesTotal: number): number {
  if (bytesTotal <= 0) return 0;
  if (bytesUploaded >= bytesTotal) return 100;
  return Math.min(99, Math.floor((bytesUploaded / bytesTotal) * 100));
}
