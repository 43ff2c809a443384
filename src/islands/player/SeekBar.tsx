import { useMemo, useRef, useState } from 'react';
import type { Danmaku } from '../../lib/api/contracts/interaction.ts';
import type { Storyboard } from '../../lib/api/contracts/video.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { previewLayout } from '../../lib/player/storyboard.ts';

const DENSITY_BINS = 100;

/** How many danmaku fall in each of DENSITY_BINS slices of the video (0..1, relative to the busiest). */
export function densityOf(list: readonly Danmaku[], duration: number): number[] {
  const bins = new Array<number>(DENSITY_BINS).fill(0);
  if (!duration) return bins;
  for (const d of list) bins[Math.min(DENSITY_BINS - 1, Math.floor((d.time / duration) * DENSITY_BINS))]++;
  const most = Math.max(1, ...bins);
  return bins.map((n) => n / most);
}

interface Props {
  currentTime: number;
  duration: number;
  buffered: Array<[number, number]>;
  danmaku: readonly Danmaku[];
  storyboard: Storyboard | null;
  label: string;
  onSeek: (time: number) => void;
}

/**
 * The seek bar: played and buffered ranges, a danmaku density curve, and on hover (or while
 * dragging) the time with its storyboard frame. Keyboard: the slider role takes arrows natively.
 */
export default function SeekBar({ currentTime, duration, buffered, danmaku, storyboard, label, onSeek }: Props) {
  const bar = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [barWidth, setBarWidth] = useState(0);
  const [dragging, setDragging] = useState(false);
  const density = useMemo(() => densityOf(danmaku, duration), [danmaku, duration]);
  const curve = useMemo(() => {
    const points = density.map((v, i) => `${((i + 0.5) / DENSITY_BINS) * 100},${100 - v * 100}`);
    return `M0,100 L${points.join(' L')} L100,100 Z`;
  }, [density]);

  const timeAt = (clientX: number) => {
    const rect = bar.current!.getBoundingClientRect();
    setBarWidth(rect.width);
    return Math.min(1, Math.max(0, (clientX - rect.left) / rect.width)) * duration;
  };
  const played = duration ? (currentTime / duration) * 100 : 0;
  const preview = hover ?? null;
  const layout = preview !== null ? previewLayout(storyboard, preview, duration, barWidth) : null;

  return (
    <div
      ref={bar}
      className="seek-bar"
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(currentTime)}
      aria-valuetext={`${formatTimecode(currentTime)} / ${formatTimecode(duration)}`}
      data-seek-bar
      onPointerDown={(e) => {
        if (!duration) return;
        (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
        setDragging(true);
        setHover(timeAt(e.clientX));
      }}
      onPointerMove={(e) => duration && setHover(timeAt(e.clientX))}
      onPointerUp={(e) => {
        if (dragging) onSeek(timeAt(e.clientX));
        setDragging(false);
        if (e.pointerType !== 'mouse') setHover(null);
      }}
      onPointerLeave={() => !dragging && setHover(null)}
      onKeyDown={(e) => {
        // Arrow keys belong to the player's shortcuts (5 s); Home/End jump to the ends.
        if (e.key === 'Home') onSeek(0);
        if (e.key === 'End') onSeek(Math.max(0, duration - 0.1));
      }}
    >
      <svg
        className="seek-density"
        viewBox="0 0 100 100"
        preserveAspectRatio="none"
        aria-hidden="true"
        data-density={density.map((v) => Number(v.toFixed(3))).join(' ')}
      >
        <path d={curve} />
      </svg>
      <div className="seek-track">
        {buffered.map(([start, end]) => (
          <div
            key={start}
            className="seek-buffered"
            style={{ left: `${(start / duration) * 100}%`, width: `${((end - start) / duration) * 100}%` }}
          />
        ))}
        <div
          className="seek-played"
          style={{ width: `${dragging && hover !== null ? (hover / duration) * 100 : played}%` }}
        />
        <div
          className="seek-thumb"
          style={{ left: `${dragging && hover !== null ? (hover / duration) * 100 : played}%` }}
        />
      </div>
      {preview !== null && layout && (
        <div className="seek-preview" style={{ left: layout.left }} data-seek-preview>
          {storyboard && layout.frame && (
            <div
              className="seek-frame"
              style={{
                width: layout.frame.width,
                height: layout.frame.height,
                backgroundImage: `url("${storyboard.url}")`,
                backgroundSize: layout.frame.backgroundSize,
                backgroundPosition: layout.frame.backgroundPosition,
              }}
              data-tile={layout.frame.tile}
            />
          )}
          <span>{formatTimecode(preview)}</span>
        </div>
      )}
    </div>
  );
}
