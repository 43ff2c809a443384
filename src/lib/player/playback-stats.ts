/**
 * The statistics panel's figures, read from the element, the HLS source and the danmaku
 * overlay: what is playing and how well.
 */
import type { HlsSource } from './hls-source.ts';
import type { QualityLevel } from './quality.ts';
import { bufferedRanges } from './player-state.ts';

export interface PlaybackStats {
  width: number;
  height: number;
  level: QualityLevel | null;
  auto: boolean;
  source: string;
  /** bit/s, when hls.js estimates it */
  bandwidth: number | null;
  bufferAhead: number;
  droppedFrames: number;
  totalFrames: number;
  danmakuOnStage: number;
  danmakuWaiting: number;
  danmakuDropped: number;
}

/** What is read from the element (an HTMLVideoElement). */
export interface StatsMedia {
  videoWidth: number;
  videoHeight: number;
  currentTime: number;
  buffered: Pick<TimeRanges, 'length' | 'start' | 'end'>;
  getVideoPlaybackQuality?: () => Pick<VideoPlaybackQuality, 'droppedVideoFrames' | 'totalVideoFrames'>;
}

/** What is read from the danmaku overlay. */
export interface StatsDanmaku {
  readonly stats: { onStage: number; waiting: number };
  readonly dropped: number;
}

export function readPlaybackStats(
  media: StatsMedia,
  source: HlsSource | null,
  danmaku: StatsDanmaku | null,
): PlaybackStats {
  const quality = media.getVideoPlaybackQuality?.();
  const now = media.currentTime;
  const ahead = bufferedRanges(media).find(([a, b]) => a <= now && now <= b);
  return {
    width: media.videoWidth,
    height: media.videoHeight,
    level: source ? (source.levels[source.currentLevel()] ?? null) : null,
    auto: source?.isAuto() ?? true,
    source: source?.kind ?? '—',
    bandwidth: source?.bandwidth() ?? null,
    bufferAhead: ahead ? ahead[1] - now : 0,
    droppedFrames: quality?.droppedVideoFrames ?? 0,
    totalFrames: quality?.totalVideoFrames ?? 0,
    danmakuOnStage: danmaku?.stats.onStage ?? 0,
    danmakuWaiting: danmaku?.stats.waiting ?? 0,
    danmakuDropped: danmaku?.dropped ?? 0,
  };
}
