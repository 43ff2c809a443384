/**
 * Frame-by-frame stepping at the stream's real frame rate: the one the master playlist advertises
 * (FRAME-RATE), else one measured from the frames the browser presents
 * (requestVideoFrameCallback), else 30. A step lands in the middle of the next frame, so that
 * rounding in the browser's seek never shows the neighbouring frame instead.
 */
export const FALLBACK_FRAME_RATE = 30;
/** Rates that video is made at; a measured rate this close to one of them is taken as it. */
const COMMON_RATES = [24000 / 1001, 24, 25, 30000 / 1001, 30, 48, 50, 60000 / 1001, 60, 120];
const SNAP_TOLERANCE = 0.01;
/** How many frame durations the estimate is taken over, and how few are enough. */
const SAMPLES_KEPT = 31;
const SAMPLES_NEEDED = 5;

/** The frame rate of frame durations seen (seconds each): their median, snapped to a common rate. Null without enough of them. */
export function estimateFrameRate(durations: readonly number[]): number | null {
  const usable = durations.filter((d) => d > 1 / 500 && d < 1).sort((a, b) => a - b);
  if (usable.length < SAMPLES_NEEDED) return null;
  const rate = 1 / usable[Math.floor(usable.length / 2)];
  return COMMON_RATES.find((r) => Math.abs(r - rate) / r < SNAP_TOLERANCE) ?? rate;
}

/** The media time one frame step goes to, from the frame shown now (which starts at `frameStart`). */
export function frameStepTarget(frameStart: number, frameRate: number, direction: 1 | -1): number {
  const frame = 1 / frameRate;
  return Math.max(0, frameStart + direction * frame + frame / 2);
}

/** The start of the frame on screen at `time` on a grid of frames from 0 (used when the browser does not say which frame it shows). */
export function frameStartAt(time: number, frameRate: number): number {
  // The small margin keeps a time that is a frame boundary up to float rounding on that frame.
  return Math.floor(time * frameRate + 1e-6) / frameRate;
}

/** What the browser reports of presented frames (VideoFrameCallbackMetadata). */
export interface PresentedFrame {
  mediaTime: number;
  presentedFrames: number;
}

/** Follows the frames a video presents: the one on screen now, and the frame rate they show. */
export class FrameTracker {
  private last: PresentedFrame | null = null;
  private durations: number[] = [];

  /** Records one presented frame. */
  observe(frame: PresentedFrame): void {
    const previous = this.last;
    this.last = frame;
    if (!previous) return;
    const frames = frame.presentedFrames - previous.presentedFrames;
    const elapsed = frame.mediaTime - previous.mediaTime;
    // Only frames shown in a row while playing forward say how long a frame lasts (a seek does not).
    if (frames !== 1 || elapsed <= 0) return;
    this.durations.push(elapsed);
    if (this.durations.length > SAMPLES_KEPT) this.durations.shift();
  }

  /** The advertised rate when there is one, else the measured one, else FALLBACK_FRAME_RATE. */
  frameRate(advertised: number | null): number {
    return advertised && advertised > 0 ? advertised : (estimateFrameRate(this.durations) ?? FALLBACK_FRAME_RATE);
  }

  /** Where a step from `currentTime` goes: from the frame on screen when it is the one at that time. */
  stepTarget(currentTime: number, direction: 1 | -1, advertised: number | null): number {
    const rate = this.frameRate(advertised);
    const shown = this.last?.mediaTime;
    const onScreen =
      shown !== undefined && shown <= currentTime + 1e-6 && currentTime - shown < 1 / rate
        ? shown
        : frameStartAt(currentTime, rate);
    return frameStepTarget(onScreen, rate, direction);
  }
}

/** Feeds `tracker` every frame `video` presents (where requestVideoFrameCallback exists); returns a stop function. */
export function trackFrames(video: HTMLVideoElement, tracker: FrameTracker): () => void {
  if (typeof video.requestVideoFrameCallback !== 'function') return () => {};
  let handle = 0;
  const onFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
    tracker.observe(metadata);
    handle = video.requestVideoFrameCallback(onFrame);
  };
  handle = video.requestVideoFrameCallback(onFrame);
  return () => video.cancelVideoFrameCallback(handle);
}
