import { useEffect, useRef, type Dispatch, type RefObject } from 'react';
import { attachHls, type HlsSource } from '../../lib/player/hls-source.ts';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { $playerSettings } from '../../lib/stores/player-settings.ts';
import { loadSegmentsBeforePlay } from '../../lib/player/media-loading.ts';
import { isDataSaverOn } from '../../lib/stores/app-settings.ts';

/** What shows a viewer is about to play: hls.js is fetched and the playlists read then. */
const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

/**
 * The part's stream on the element: hls.js or the browser's own HLS, with the remembered quality
 * applied at once and autoplay when chosen. hls.js is 100 KB gzip and some 130 ms of a phone's
 * main thread, so unless the video starts by itself it is loaded on the first sign the viewer
 * means to play (a pointer over or a touch on the player, focus inside it, or play itself);
 * most visitors of a video page read, scroll on or leave, and pay nothing for it. The rungs and
 * the one playing go to the player state; the source itself (null until attached) serves quality
 * picks, frame steps, screenshots and the statistics.
 */
export function useHlsSource(
  videoRef: RefObject<HTMLVideoElement | null>,
  playerRef: RefObject<HTMLElement | null>,
  link: string | null | undefined,
  dispatch: Dispatch<PlayerEvent>,
  onFatal: () => void,
): RefObject<HlsSource | null> {
  const source = useRef<HlsSource | null>(null);
  /** Once the viewer has meant to play in this player, the next part's stream attaches at once. */
  const engaged = useRef(false);
  /**
   * The part changed while its stream played, or before a press on play was honoured (the player
   * goes to the part of the saved position once history answers, which may be just after that
   * press): the next part's stream plays once attached, so one press is enough.
   */
  const playNext = useRef(false);
  useEffect(() => {
    const v = videoRef.current;
    if (!v || !link) return;
    const player = playerRef.current ?? v;
    let cancelled = false;
    let started = false;
    dispatch({ type: 'sourceReset' });
    // Data saver: nothing is fetched (not even the playlist) and nothing plays by itself until
    // the viewer presses play; then the stream is attached and that press is honoured.
    const saving = isDataSaverOn();
    const autoplay = !saving && $playerSettings.get().autoplay;
    let playWhenAttached = autoplay || playNext.current;
    playNext.current = false;
    const onPlay = () => {
      playWhenAttached = true;
      start();
    };
    const stopListening = () => {
      v.removeEventListener('play', onPlay);
      for (const type of INTENT_EVENTS) player.removeEventListener(type, start);
    };
    function start() {
      if (started) return;
      started = true;
      engaged.current = true;
      for (const type of INTENT_EVENTS) player.removeEventListener(type, start);
      void attachHls(v!, link!, {
        choice: $playerSettings.get().quality,
        loadBeforePlay: loadSegmentsBeforePlay($playerSettings.get()),
        onLevels: (levels) => !cancelled && dispatch({ type: 'levels', levels }),
        onLevelSwitched: (index) => !cancelled && dispatch({ type: 'levelSwitched', index }),
        onFatal,
      }).then((s) => {
        if (cancelled) return s.destroy();
        v!.removeEventListener('play', onPlay);
        source.current = s;
        dispatch({ type: 'sourceAttached', kind: s.kind });
        // A press on play before the stream was there is honoured now.
        if (playWhenAttached || s.playPressed) void v!.play().catch(() => {});
      });
    }
    if (saving) v.preload = 'none';
    if (autoplay || (engaged.current && !saving)) start();
    else {
      v.addEventListener('play', onPlay);
      if (!saving) for (const type of INTENT_EVENTS) player.addEventListener(type, start, { passive: true });
    }
    return () => {
      cancelled = true;
      playNext.current = (started && playWhenAttached && !source.current) || (!v.paused && !v.ended);
      stopListening();
      source.current?.destroy();
      source.current = null;
    };
  }, [link]);
  return source;
}
