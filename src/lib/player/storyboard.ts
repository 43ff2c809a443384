/**
 * Where the seek bar's preview goes and which storyboard tile it shows: the tile for the hovered
 * time, scaled down on narrow players (so it never covers most of a phone's video), and the
 * whole preview kept inside the bar (the stage clips what leaves it).
 */
import type { Storyboard } from '../api/contracts/video.ts';

/** The largest share of the bar's width a preview frame takes. */
const MAX_WIDTH_SHARE = 0.3;
/** The frame's border (each side), and half the width of the time label shown without a frame. */
const FRAME_BORDER = 2;
const LABEL_HALF_WIDTH = 30;

export interface PreviewLayout {
  /** The preview's centre, in px from the bar's left edge. */
  left: number;
  frame: { tile: number; width: number; height: number; backgroundSize: string; backgroundPosition: string } | null;
}

export function previewLayout(
  board: Storyboard | null,
  time: number,
  duration: number,
  barWidth: number,
): PreviewLayout {
  let frame: PreviewLayout['frame'] = null;
  let half = LABEL_HALF_WIDTH;
  if (board && board.count > 0) {
    const tile = Math.max(0, Math.min(board.count - 1, Math.floor(time / board.intervalSeconds)));
    const scale = Math.min(1, (barWidth * MAX_WIDTH_SHARE) / board.tileWidth);
    const w = board.tileWidth * scale;
    const h = board.tileHeight * scale;
    const px = (n: number) => `${Number(n.toFixed(2))}px`;
    frame = {
      tile,
      width: Math.round(w),
      height: Math.round(h),
      backgroundSize: `${px(board.columns * w)} ${px(board.rows * h)}`,
      backgroundPosition: `${px(-(tile % board.columns) * w)} ${px(-Math.floor(tile / board.columns) * h)}`,
    };
    half = Math.max(half, frame.width / 2 + FRAME_BORDER);
  }
  const x = duration > 0 ? (time / duration) * barWidth : 0;
  return { left: barWidth > 2 * half ? Math.min(barWidth - half, Math.max(half, x)) : barWidth / 2, frame };
}
