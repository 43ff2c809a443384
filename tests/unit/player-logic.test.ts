import { fullscreenWay, volumeIsAdjustable } from '../../src/lib/player/device.ts';
import { describe, expect, it } from 'vitest';
import { levelFor, levelLabel, menuLevels, topLevel } from '../../src/lib/player/quality.ts';
import { captureLevel } from '../../src/lib/player/screenshot.ts';
import { segmentsToLoad } from '../../src/lib/danmaku/segments.ts';
import { resumePosition } from '../../src/lib/player/resume.ts';
import { MediaClock, type MediaLike } from '../../src/lib/danmaku/clock.ts';
import { DanmakuEngine } from '../../src/lib/danmaku/engine.ts';
import { mergePlayerSettings, DEFAULT_PLAYER_SETTINGS } from '../../src/lib/stores/player-settings.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';

const ladder = [
  { index: 0, height: 360, bitrate: 800e3 },
  { index: 1, height: 720, bitrate: 2.8e6 },
  { index: 2, height: 1080, bitrate: 5e6 },
];

describe('quality choice', () => {
  it('leaves automatic to hls.js and finds the remembered rung', () => {
    expect(levelFor(ladder, { auto: true, preferred: 720 })).toBe(-1);
    expect(levelFor(ladder, { auto: false, preferred: 0 })).toBe(-1);
    expect(levelFor(ladder, { auto: false, preferred: 720 })).toBe(1);
  });
  it('never picks a heavier rung than asked when the exact one is missing', () => {
    expect(levelFor(ladder, { auto: false, preferred: 900 })).toBe(1);
    expect(levelFor(ladder.slice(1), { auto: false, preferred: 480 })).toBe(1); // nothing below: the lowest
    expect(levelFor([], { auto: false, preferred: 720 })).toBe(-1);
  });
  it('lists one entry per height, highest first', () => {
    const dup = [...ladder, { index: 3, height: 720, bitrate: 1.5e6 }];
    expect(menuLevels(dup).map((l) => [l.height, l.index])).toEqual([
      [1080, 2],
      [720, 1],
      [360, 0],
    ]);
    expect(levelLabel({ height: 0, bitrate: 128_000 })).toBe('128 kb/s');
  });
});

describe('danmaku segments', () => {
  it('loads the segment playing, and the next one shortly before it starts', () => {
    expect(segmentsToLoad(0, 360, 3, new Set())).toEqual([0]);
    expect(segmentsToLoad(100, 360, 3, new Set([0]))).toEqual([]);
    expect(segmentsToLoad(340, 360, 3, new Set([0]))).toEqual([1]);
    expect(segmentsToLoad(1000, 360, 3, new Set())).toEqual([2]); // a seek far ahead
    expect(segmentsToLoad(1070, 360, 3, new Set([2]))).toEqual([]); // no segment past the end
  });
});

describe('resuming from history', () => {
  it('resumes in the middle, not at the very start or end', () => {
    expect(resumePosition(42, 120)).toBe(42);
    expect(resumePosition(1, 120)).toBeNull();
    expect(resumePosition(119, 120)).toBeNull();
    expect(resumePosition(null, 120)).toBeNull();
    expect(resumePosition(42, Number.NaN)).toBe(42); // duration not known yet
  });
});

describe('the media clock never steps back while playing', () => {
  it('holds still when a report lands a hair behind the extrapolation', () => {
    const m: { -readonly [K in keyof MediaLike]: MediaLike[K] } = {
      currentTime: 10,
      playbackRate: 1,
      paused: false,
      seeking: false,
      readyState: 4,
    };
    const clock = new MediaClock(m);
    clock.now(0);
    const ahead = clock.now(100); // 10.1
    m.currentTime = 10.08;
    expect(clock.now(105)).toBeCloseTo(ahead, 5);
    m.paused = true;
    m.currentTime = 3; // a seek while paused is followed exactly
    expect(clock.now(110)).toBe(3);
  });
});

