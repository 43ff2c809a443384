/**
 * Player screenshots at the video's own resolution. The element on screen shows the rung that ABR
 * (or the viewer) chose, so its frame may be 360p of a 720p video. When the master playlist has a
 * taller rung, the same frame (same currentTime) is taken from the top rung by a second, detached
 * and muted video with its own hls.js instance locked to that rung. The frame on screen is drawn
 * first and saved instead if that fails or takes too long: a click always gives a file.
 */
import { attachHls, type HlsSource } from './hls-source.ts';
import { topLevel, type QualityLevel } from './quality.ts';

/** How long the top rung may take (a fragment of a few MB on a slow line) before the shown frame is saved. */
export const TOP_RUNG_TIMEOUT_MS = 6000;

/** How long after `seeked` a frame callback is waited for before the decoded frame is taken anyway. */
const PRESENT_GRACE_MS = 500;

/** More than the two instances' timelines ever differ (a frame or two), far less than a fragment. */
const START_MARGIN_SECONDS = 0.25;

export interface Screenshot {
  blob: Blob;
  /** The time of the frame captured (the element's currentTime at the click). */
  time: number;
  width: number;
  height: number;
  /** False when the top rung was wanted but could not be had: the frame on screen was saved. */
  fullResolution: boolean;
}

/** The rung to capture from instead of the element, or null when the one playing is already the tallest. */
export function captureLevel(levels: readonly QualityLevel[], playingHeight: number): QualityLevel | null {
  const top = topLevel(levels);
  return top && top.height > playingHeight ? top : null;
}

/**
 * Takes the frame at the element's current time, from the top rung when a taller one exists and
 * hls.js plays (native HLS gives no rung control: the frame on screen is the best there is).
 * Null when the element has no frame yet.
 */
export async function takeScreenshot(
  video: HTMLVideoElement,
  options: { url: string | null; source: HlsSource | null; timeoutMs?: number },
): Promise<Screenshot | null> {
  if (!video.videoWidth) return null;
  const time = video.currentTime;
  // Drawn now, before any await: the fallback is the frame of the click even while playing.
  const shown = drawFrame(video);
  const { url, source } = options;
  const level = url && source?.kind === 'hls.js' ? captureLevel(source.levels, video.videoHeight) : null;
  let canvas = shown;
  if (level && url) {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error('the top rung took too long')),
      options.timeoutMs ?? TOP_RUNG_TIMEOUT_MS,
    );
    try {
      canvas = await frameFromRung(
        url,
        level,
        { time, offset: source!.timestampOffset() },
        video.videoHeight,
        abort.signal,
      );
    } catch (error) {
      console.warn('screenshot: saving the frame shown, the top rung failed', error);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }
  const blob = await pngOf(canvas);
  return { blob, time, width: canvas.width, height: canvas.height, fullResolution: canvas !== shown || !level };
}

/** Saves a blob as a download named `name`. */
export function downloadBlob(blob: Blob, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function drawFrame(video: HTMLVideoElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return canvas;
}

const pngOf = (canvas: HTMLCanvasElement) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no PNG'))), 'image/png'),
  );

/**
 * The frame at `at.time` of the page's element (whose hls.js maps stream timestamps with
 * `at.offset`) from `level`, drawn at that rung's own size; the instance is destroyed whatever happens.
 */
async function frameFromRung(
  url: string,
  level: QualityLevel,
  at: { time: number; offset: number | null },
  playingHeight: number,
  signal: AbortSignal,
): Promise<HTMLCanvasElement> {
  const v = document.createElement('video');
  v.muted = true;
  v.playsInline = true;
  v.preload = 'auto';
  let source: HlsSource | null = null;
  let fatal: ((error: Error) => void) | null = null;
  try {
    // The same lazy hls.js/light the page already loaded; the exact height picks the top rung and
    // a chosen rung turns ABR off, so nothing switches it down. Loading starts just before the
    // frame's time: hls.js moves the element to its start position only when the element is
    // behind it, so our own seek (which may land a frame earlier) is never undone.
    source = await attachHls(v, url, {
      choice: { auto: false, preferred: level.height },
      startPosition: Math.max(0, at.time - START_MARGIN_SECONDS),
      onFatal: (detail) => fatal?.(new Error(`hls.js: ${detail}`)),
    });
    signal.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      fatal = reject;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      metadata(v)
        .then(() => {
          // The same stream timestamp on this instance's own timeline (it started at another fragment).
          const offset = source!.timestampOffset();
          if (offset === null) throw new Error('no timestamps from the top rung');
          return presented(v, at.time + (at.offset ?? offset) - offset);
        })
        .then(resolve, reject);
    });
    // Never pass off a shorter rung as the full one (should hls.js not have honoured the lock).
    if (v.videoHeight <= playingHeight) throw new Error(`the top rung came as ${v.videoHeight}p`);
    return drawFrame(v);
  } finally {
    source?.destroy();
    v.removeAttribute('src');
    v.load();
  }
}

const metadata = (v: HTMLVideoElement) =>
  new Promise<void>((resolve) => {
    if (v.readyState >= HTMLMediaElement.HAVE_METADATA) resolve();
    else v.addEventListener('loadedmetadata', () => resolve(), { once: true });
  });

/**
 * Seeks to `time` and resolves once that frame is decoded (seeked, HAVE_CURRENT_DATA) and, where
 * the browser has requestVideoFrameCallback, presented: callbacks are asked for from before the
 * seek, and only a frame whose media time covers `time` counts (not the first frame shown on load).
 */
function presented(v: HTMLVideoElement, time: number): Promise<void> {
  return new Promise((resolve) => {
    let framePresented = typeof v.requestVideoFrameCallback !== 'function';
    let seekedThere = false;
    const done = () => framePresented && seekedThere && resolve();
    const onFrame = (_now: number, frame: VideoFrameCallbackMetadata) => {
      // The frame shown at `time` starts at or before it, by less than a frame (half a second is
      // more than any real frame lasts, and far less than the ~4 s between keyframes).
      framePresented = frame.mediaTime <= time + 1e-3 && frame.mediaTime > time - 0.5;
      if (framePresented) done();
      else v.requestVideoFrameCallback(onFrame);
    };
    if (!framePresented) v.requestVideoFrameCallback(onFrame);
    const onSeeked = () => {
      if (v.seeking || v.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || Math.abs(v.currentTime - time) > 1e-3)
        return;
      v.removeEventListener('seeked', onSeeked);
      seekedThere = true;
      // A browser that never presents frames of a video off the page (no callback comes) still
      // has the decoded frame after seeked: wait briefly for the callback, not for the time limit.
      setTimeout(() => {
        framePresented = true;
        done();
      }, PRESENT_GRACE_MS);
      done();
    };
    v.addEventListener('seeked', onSeeked);
    v.currentTime = time;
  });
}
