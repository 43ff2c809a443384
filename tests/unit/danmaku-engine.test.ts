import { describe, expect, it } from 'vitest';
import { DanmakuEngine, type OnStage } from '../../src/lib/danmaku/engine.ts';
import { LaneSet, canFollow, laneCount, laneHeight, LANE_GAP_PX, MAX_WAIT_SECONDS, SCROLL_SECONDS, type StageGeometry } from '../../src/lib/danmaku/layout.ts';
import { MediaClock, type MediaLike } from '../../src/lib/danmaku/clock.ts';
import type { Danmaku, DanmakuMode, DanmakuSize } from '../../src/lib/api/contract.ts';

const STAGE: StageGeometry = { width: 1280, height: 720, area: 1, keepSubtitlesClear: false, fontScale: 1 };
let nextId = 1;
const d = (time: number, text: string, mode: DanmakuMode = 'rtl', fontSize: DanmakuSize = 'medium'): Danmaku =>
  ({ id: nextId++, time, text, color: 'ffffff', fontSize, mode, enableRainbow: false, editDateTime: 0 });
/** Text width as a canvas would measure it: one em per character at the item's size. */
const measure = (item: Danmaku) => [...item.text].length * { small: 14, medium: 20, large: 28 }[item.fontSize];
const engine = (over: Partial<StageGeometry & { speed: number }> = {}) => new DanmakuEngine({ ...STAGE, speed: 1, measure, ...over });

/** Random but reproducible comments. */
function crowd(count: number, seconds: number, seed = 7, modes: DanmakuMode[] = ['rtl', 'rtl', 'rtl', 'ltr', 'top', 'bottom']) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: count }, () => d(rand() * seconds, '弹'.repeat(1 + Math.floor(rand() * 30)), modes[Math.floor(rand() * modes.length)],
    (['small', 'medium', 'large'] as const)[Math.floor(rand() * 3)]));
}

const overlapY = (a: OnStage, b: OnStage) => a.y < b.y + b.height && b.y < a.y + a.height;
const overlapX = (a: OnStage, b: OnStage) => a.x < b.x + b.width && b.x < a.x + a.width;

/** Scrolling comments, whichever way they go, are one flow; top and bottom are their own. */
const flowOf = (mode: DanmakuMode) => (mode === 'ltr' ? 'rtl' : mode);

/** No two comments of one flow ever cover each other. */
function assertNoOverlap(stage: readonly OnStage[]) {
  for (let i = 0; i < stage.length; i++) {
    for (let j = i + 1; j < stage.length; j++) {
      const [a, b] = [stage[i], stage[j]];
      if (flowOf(a.mode) !== flowOf(b.mode) || !overlapY(a, b)) continue;
      if (overlapX(a, b)) throw new Error(`${a.mode} comments ${a.item.id} and ${b.item.id} overlap at x ${a.x.toFixed(1)}/${b.x.toFixed(1)}, y ${a.y}/${b.y}`);
    }
  }
}

describe('lane rules', () => {
  const W = 1280;
  it('lets a comment follow once the previous one is fully in, with a gap', () => {
    const prev = { start: 0, width: 200, duration: SCROLL_SECONDS };
    const speed = (W + 200) / SCROLL_SECONDS;
    expect(canFollow(prev, 200, (200 + LANE_GAP_PX - 1) / speed, SCROLL_SECONDS, W)).toBe(false);
    expect(canFollow(prev, 200, (200 + LANE_GAP_PX + 1) / speed, SCROLL_SECONDS, W)).toBe(true);
  });
  it('keeps a longer (faster) comment out of a lane where it would catch the previous one', () => {
    const prev = { start: 0, width: 40, duration: SCROLL_SECONDS };
    expect(canFollow(prev, 900, 1, SCROLL_SECONDS, W)).toBe(false);
    // Late enough, the short one leaves before the long one reaches it.
    expect(canFollow(prev, 900, 4.5, SCROLL_SECONDS, W)).toBe(true);
  });
  it('gives a large comment consecutive lanes that are all free', () => {
    const set = new LaneSet(4);
    const busy = { start: 0, width: 100, duration: 4 };
    expect(set.place(busy, 1, (p) => p === null)).toBe(0);
    expect(set.place(busy, 2, (p) => p === null)).toBe(1);
    expect(set.place(busy, 2, (p) => p === null)).toBe(-1);
    expect(set.place(busy, 1, (p) => p === null)).toBe(3);
  });
  it('has fewer lanes for a smaller display area and keeps the subtitle band clear', () => {
    const unit = laneHeight(STAGE);
    expect(laneCount(STAGE)).toBe(Math.floor(720 / unit));
    expect(laneCount({ ...STAGE, area: 0.25 })).toBe(Math.floor(180 / unit));
    expect(laneCount({ ...STAGE, keepSubtitlesClear: true })).toBe(Math.floor(720 * 0.85 / unit));
  });
});

