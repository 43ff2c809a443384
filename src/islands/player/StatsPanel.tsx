import { levelLabel } from '../../lib/player/quality.ts';
import type { PlaybackStats } from '../../lib/player/playback-stats.ts';

interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  stats: PlaybackStats;
  onClose: () => void;
}

/** Playback statistics over the video: what is playing and how well. */
export default function StatsPanel({ t, stats, onClose }: Props) {
  const rows: Array<[string, string]> = [
    [t('player.stats.resolution'), stats.width ? `${stats.width} × ${stats.height}` : '—'],
    [
      t('player.stats.rung'),
      `${stats.level ? levelLabel(stats.level) : '—'}${stats.auto ? ` (${t('player.auto')})` : ''}`,
    ],
    [t('player.stats.source'), stats.source],
    [t('player.stats.bandwidth'), stats.bandwidth ? `${(stats.bandwidth / 1e6).toFixed(2)} Mb/s` : '—'],
    [t('player.stats.buffer'), `${stats.bufferAhead.toFixed(1)} s`],
    [t('player.stats.droppedFrames'), `${stats.droppedFrames} / ${stats.totalFrames}`],
    [t('player.stats.danmaku'), `${stats.danmakuOnStage} / ${stats.danmakuWaiting} / ${stats.danmakuDropped}`],
  ];
  return (
    <div className="player-stats" role="dialog" aria-label={t('player.statistics')} data-player-stats>
      <button type="button" className="player-stats-close" aria-label={t('player.close')} onClick={onClose}>
        ×
      </button>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
