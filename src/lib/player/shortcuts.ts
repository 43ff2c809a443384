/**
 * The player's keyboard shortcuts: one table, used by the player to act and by
 * /settings/shortcut-key to list them.
 */
export type PlayerAction =
  | 'togglePlay'
  | 'exitFullscreen'
  | 'toggleFullscreen'
  | 'toggleDanmaku'
  | 'toggleMute'
  | 'volumeUp'
  | 'volumeDown'
  | 'seekBack'
  | 'seekForward'
  | 'rateDown'
  | 'rateUp'
  | 'previousFrame'
  | 'nextFrame'
  | 'toggleSubtitles';

export interface Shortcut {
  action: PlayerAction;
  /** KeyboardEvent.key values (case-insensitive for letters). */
  keys: string[];
  ctrl?: boolean;
  /** Shown in the list as written here. */
  label: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'togglePlay', keys: [' ', 'Spacebar'], label: 'Space' },
  { action: 'exitFullscreen', keys: ['Escape'], label: 'Esc' },
  { action: 'toggleFullscreen', keys: ['f'], label: 'F' },
  { action: 'toggleDanmaku', keys: ['d'], label: 'D' },
  { action: 'toggleSubtitles', keys: ['c'], label: 'C' },
  { action: 'toggleMute', keys: ['m'], label: 'M' },
  { action: 'volumeUp', keys: ['ArrowUp'], label: '↑' },
  { action: 'volumeDown', keys: ['ArrowDown'], label: '↓' },
  { action: 'rateDown', keys: ['ArrowLeft'], ctrl: true, label: 'Ctrl + ←' },
  { action: 'rateUp', keys: ['ArrowRight'], ctrl: true, label: 'Ctrl + →' },
  { action: 'seekBack', keys: ['ArrowLeft'], label: '←' },
  { action: 'seekForward', keys: ['ArrowRight'], label: '→' },
  { action: 'previousFrame', keys: [','], label: ',' },
  { action: 'nextFrame', keys: ['.'], label: '.' },
];

/** Seconds a seek shortcut moves; volume step; playback rates the rate steps go through. */
export const SEEK_STEP_SECONDS = 5;
export const VOLUME_STEP = 0.1;
export const RATE_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
export const RATE_MIN = 0.25;
export const RATE_MAX = 4;

/** The action for a key press, or null (typing in a field never triggers a shortcut). */
export function actionFor(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
  typingInField: boolean,
): PlayerAction | null {
  if (typingInField || event.altKey) return null;
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const match = SHORTCUTS.find((s) => s.keys.includes(key) && !!s.ctrl === ctrl);
  return match?.action ?? null;
}

/** What a key press lands on: typing in a text field keeps its keys (sliders and boxes do not type). */
export function isTypingTarget(
  target: { isContentEditable?: boolean; tagName?: string; type?: string } | null,
): boolean {
  if (!target) return false;
  const field = !!target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName ?? '');
  return field && !(target.tagName === 'INPUT' && /^(range|checkbox|radio)$/.test(target.type ?? ''));
}

/** The next rate step up or down from `rate` (a continuous rate snaps to the neighbouring step). */
export function stepRate(rate: number, direction: 1 | -1): number {
  if (direction > 0) return RATE_STEPS.find((r) => r > rate + 1e-9) ?? RATE_MAX;
  return [...RATE_STEPS].reverse().find((r) => r < rate - 1e-9) ?? RATE_MIN;
}

/** Perceptual volume: the slider moves in loudness, the element gets amplitude (a cubic curve). */
export const sliderToVolume = (slider: number) => Math.min(1, Math.max(0, slider)) ** 3;
export const volumeToSlider = (volume: number) => Math.cbrt(Math.min(1, Math.max(0, volume)));

/** The audio settings for a volume chosen on the slider or by a key: 0 mutes. */
export const audioForVolume = (volume: number) => ({ volume: Math.min(1, Math.max(0, volume)), muted: volume <= 0 });

/** One volume key press up or down from what is heard now (from silence when muted). */
export const steppedVolume = (audio: { volume: number; muted: boolean }, direction: 1 | -1) =>
  sliderToVolume(volumeToSlider(audio.muted ? 0 : audio.volume) + direction * VOLUME_STEP);

/** 75 → "1:15", 3725 → "1:02:05"; negative for countdowns ("-0:42"). */
export function formatTimecode(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const total = Math.floor(Math.abs(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${sign}${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** Screenshot file name: '<title> (kv<id>) - <timecode>' with characters files cannot hold replaced. */
export function screenshotName(title: string, videoId: number, seconds: number): string {
  const safe = `${title} (kv${videoId}) - ${formatTimecode(seconds).replaceAll(':', '-')}`.replace(
    /[\\/:*?"<>|\p{Cc}]+/gu,
    '_',
  );
  return `${safe}.png`;
}
