/**
 * The video's clock as danmaku need it: smooth between the element's currentTime updates,
 * exact at every pause, seek, rate change and stall. Reads a media-element-like object so it is
 * testable without a browser.
 */
export interface MediaLike {
  readonly currentTime: number;
  readonly playbackRate: number;
  readonly paused: boolean;
  readonly seeking: boolean;
  /** HAVE_FUTURE_DATA (3) or more means playback can advance. */
  readonly readyState: number;
}

/** Never run ahead of the element by more than this while extrapolating (seconds). */
const MAX_EXTRAPOLATION = 0.25;

export class MediaClock {
  private anchorMedia = 0;
  private anchorWall = 0;
  /** The last time answered while advancing: playback never steps back by a report's jitter. */
  private lastAnswer = -1;
  private media: MediaLike;
  /** How fast the time the last now() answered runs: the playback rate, 0 when it stands still. */
  rate = 0;

  constructor(media: MediaLike) {
    this.media = media;
  }

  /** The video time for this frame; `wallMs` is performance.now() (or a frame timestamp). */
  now(wallMs: number): number {
    const m = this.media;
    const reported = m.currentTime;
    const advancing = !m.paused && !m.seeking && m.readyState >= 3;
    this.rate = advancing ? m.playbackRate : 0;
    if (!advancing) {
      // A stop, a seek or a stall: the element's time as it is.
      this.anchorMedia = reported;
      this.anchorWall = wallMs;
      this.lastAnswer = -1;
      return reported;
    }
    if (reported !== this.anchorMedia) {
      // A fresh report wins, unless it lands a hair behind what we already showed (the
      // extrapolation ran slightly ahead): then hold still rather than step back.
      this.anchorMedia = reported;
      this.anchorWall = wallMs;
      const behind = this.lastAnswer - reported;
      return (this.lastAnswer =
        behind > 0 && behind < MAX_EXTRAPOLATION * Math.max(1, m.playbackRate) ? this.lastAnswer : reported);
    }
    const extrapolated = ((wallMs - this.anchorWall) / 1000) * m.playbackRate;
    const time = reported + Math.min(Math.max(0, extrapolated), MAX_EXTRAPOLATION * Math.max(1, m.playbackRate));
    return (this.lastAnswer = Math.max(time, this.lastAnswer));
  }
}
