/**
 * The player island's state as one reducer: what the video element reports (playing, time,
 * buffered ranges, rate), what the HLS source reports (rungs, the one playing), and what the
 * viewer opened (menus, statistics, the danmaku list, fullscreen modes). The hooks of
 * src/islands/player translate element and document events into these actions; the decisions
 * the controls take (a tap on the stage, Esc) are plain functions of this state too.
 */
import type { Danmaku } from '../api/contracts/interaction.ts';
import type { QualityLevel } from './quality.ts';
import { formatTimecode } from './shortcuts.ts';

export type Panel = 'quality' | 'rate' | 'volume' | 'danmaku' | 'subtitles' | 'settings' | null;
export type Range = [number, number];

export interface PlayerState {
  partIndex: number;
  paused: boolean;
  /** Stalled for data (the spinner shows while playing). */
  waiting: boolean;
  time: number;
  /** 0 until known. */
  duration: number;
  buffered: Range[];
  rate: number;
  /** 'hls.js' or 'native' once a source is attached, '' before. */
  sourceKind: string;
  levels: QualityLevel[];
  /** The rung playing (an index of `levels`), -1 when unknown. */
  levelIndex: number;
  /** The danmaku loaded so far (the list panel, the density curve, the count). */
  danmaku: readonly Danmaku[];
  panel: Panel;
  statsOpen: boolean;
  listOpen: boolean;
  fullscreen: boolean;
  webFullscreen: boolean;
  pictureInPicture: boolean;
  controlsShown: boolean;
}

export const initialPlayerState: PlayerState = {
  partIndex: 0,
  paused: true,
  waiting: false,
  time: 0,
  duration: 0,
  buffered: [],
  rate: 1,
  sourceKind: '',
  levels: [],
  levelIndex: -1,
  danmaku: [],
  panel: null,
  statsOpen: false,
  listOpen: false,
  fullscreen: false,
  webFullscreen: false,
  pictureInPicture: false,
  controlsShown: true,
};

export type PlayerEvent =
  // The element
  | { type: 'paused'; paused: boolean }
  | { type: 'waiting'; waiting: boolean }
  | { type: 'time'; time: number }
  | { type: 'duration'; duration: number }
  | { type: 'buffered'; ranges: Range[] }
  | { type: 'rate'; rate: number }
  | { type: 'pictureInPicture'; on: boolean }
  // The source
  | { type: 'sourceReset' }
  | { type: 'sourceAttached'; kind: string }
  | { type: 'levels'; levels: QualityLevel[] }
  | { type: 'levelSwitched'; index: number }
  /** The viewer picked a rung (null: automatic); the menu closes. */
  | { type: 'qualityPicked'; index: number | null }
  // The danmaku overlay
  | { type: 'danmaku'; list: readonly Danmaku[] }
  // The viewer
  | { type: 'part'; index: number }
  | { type: 'panel'; panel: Panel }
  /** Opens the panel, or closes it when it is the one open. */
  | { type: 'togglePanel'; panel: Exclude<Panel, null> }
  | { type: 'stats'; open: boolean }
  /** Closes the open menu and the statistics. */
  | { type: 'closePanels' }
  | { type: 'list'; open: boolean }
  | { type: 'fullscreen'; on: boolean }
  | { type: 'webFullscreen'; on: boolean }
  | { type: 'controls'; shown: boolean };

/** `state` itself when nothing changes, so React skips the render (as a useState setter does). */
function patch(state: PlayerState, change: Partial<PlayerState>): PlayerState {
  for (const key of Object.keys(change) as Array<keyof PlayerState>) {
    if (!Object.is(state[key], change[key])) return { ...state, ...change };
  }
  return state;
}

