import { useEffect, useRef, type Dispatch, type RefObject } from 'react';
import { attachHls, type HlsSource } from '../../lib/player/hls-source.ts';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { $playerSettings } from '../../lib/stores/player-settings.ts';
import { loadSegmentsBeforePlay } from '../../lib/player/media-loading.ts';
import { isDataSaverOn } from '../../lib/stores/app-settings.ts';

/**
 * The part's stream on the element: hls.js (loaded lazily) or the browser's own HLS, with the
 * remembered quality applied at once and autoplay when chosen. The rungs and the one playing go
 * to the player state; the source itself (null until attached) serves quality picks, frame
 * steps, screenshots and the statistics.
 */
export function useHlsSource(videoRef: RefObject<HTMLVideoElement | null>, link: string | null | undefined, dispatch: Dispatch<PlayerEvent>, onFatal: () => void): RefObject<HlsSource | null> {
  const source = useRef<HlsSource | null>(null);
  useEffect(() => {
    const v = videoRef.current;
    if (!v || !link) return;
    let cancelled = false;
    dispatch({ type: 'sourceReset' });
    // Data saver: nothing is fetched (not even the playlist) and nothing plays by itself until
    // the viewer presses play; then the stream is attached and that press is honoured.
    const saving = isDataSaverOn();
    const attach = () => attachHls(v, link, {
      choice: $playerSettings.get().quality,
      loadBeforePlay: loadSegmentsBeforePlay($playerSettings.get()),
      onLevels: (levels) => !cancelled && dispatch({ type: 'levels', levels }),
      onLevelSwitched: (index) => !cancelled && dispatch({ type: 'levelSwitched', index }),
      onFatal,
    }).then((s) => {
      if (cancelled) return s.destroy();
      source.current = s;
      dispatch({ type: 'sourceAttached', kind: s.kind });
      if (saving || $playerSettings.get().autoplay) void v.play().catch(() => {});
    });
    if (saving) {
      v.preload = 'none';
      v.addEventListener('play', attach, { once: true });
    } else void attach();
    return () => {
      cancelled = true;
      v.removeEventListener('play', attach);
      source.current?.destroy();
      source.current = null;
    };
  }, [link]);
  return source;
}