describe('the danmaku engine', () => {
  it('never lets comments of one flow overlap, frame by frame, on a crowded stage', () => {
    const e = engine();
    e.load(crowd(3000, 60));
    let most = 0;
    for (let t = 0; t <= 62; t += 1 / 60) {
      const stage = e.advance(t);
      most = Math.max(most, stage.length);
      assertNoOverlap(stage);
    }
    expect(most).toBeGreaterThan(100); // the stage really was full
    expect(e.dropped).toBeGreaterThan(0); // and some waited too long
  });

  it('keeps every comment inside the display area, above the subtitle band', () => {
    const geometry = { area: 0.5, keepSubtitlesClear: true };
    const e = engine(geometry);
    e.load(crowd(800, 20, 3));
    for (let t = 0; t < 22; t += 0.1) {
      for (const a of e.advance(t)) expect(a.y + a.height).toBeLessThanOrEqual(720 * 0.5 + 0.001);
    }
  });

  it('moves scrolling comments by video time only: paused it stands, at 2x it crosses in half the wall time', () => {
    const e = engine();
    const item = d(1, 'hello');
    e.load([item]);
    const at = (t: number) => e.advance(t).find((a) => a.item.id === item.id)!;
    const x1 = at(2).x;
    expect(at(2).x).toBe(x1); // a paused video: the same time, the same place
    const width = measure(item);
    expect(at(1 + SCROLL_SECONDS / 2).x).toBeCloseTo(1280 - (1280 + width) / 2, 5);
    // Slower scrolling (speed 0.5): twice as long on stage.
    const slow = engine({ speed: 0.5 });
    slow.load([item]);
    expect(slow.advance(1 + SCROLL_SECONDS * 1.5).length).toBe(1);
    expect(e.advance(1 + SCROLL_SECONDS * 1.5).length).toBe(0);
  });

  it('moves reverse comments left to right and holds top and bottom ones centred for 4 s', () => {
    const e = engine();
    const [ltr, top, bottom] = [d(0, 'reverse', 'ltr'), d(0, 'top', 'top'), d(0, 'bottom', 'bottom')];
    e.load([ltr, top, bottom]);
    const stage = e.advance(2);
    const find = (x: Danmaku) => stage.find((a) => a.item.id === x.id)!;
    expect(find(ltr).x).toBeCloseTo(((1280 + measure(ltr)) * 2) / SCROLL_SECONDS - measure(ltr), 5);
    expect(find(top)).toMatchObject({ x: (1280 - measure(top)) / 2, y: 0 });
    expect(find(bottom).y + find(bottom).height).toBe(laneCount(STAGE) * laneHeight(STAGE));
    expect(e.advance(4.01).map((a) => a.item.id)).toEqual([ltr.id]);
  });

  it('shows after a seek exactly what continuous playback shows, when nothing had to wait', () => {
    const comments = crowd(60, 60, 11, ['rtl', 'top']);
    const played = engine();
    played.load(comments);
    for (let t = 0; t <= 30; t += 1 / 30) played.advance(t);
    const seeked = engine();
    seeked.load(comments);
    seeked.advance(30);
    const key = (stage: readonly OnStage[]) => stage.map((a) => `${a.item.id}@${a.x.toFixed(3)},${a.y}`).sort();
    expect(played.dropped).toBe(0);
    expect(key(seeked.stage)).toEqual(key(played.advance(30)));
    // Seeking back rebuilds the earlier stage.
    const fresh = engine();
    fresh.load(comments);
    expect(key(seeked.advance(10))).toEqual(key(fresh.advance(10)));
  });

  it('leaves out blocked comments and adds a sent one at once, then confirms it', () => {
    const e = new DanmakuEngine({ ...STAGE, speed: 1, measure, accept: (item) => !item.text.includes('剧透') });
    e.load([d(1, '前方剧透'), d(1, '好听')]);
    expect(e.advance(1.5).map((a) => a.item.text)).toEqual(['好听']);
    const mine = { ...d(1.5, '我来了'), id: -1 };
    e.add([mine]);
    expect(e.advance(1.52).map((a) => a.item.text)).toContain('我来了');
    e.confirm(-1, { ...mine, id: 999 });
    expect(e.stage.find((a) => a.item.text === '我来了')!.item.id).toBe(999);
    e.remove(999);
    expect(e.advance(1.6).map((a) => a.item.text)).toEqual(['好听']);
  });

  it('lists the comments about to enter, without blocked ones or those already on stage', () => {
    const e = new DanmakuEngine({ ...STAGE, speed: 1, measure, accept: (item) => !item.text.includes('剧透') });
    e.load([d(1, '已经出现'), d(2.2, '马上'), d(2.5, '前方剧透'), d(2.9, '再等等'), d(4, '太远')]);
    e.advance(2);
    expect(e.upcoming(1).map((x) => x.text)).toEqual(['马上', '再等等']);
    expect(e.upcoming(1, 1).map((x) => x.text)).toEqual(['马上']);
    e.advance(3);
    expect(e.upcoming(1).map((x) => x.text)).toEqual(['太远']);
  });

  it('drops a comment that found no lane within the waiting limit', () => {
    const e = engine({ height: laneHeight(STAGE) }); // one lane
    e.load([d(0, '一'.repeat(40)), d(0.01, '二'.repeat(40))]);
    expect(e.advance(0.5).length).toBe(1);
    e.advance(MAX_WAIT_SECONDS + 0.2);
    expect(e.dropped).toBe(1);
  });
});

describe('the media clock', () => {
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  const media = (over: Partial<MediaLike>): Mutable<MediaLike> => ({ currentTime: 10, playbackRate: 1, paused: false, seeking: false, readyState: 4, ...over });
  it('extrapolates smoothly between reports at the playback rate', () => {
    const m = media({ playbackRate: 2 });
    const clock = new MediaClock(m);
    expect(clock.now(1000)).toBe(10);
    expect(clock.now(1050)).toBeCloseTo(10.1, 5); // 50 ms of wall time at 2x
    m.currentTime = 10.12;
    expect(clock.now(1060)).toBe(10.12); // a fresh report wins
  });
  it('stands still while paused, seeking or buffering', () => {
    for (const state of [{ paused: true }, { seeking: true }, { readyState: 2 }]) {
      const clock = new MediaClock(media(state));
      clock.now(0);
      expect(clock.now(500)).toBe(10);
    }
  });
  it('never runs far ahead of a stalled report', () => {
    const clock = new MediaClock(media({}));
    clock.now(0);
    expect(clock.now(5000)).toBe(10.25);
  });
});
