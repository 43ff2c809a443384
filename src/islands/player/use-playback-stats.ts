import { useEffect, useState, type RefObject } from 'react';
import type { DanmakuOverlay } from '../../lib/danmaku/overlay.ts';
import type { HlsSource } from '../../lib/player/hls-source.ts';
import { readPlaybackStats, type PlaybackStats } from '../../lib/player/playback-stats.ts';

const REFRESH_MS = 500;

/** The statistics panel's figures, read at once and refreshed while the panel is open. */
export function usePlaybackStats(
  open: boolean,
  videoRef: RefObject<HTMLVideoElement | null>,
  source: RefObject<HlsSource | null>,
  overlay: RefObject<DanmakuOverlay | null>,
): PlaybackStats | null {
  const [stats, setStats] = useState<PlaybackStats | null>(null);
  useEffect(() => {
    if (!open) return;
    const read = () => setStats(readPlaybackStats(videoRef.current!, source.current, overlay.current));
    read();
    const timer = window.setInterval(read, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [open]);
  return stats;
}
