import { useEffect, useMemo, useRef, type Dispatch, type RefObject } from 'react';
import { countWatch } from '../../lib/api/calls/video.ts';
import { FrameTracker, trackFrames } from '../../lib/player/frames.ts';
import type { HlsSource } from '../../lib/player/hls-source.ts';
import { bufferedRanges, seekTarget, type PlayerEvent } from '../../lib/player/player-state.ts';
import { RATE_MAX, RATE_MIN } from '../../lib/player/shortcuts.ts';
import { $playerSettings, type PlayerSettings } from '../../lib/stores/player-settings.ts';

export interface MediaControls {
  togglePlay(): void;
  /** Seeks (kept inside the video); `resume` plays on when the viewer chose so in the settings. */
  seek(to: number, resume?: boolean): void;
  stop(): void;
  replay(): void;
  changeRate(rate: number): void;
  /** Pauses and moves one frame of the stream (its advertised or measured rate). */
  step(direction: 1 | -1): void;
}

interface Options {
  videoId: number;
  /** The part's stream: frames are measured anew for each. */
  link: string | null | undefined;
  settings: PlayerSettings;
  source: RefObject<HlsSource | null>;
  dispatch: Dispatch<PlayerEvent>;
}

/**
 * The video element: it follows the settings (volume, loop, pitch), its events become player
 * state, a view is counted once playback really starts, and the controls act on it.
 */
export function useMediaElement(
  videoRef: RefObject<HTMLVideoElement | null>,
  { videoId, link, settings, source, dispatch }: Options,
): MediaControls {
  const frames = useRef(new FrameTracker());

  // Frames on screen, for frame steps at the stream's own rate.
  useEffect(() => {
    frames.current = new FrameTracker();
    return trackFrames(videoRef.current!, frames.current);
  }, [link]);

  useEffect(() => {
    const v = videoRef.current!;
    v.volume = settings.audio.volume;
    v.muted = settings.audio.muted;
    v.loop = settings.loop;
    v.preservesPitch = settings.rate.preservesPitch;
  }, [settings.audio, settings.loop, settings.rate.preservesPitch]);

  useEffect(() => {
    const v = videoRef.current!;
    let watched = false;
    const on: Record<string, () => void> = {
      play: () => dispatch({ type: 'paused', paused: false }),
      pause: () => dispatch({ type: 'paused', paused: true }),
      playing: () => {
        dispatch({ type: 'waiting', waiting: false });
        // A view counts once playback really starts (the server counts one per viewer per hour).
        if (!watched) {
          watched = true;
          void countWatch(videoId).catch(() => {});
        }
      },
      waiting: () => dispatch({ type: 'waiting', waiting: true }),
      canplay: () => dispatch({ type: 'waiting', waiting: false }),
      timeupdate: () => dispatch({ type: 'time', time: v.currentTime }),
      seeking: () => dispatch({ type: 'time', time: v.currentTime }),
      durationchange: () => dispatch({ type: 'duration', duration: v.duration }),
      progress: () => dispatch({ type: 'buffered', ranges: bufferedRanges(v) }),
      ratechange: () => dispatch({ type: 'rate', rate: v.playbackRate }),
      ended: () => dispatch({ type: 'paused', paused: true }),
    };
    for (const [name, handler] of Object.entries(on)) v.addEventListener(name, handler);
    dispatch({ type: 'paused', paused: v.paused });
    return () => {
      for (const [name, handler] of Object.entries(on)) v.removeEventListener(name, handler);
    };
  }, [videoId]);

  return useMemo(() => {
    const video = () => videoRef.current!;
    const controls: MediaControls = {
      togglePlay: () => {
        const v = video();
        if (v.paused || v.ended) void v.play().catch(() => {});
        else v.pause();
      },
      seek: (to, resume = true) => {
        const v = video();
        source.current?.load(to); // a seek before play starts loading there
        v.currentTime = seekTarget(to, v.duration);
        dispatch({ type: 'time', time: v.currentTime });
        if (resume && v.paused && $playerSettings.get().controller.autoResumePlayAfterSeeking)
          void v.play().catch(() => {});
      },
      stop: () => {
        video().pause();
        controls.seek(0, false);
      },
      replay: () => {
        controls.seek(0, false);
        void video().play();
      },
      changeRate: (next) => {
        const rate = Math.min(RATE_MAX, Math.max(RATE_MIN, next));
        video().playbackRate = rate;
        dispatch({ type: 'rate', rate });
      },
      step: (direction) => {
        const v = video();
        v.pause();
        v.currentTime = frames.current.stepTarget(v.currentTime, direction, source.current?.frameRate() ?? null);
      },
    };
    return controls;
  }, []);
}
