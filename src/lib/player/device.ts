/**
 * What the browser lets the player do, found by trying (never by reading the user agent):
 * an iPhone has no Fullscreen API for elements, only the video's own fullscreen
 * (webkitEnterFullscreen), and its media volume is the device's buttons' alone.
 */

/** iOS Safari's own video fullscreen (the video element, with the system's controls). */
export interface WebkitVideo {
  webkitEnterFullscreen?: () => void;
  webkitSupportsFullscreen?: boolean;
}

/**
 * How the player goes fullscreen: the whole player (danmaku and controls come along) where the
 * Fullscreen API exists and is allowed; else the video alone, as iPhones do; else not at all.
 */
export function fullscreenWay(
  root: Pick<Element, 'requestFullscreen'> | null,
  video: WebkitVideo | null,
  doc: Pick<Document, 'fullscreenEnabled'> = document,
): 'player' | 'video' | null {
  if (root && typeof root.requestFullscreen === 'function' && doc.fullscreenEnabled !== false) return 'player';
  if (video && typeof video.webkitEnterFullscreen === 'function' && video.webkitSupportsFullscreen !== false)
    return 'video';
  return null;
}

/** Whether the page can set media volume (iOS keeps it at 1 whatever is set). */
export function volumeIsAdjustable(probe: { volume: number } = document.createElement('audio')): boolean {
  try {
    probe.volume = 0.5;
    return Math.abs(probe.volume - 0.5) < 0.01;
  } catch {
    return false;
  }
}
