import { describe, expect, it } from 'vitest';
import {
  bufferedRanges,
  escapeStep,
  initialPlayerState,
  levelPlaying,
  playerClasses,
  playerReducer,
  seekTarget,
  stageTap,
  timeShown,
  type PlayerEvent,
  type PlayerState,
} from '../../src/lib/player/player-state.ts';
import { readPlaybackStats, type StatsMedia } from '../../src/lib/player/playback-stats.ts';
import type { HlsSource } from '../../src/lib/player/hls-source.ts';
import { anchorToRecord } from '../../src/lib/player/resume.ts';
import { audioForVolume, isTypingTarget, sliderToVolume, steppedVolume } from '../../src/lib/player/shortcuts.ts';

const run = (...events: PlayerEvent[]) => events.reduce(playerReducer, initialPlayerState);
const ranges = (...pairs: Array<[number, number]>) => ({
  length: pairs.length,
  start: (i: number) => pairs[i][0],
  end: (i: number) => pairs[i][1],
});
const ladder = [
  { index: 0, height: 360, bitrate: 800e3 },
  { index: 1, height: 720, bitrate: 2.8e6 },
];

describe('the player state', () => {
  it('follows the element: playing, stalls, time, duration, rate', () => {
    const s = run(
      { type: 'paused', paused: false },
      { type: 'waiting', waiting: true },
      { type: 'time', time: 12.5 },
      { type: 'duration', duration: 90 },
      { type: 'rate', rate: 1.5 },
    );
    expect(s).toMatchObject({ paused: false, waiting: true, time: 12.5, duration: 90, rate: 1.5 });
    expect(run({ type: 'duration', duration: Number.POSITIVE_INFINITY }).duration).toBe(0); // a live or unknown length
    expect(run({ type: 'duration', duration: Number.NaN }).duration).toBe(0);
  });

  it('returns the same state when nothing changes, so nothing renders again', () => {
    const s = run({ type: 'time', time: 3 });
    expect(playerReducer(s, { type: 'time', time: 3 })).toBe(s);
    expect(playerReducer(s, { type: 'paused', paused: true })).toBe(s);
    expect(playerReducer(s, { type: 'sourceReset' })).toBe(s);
    expect(playerReducer(s, { type: 'closePanels' })).toBe(s);
    expect(playerReducer(s, { type: 'time', time: 4 })).not.toBe(s);
  });

  it('forgets the rungs of the last source, and keeps the one picked until the source switches', () => {
    const s = run(
      { type: 'sourceAttached', kind: 'hls.js' },
      { type: 'levels', levels: ladder },
      { type: 'levelSwitched', index: 0 },
    );
    expect(levelPlaying(s)).toEqual(ladder[0]);
    const picked = playerReducer({ ...s, panel: 'quality' }, { type: 'qualityPicked', index: 1 });
    expect(picked).toMatchObject({ levelIndex: 1, panel: null });
    expect(playerReducer({ ...s, panel: 'quality' }, { type: 'qualityPicked', index: null })).toMatchObject({
      levelIndex: 0,
      panel: null,
    }); // automatic
    const reset = playerReducer(s, { type: 'sourceReset' });
    expect(reset).toMatchObject({ levels: [], levelIndex: -1, sourceKind: 'hls.js' });
    expect(levelPlaying(reset)).toBeNull();
  });

  it('opens one menu at a time; the same button closes it', () => {
    const quality = run({ type: 'togglePanel', panel: 'quality' });
    expect(quality.panel).toBe('quality');
    expect(playerReducer(quality, { type: 'togglePanel', panel: 'rate' }).panel).toBe('rate');
    expect(playerReducer(quality, { type: 'togglePanel', panel: 'quality' }).panel).toBeNull();
    const both = run({ type: 'panel', panel: 'settings' }, { type: 'stats', open: true });
    expect(playerReducer(both, { type: 'closePanels' })).toMatchObject({ panel: null, statsOpen: false });
  });

  it('names the root element after the modes it is in', () => {
    expect(playerClasses(initialPlayerState)).toBe('player');
    const s = run(
      { type: 'webFullscreen', on: true },
      { type: 'fullscreen', on: true },
      { type: 'controls', shown: false },
      { type: 'list', open: true },
    );
    expect(playerClasses(s)).toBe('player is-web-fullscreen is-fullscreen controls-hidden with-list');
  });

  it('shows the time played, or what is left once the duration is known', () => {
    const s = run({ type: 'time', time: 75 });
    expect(timeShown(s, false)).toBe('1:15');
    expect(timeShown(s, true)).toBe('1:15'); // no duration yet: no countdown
    expect(timeShown(playerReducer(s, { type: 'duration', duration: 117 }), true)).toBe('-0:42');
  });
});