describe('the engine with comments added late', () => {
  const d = (id: number, time: number): Danmaku => ({
    id,
    time,
    text: 'hi',
    color: 'ffffff',
    fontSize: 'medium',
    mode: 'rtl',
    enableRainbow: false,
    editDateTime: 0,
  });
  it('lets one just past enter, and does not count long-gone ones as dropped', () => {
    const e = new DanmakuEngine({
      width: 800,
      height: 450,
      area: 1,
      keepSubtitlesClear: false,
      fontScale: 1,
      speed: 1,
      measure: () => 40,
    });
    e.advance(0);
    e.advance(0.5);
    e.advance(1.2);
    e.advance(2);
    e.add([d(1, 1.9), d(2, 0.1)]);
    expect(e.advance(2.05).map((a) => a.item.id)).toEqual([1]);
    e.advance(3);
    expect(e.dropped).toBe(0);
  });
  it('moves back a little without rebuilding on clock jitter', () => {
    const e = new DanmakuEngine({
      width: 800,
      height: 450,
      area: 1,
      keepSubtitlesClear: false,
      fontScale: 1,
      speed: 1,
      measure: () => 40,
    });
    e.load([d(1, 0)]);
    const x1 = e.advance(1)[0].x;
    const x2 = e.advance(0.95)[0].x;
    expect(x2).toBeGreaterThan(x1);
  });
});

describe('player settings', () => {
  it('fills fields added later with their defaults', () => {
    const merged = mergePlayerSettings({ audio: { volume: 0.3 }, danmaku: { speed: 1.4 } });
    expect(merged.audio).toEqual({ volume: 0.3, muted: false });
    expect(merged.danmaku.speed).toBe(1.4);
    expect(merged.countdown).toBe(false);
    expect(merged.quality).toEqual(DEFAULT_PLAYER_SETTINGS.quality);
  });
  it('keeps a stored danmaku density, and reads an unknown one as readable', () => {
    expect(mergePlayerSettings({ danmaku: { density: 'all' } }).danmaku.density).toBe('all');
    expect(mergePlayerSettings({ danmaku: { density: 'everything' } }).danmaku.density).toBe('readable');
    expect(mergePlayerSettings({}).danmaku.density).toBe('readable');
  });
});

describe('screenshot rung', () => {
  it('captures from the top rung only when a taller one than the playing rung exists', () => {
    expect(topLevel(ladder)).toEqual(ladder[2]);
    expect(topLevel([])).toBe(null);
    expect(captureLevel(ladder, 360)).toEqual(ladder[2]);
    expect(captureLevel(ladder, 1080)).toBe(null);
    expect(captureLevel(ladder.slice(0, 1), 360)).toBe(null); // one rung: the frame on screen is the source's
    expect(captureLevel([], 360)).toBe(null); // native HLS lists no rungs
  });
  it('picks the heavier of two rungs of the same height', () => {
    const twins = [
      { index: 0, height: 720, bitrate: 2e6 },
      { index: 1, height: 720, bitrate: 3e6 },
    ];
    expect(topLevel(twins)?.index).toBe(1);
  });
});

describe('what the device lets the player do', () => {
  const video = { webkitEnterFullscreen: () => {}, webkitSupportsFullscreen: true };
  const root = { requestFullscreen: async () => {} };
  it('takes the whole player fullscreen where the Fullscreen API is there and allowed', () => {
    expect(fullscreenWay(root, video, { fullscreenEnabled: true })).toBe('player');
  });
  it('falls back to the video element’s own fullscreen on an iPhone (no element API), else to nothing', () => {
    expect(fullscreenWay({} as never, video, { fullscreenEnabled: undefined as never })).toBe('video');
    expect(fullscreenWay(root, video, { fullscreenEnabled: false })).toBe('video'); // refused by a policy
    expect(
      fullscreenWay(
        {} as never,
        { webkitSupportsFullscreen: false, webkitEnterFullscreen: () => {} },
        { fullscreenEnabled: undefined as never },
      ),
    ).toBe(null);
    expect(fullscreenWay({} as never, {}, { fullscreenEnabled: undefined as never })).toBe(null);
  });
  it('knows when the volume is the device’s alone (iOS keeps media volume at 1)', () => {
    expect(volumeIsAdjustable({ volume: 1 })).toBe(true);
    const ios = {
      get volume() {
        return 1;
      },
      set volume(_: number) {},
    };
    expect(volumeIsAdjustable(ios)).toBe(false);
  });
});
