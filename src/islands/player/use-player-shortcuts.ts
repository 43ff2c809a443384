import { useEffect, useRef, type Dispatch, type RefObject } from 'react';
import { escapeStep, type PlayerEvent, type PlayerState } from '../../lib/player/player-state.ts';
import {
  actionFor,
  audioForVolume,
  isTypingTarget,
  steppedVolume,
  stepRate,
  SEEK_STEP_SECONDS,
  type PlayerAction,
} from '../../lib/player/shortcuts.ts';
import { $playerSettings, updatePlayerSettings } from '../../lib/stores/player-settings.ts';
import type { MediaControls } from './use-media-element.ts';

interface Commands extends Pick<MediaControls, 'togglePlay' | 'seek' | 'changeRate' | 'step'> {
  toggleFullscreen(): void;
  /** Subtitles off ↔ the last track on; false when the part has none (the key then goes on to the page). */
  toggleSubtitles(): boolean;
  /** Any shortcut shows the controls for a while. */
  showControls(): void;
}

/**
 * The keyboard shortcuts of src/lib/player/shortcuts.ts, on the whole page (not while the viewer
 * types in a field). A key the player used is not passed on; Esc with nothing to leave is.
 */
export function usePlayerShortcuts(
  videoRef: RefObject<HTMLVideoElement | null>,
  state: PlayerState,
  dispatch: Dispatch<PlayerEvent>,
  commands: Commands,
): void {
  const run = (action: PlayerAction): boolean => {
    const v = videoRef.current!;
    const s = $playerSettings.get();
    switch (action) {
      case 'togglePlay':
        commands.togglePlay();
        break;
      case 'exitFullscreen': {
        // Browsers usually leave fullscreen on Esc themselves; where the key reaches the page, the player does.
        const step = escapeStep(state, !!document.fullscreenElement);
        if (step === 'panels') dispatch({ type: 'closePanels' });
        else if (step === 'fullscreen') void document.exitFullscreen().catch(() => {});
        else if (step === 'webFullscreen') dispatch({ type: 'webFullscreen', on: false });
        else return false;
        break;
      }
      case 'toggleFullscreen':
        commands.toggleFullscreen();
        break;
      case 'toggleDanmaku':
        updatePlayerSettings('danmaku', { enabled: !s.danmaku.enabled });
        break;
      case 'toggleSubtitles':
        if (!commands.toggleSubtitles()) return false;
        break;
      case 'toggleMute':
        updatePlayerSettings('audio', { muted: !s.audio.muted });
        break;
      case 'volumeUp':
        updatePlayerSettings('audio', audioForVolume(steppedVolume(s.audio, 1)));
        break;
      case 'volumeDown':
        updatePlayerSettings('audio', audioForVolume(steppedVolume(s.audio, -1)));
        break;
      case 'seekBack':
        commands.seek(v.currentTime - SEEK_STEP_SECONDS, false);
        break;
      case 'seekForward':
        commands.seek(v.currentTime + SEEK_STEP_SECONDS, false);
        break;
      case 'rateDown':
        commands.changeRate(stepRate(v.playbackRate, -1));
        break;
      case 'rateUp':
        commands.changeRate(stepRate(v.playbackRate, 1));
        break;
      case 'previousFrame':
        commands.step(-1);
        break;
      case 'nextFrame':
        commands.step(1);
        break;
    }
    commands.showControls();
    return true;
  };
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const action = actionFor(event, isTypingTarget(event.target as HTMLElement | null));
      if (action && runRef.current(action)) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