describe('the element, read and moved', () => {
  it('seeks inside the video, a hair before the end', () => {
    expect(seekTarget(-3, 60)).toBe(0);
    expect(seekTarget(30, 60)).toBe(30);
    expect(seekTarget(90, 60)).toBeCloseTo(59.95, 9);
    expect(seekTarget(90, Number.NaN)).toBe(90); // duration unknown
  });

  it('reads buffered ranges as pairs', () => {
    expect(bufferedRanges({ buffered: ranges([0, 4], [10, 12]) })).toEqual([
      [0, 4],
      [10, 12],
    ]);
    expect(bufferedRanges({ buffered: ranges() })).toEqual([]);
  });

  it('reads the statistics from the element, the source and the overlay', () => {
    const media: StatsMedia = {
      videoWidth: 1280,
      videoHeight: 720,
      currentTime: 5,
      buffered: ranges([0, 3], [4, 9.5]),
      getVideoPlaybackQuality: () => ({ droppedVideoFrames: 2, totalVideoFrames: 300 }),
    };
    const source = {
      kind: 'hls.js',
      levels: ladder,
      currentLevel: () => 1,
      isAuto: () => false,
      bandwidth: () => 4e6,
    } as unknown as HlsSource;
    expect(readPlaybackStats(media, source, { stats: { onStage: 7, waiting: 3 }, dropped: 1 })).toEqual({
      width: 1280,
      height: 720,
      level: ladder[1],
      auto: false,
      source: 'hls.js',
      bandwidth: 4e6,
      bufferAhead: 4.5,
      droppedFrames: 2,
      totalFrames: 300,
      danmakuOnStage: 7,
      danmakuWaiting: 3,
      danmakuDropped: 1,
    });
    const bare = readPlaybackStats({ ...media, currentTime: 3.5, getVideoPlaybackQuality: undefined }, null, null);
    expect(bare).toMatchObject({
      level: null,
      auto: true,
      source: '—',
      bandwidth: null,
      bufferAhead: 0,
      droppedFrames: 0,
      danmakuOnStage: 0,
    });
  });
});

describe('what the controls decide', () => {
  const state = (change: Partial<PlayerState> = {}): PlayerState => ({ ...initialPlayerState, ...change });

  it('Esc leaves the innermost thing first, and nothing when there is nothing to leave', () => {
    expect(escapeStep(state({ panel: 'rate', webFullscreen: true }), true)).toBe('panels');
    expect(escapeStep(state({ statsOpen: true }), false)).toBe('panels');
    expect(escapeStep(state({ webFullscreen: true }), true)).toBe('fullscreen');
    expect(escapeStep(state({ webFullscreen: true }), false)).toBe('webFullscreen');
    expect(escapeStep(state(), false)).toBeNull();
  });

  it('a click plays or pauses; with a menu open a tap only closes it', () => {
    const tap = { pointerType: 'mouse', at: 1000, lastTap: 900, panelOpen: false, controlsShown: true };
    expect(stageTap(tap)).toEqual({ act: 'togglePlay', lastTap: 900 });
    expect(stageTap({ ...tap, pointerType: 'touch', panelOpen: true })).toEqual({ act: 'closePanel', lastTap: 900 });
  });

  it('on touch a tap shows or hides the controls, a double tap plays or pauses, a third starts a new pair', () => {
    const first = stageTap({ pointerType: 'touch', at: 5000, lastTap: 0, panelOpen: false, controlsShown: true });
    expect(first).toEqual({ act: 'hideControls', lastTap: 5000 });
    const second = stageTap({
      pointerType: 'touch',
      at: 5200,
      lastTap: first.lastTap,
      panelOpen: false,
      controlsShown: false,
    });
    expect(second).toEqual({ act: 'togglePlay', lastTap: 0 });
    const third = stageTap({
      pointerType: 'touch',
      at: 5350,
      lastTap: second.lastTap,
      panelOpen: false,
      controlsShown: false,
    });
    expect(third).toEqual({ act: 'showControls', lastTap: 5350 });
    expect(stageTap({ pointerType: 'touch', at: 5700, lastTap: 5350, panelOpen: false, controlsShown: true }).act).toBe(
      'hideControls',
    ); // 350 ms: two taps
  });

  it('keeps the keys of a text field, not of a slider or a box', () => {
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'range' })).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
  });

  it('steps the volume on the perceptual curve, from silence when muted; 0 mutes', () => {
    expect(steppedVolume({ volume: sliderToVolume(0.5), muted: false }, 1)).toBeCloseTo(sliderToVolume(0.6), 9);
    expect(steppedVolume({ volume: 1, muted: true }, 1)).toBeCloseTo(sliderToVolume(0.1), 9);
    expect(audioForVolume(steppedVolume({ volume: 0.5, muted: true }, -1))).toEqual({ volume: 0, muted: true });
    expect(audioForVolume(1.2)).toEqual({ volume: 1, muted: false });
  });
});

describe('history positions', () => {
  it('are written to a tenth of a second, not at the very start, and not twice in a row', () => {
    expect(anchorToRecord(0, null)).toBeNull();
    expect(anchorToRecord(12.37, null)).toBe(12.3);
    expect(anchorToRecord(12.39, 12.3)).toBeNull();
    expect(anchorToRecord(12.4, 12.3)).toBe(12.4);
  });
});