export function playerReducer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'paused':
      return patch(state, { paused: event.paused });
    case 'waiting':
      return patch(state, { waiting: event.waiting });
    case 'time':
      return patch(state, { time: event.time });
    case 'duration':
      return patch(state, { duration: Number.isFinite(event.duration) ? event.duration : 0 });
    case 'buffered':
      return patch(state, { buffered: event.ranges });
    case 'rate':
      return patch(state, { rate: event.rate });
    case 'pictureInPicture':
      return patch(state, { pictureInPicture: event.on });
    case 'sourceReset':
      return patch(state, { levels: state.levels.length ? [] : state.levels, levelIndex: -1 });
    case 'sourceAttached':
      return patch(state, { sourceKind: event.kind });
    case 'levels':
      return patch(state, { levels: event.levels });
    case 'levelSwitched':
      return patch(state, { levelIndex: event.index });
    case 'qualityPicked':
      return patch(state, { levelIndex: event.index ?? state.levelIndex, panel: null });
    case 'danmaku':
      return patch(state, { danmaku: event.list });
    case 'part':
      return patch(state, { partIndex: event.index });
    case 'panel':
      return patch(state, { panel: event.panel });
    case 'togglePanel':
      return patch(state, { panel: state.panel === event.panel ? null : event.panel });
    case 'stats':
      return patch(state, { statsOpen: event.open });
    case 'closePanels':
      return patch(state, { panel: null, statsOpen: false });
    case 'list':
      return patch(state, { listOpen: event.open });
    case 'fullscreen':
      return patch(state, { fullscreen: event.on });
    case 'webFullscreen':
      return patch(state, { webFullscreen: event.on });
    case 'controls':
      return patch(state, { controlsShown: event.shown });
  }
}

/** The rung playing now, if known. */
export const levelPlaying = (state: PlayerState): QualityLevel | null => state.levels[state.levelIndex] ?? null;

/** The time shown in the control bar: played so far, or (countdown) what is left. */
export const timeShown = (state: PlayerState, countdown: boolean): string =>
  formatTimecode(countdown && state.duration ? state.time - state.duration : state.time);

/** The classes of the player's root element. */
export const playerClasses = (state: PlayerState): string =>
  [
    'player',
    state.webFullscreen && 'is-web-fullscreen',
    state.fullscreen && 'is-fullscreen',
    !state.controlsShown && 'controls-hidden',
    state.listOpen && 'with-list',
  ]
    .filter(Boolean)
    .join(' ');

/** Where a seek to `to` lands: not before the start, and a hair before the end (so 'ended' does not fire). */
export const seekTarget = (to: number, duration: number): number =>
  Math.min(Math.max(0, to), Number.isFinite(duration) ? Math.max(0, duration - 0.05) : to);

/** The element's buffered ranges as pairs. */
export const bufferedRanges = (media: { buffered: Pick<TimeRanges, 'length' | 'start' | 'end'> }): Range[] =>
  Array.from({ length: media.buffered.length }, (_, i) => [media.buffered.start(i), media.buffered.end(i)] as Range);

/**
 * What Esc leaves, innermost first: an open menu or the statistics, then fullscreen, then web
 * fullscreen; null when there is nothing to leave (the key then goes on to the page).
 */
export function escapeStep(
  state: Pick<PlayerState, 'panel' | 'statsOpen' | 'webFullscreen'>,
  inFullscreen: boolean,
): 'panels' | 'fullscreen' | 'webFullscreen' | null {
  if (state.panel || state.statsOpen) return 'panels';
  if (inFullscreen) return 'fullscreen';
  if (state.webFullscreen) return 'webFullscreen';
  return null;
}

/** Two touch taps closer than this are a double tap. */
export const DOUBLE_TAP_MS = 300;

export interface StageTap {
  pointerType: string;
  /** The event's timeStamp. */
  at: number;
  /** When the previous tap that may start a double tap was (0: none). */
  lastTap: number;
  panelOpen: boolean;
  controlsShown: boolean;
}

/**
 * What a tap or click on the stage (the video, the danmaku) does. A mouse click plays or pauses;
 * on touch a tap shows or hides the controls and a double tap plays or pauses. With a menu open,
 * the tap only closes it. `lastTap` is what the next tap compares with: a third quick tap starts
 * a new pair instead of toggling playback back.
 */
export function stageTap(tap: StageTap): {
  act: 'closePanel' | 'togglePlay' | 'showControls' | 'hideControls';
  lastTap: number;
} {
  if (tap.panelOpen) return { act: 'closePanel', lastTap: tap.lastTap };
  if (tap.pointerType === 'mouse') return { act: 'togglePlay', lastTap: tap.lastTap };
  const double = tap.at - tap.lastTap < DOUBLE_TAP_MS;
  return {
    act: double ? 'togglePlay' : tap.controlsShown ? 'hideControls' : 'showControls',
    lastTap: double ? 0 : tap.at,
  };
}
