/** Subtitles in the player (issue 29, playback): which track shows, the WebVTT the player reads, and danmaku keeping clear of a line. */
import { describe, expect, it } from 'vitest';
import { initialTrack, toggledOnTrack, trackForLocale } from '../../src/lib/subtitles/choice.ts';
import { activeCues, longestCue, parseWebVtt } from '../../src/lib/subtitles/webvtt.ts';
import { DanmakuEngine } from '../../src/lib/danmaku/engine.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';

const tracks = [
  { id: 1, language: 'ja', label: '日本語' },
  { id: 2, language: 'zh-Hant', label: '繁體中文' },
  { id: 3, language: 'zh-Hans', label: '简体中文' },
  { id: 4, language: 'ja', label: '日本語（特効）' },
];

describe('which subtitle track shows', () => {
  it('follows the interface language, the most specific tag first, else none', () => {
    expect(trackForLocale(tracks, 'zhs')?.id).toBe(3);
    expect(trackForLocale(tracks, 'zht')?.id).toBe(2);
    expect(trackForLocale(tracks, 'yue')?.id).toBe(2);
    expect(trackForLocale(tracks, 'ja')?.id).toBe(1);
    expect(trackForLocale(tracks, 'en')).toBeNull();
    expect(trackForLocale([{ id: 9, language: 'en-GB', label: 'English' }], 'en')?.id).toBe(9);
  });
  it('keeps a remembered choice (off included) over the interface language', () => {
    expect(initialTrack(tracks, 'ja', { language: 'ja', label: '日本語（特効）' })?.id).toBe(4);
    expect(initialTrack(tracks, 'ja', { language: null })).toBeNull();
    expect(initialTrack(tracks, 'en', { language: 'zh-Hans', label: 'other label' })?.id).toBe(3);
    expect(initialTrack(tracks, 'en', undefined)).toBeNull();
  });
  it('c brings back the last track on, else the interface language, else the first', () => {
    expect(toggledOnTrack(tracks, 'en', { language: 'ja', label: '日本語（特効）' })?.id).toBe(4);
    expect(toggledOnTrack(tracks, 'zhs', undefined)?.id).toBe(3);
    expect(toggledOnTrack(tracks, 'en', undefined)?.id).toBe(1);
    expect(toggledOnTrack([], 'en', undefined)).toBeNull();
  });
});

describe('the WebVTT the player reads', () => {
  const cues = parseWebVtt(
    'WEBVTT\n\nNOTE a note\n\n00:00:01.000 --> 00:00:03.500\nこんにちは\n<i>世界</i>\n\n00:00:02.000 --> 00:00:04.000 line:0\nsign\n\n1:00:00.000 --> 1:00:01.000\nlate\n',
  );
  it('reads timings, text and top lines', () => {
    expect(cues.map((c) => [c.start, c.end, c.top])).toEqual([
      [1, 3.5, false],
      [2, 4, true],
      [3600, 3601, false],
    ]);
    expect(cues[0]!.text).toBe('こんにちは\n<i>世界</i>');
  });
  it('knows the cues shown at a time (end excluded)', () => {
    const longest = longestCue(cues);
    expect(activeCues(cues, 0.5, longest)).toEqual([]);
    expect(activeCues(cues, 2.5, longest).map((c) => c.text)).toEqual(['こんにちは\n<i>世界</i>', 'sign']);
    expect(activeCues(cues, 3.5, longest).map((c) => c.text)).toEqual(['sign']);
    expect(activeCues(cues, 3600.5, longest).map((c) => c.text)).toEqual(['late']);
  });
});

describe('danmaku keep clear of the subtitle line shown', () => {
  const bottom = (id: number): Danmaku => ({
    id,
    time: 1,
    text: `b${id}`,
    color: 'ffffff',
    fontSize: 'medium',
    mode: 'bottom',
    enableRainbow: false,
    editDateTime: 0,
  });
  const make = () =>
    new DanmakuEngine({
      width: 800,
      height: 450,
      area: 1,
      keepSubtitlesClear: false,
      fontScale: 1,
      speed: 1,
      measure: () => 40,
    });
  const line = { top: 350, bottom: 400, left: 300, right: 500 };
  const over = (items: readonly { y: number; height: number; x: number; width: number }[]) =>
    items.filter(
      (a) => a.y < line.bottom && a.y + a.height > line.top && a.x < line.right && a.x + a.width > line.left,
    );

  it('takes no lane across the line for comments entering while it shows', () => {
    const engine = make();
    engine.setClearZones([line]);
    engine.load(Array.from({ length: 8 }, (_, n) => bottom(n + 1)));
    const stage = engine.advance(1.5);
    expect(stage.length).toBeGreaterThan(4);
    expect(over(stage)).toEqual([]);
  });
  it('hides comments already on stage where they would cover the line, and shows them again after', () => {
    const engine = make();
    engine.load(Array.from({ length: 8 }, (_, n) => bottom(n + 1)));
    expect(over(engine.advance(1.5)).length).toBeGreaterThan(0);
    engine.setClearZones([line]);
    expect(over(engine.advance(1.6))).toEqual([]);
    expect(over(engine.stage)).toEqual([]);
    engine.setClearZones([]);
    expect(over(engine.advance(1.7)).length).toBeGreaterThan(0);
  });
});
