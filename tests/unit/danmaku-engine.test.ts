import { afterEach, describe, expect, it } from 'vitest';
import { DanmakuEngine, type OnStage } from '../../src/lib/danmaku/engine.ts';
import {
  LaneSet,
  canFollow,
  followDelay,
  laneCount,
  laneHeight,
  LANE_GAP_PX,
  MAX_WAIT_SECONDS,
  SCROLL_SECONDS,
  type Placed,
  type StageGeometry,
} from '../../src/lib/danmaku/layout.ts';
import type { DanmakuDensity } from '../../src/lib/danmaku/density.ts';
import { MediaClock, type MediaLike } from '../../src/lib/danmaku/clock.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';
import type { DanmakuMode, DanmakuSize } from '../../src/lib/api/contracts/interaction.constants.ts';

const STAGE: StageGeometry = { width: 1280, height: 720, area: 1, keepSubtitlesClear: false, fontScale: 1 };
let nextId = 1;
const d = (time: number, text: string, mode: DanmakuMode = 'rtl', fontSize: DanmakuSize = 'medium'): Danmaku => ({
  id: nextId++,
  time,
  text,
  color: 'ffffff',
  fontSize,
  mode,
  enableRainbow: false,
  editDateTime: 0,
});
/** Text width as a canvas would measure it: one em per character at the item's size. */
const measure = (item: Danmaku) => [...item.text].length * { small: 14, medium: 20, large: 28 }[item.fontSize];
const engine = (over: Partial<StageGeometry & { speed: number; accept: (d: Danmaku) => boolean }> = {}) =>
  new DanmakuEngine({ ...STAGE, speed: 1, measure, ...over });

/** Random but reproducible comments. */
function crowd(
  count: number,
  seconds: number,
  seed = 7,
  modes: DanmakuMode[] = ['rtl', 'rtl', 'rtl', 'ltr', 'top', 'bottom'],
) {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () =>
    d(
      rand() * seconds,
      '弹'.repeat(1 + Math.floor(rand() * 30)),
      modes[Math.floor(rand() * modes.length)],
      (['small', 'medium', 'large'] as const)[Math.floor(rand() * 3)],
    ),
  );
}

/**
 * Rows of text, not their bitmaps' padding: a comment's bitmap is a line and a quarter high;
 * dense lanes are a line and a tenth apart, so bitmaps may touch there while the text does not.
 */
let inkShare = 1;
const ink = (a: OnStage) => [a.y + (a.height * (1 - inkShare)) / 2, a.y + (a.height * (1 + inkShare)) / 2];
const overlapY = (a: OnStage, b: OnStage) => ink(a)[0] < ink(b)[1] && ink(b)[0] < ink(a)[1];
const overlapX = (a: OnStage, b: OnStage) => a.x < b.x + b.width && b.x < a.x + a.width;

/** Scrolling comments, whichever way they go, are one flow; top and bottom are their own. */
const flowOf = (mode: DanmakuMode) => (mode === 'ltr' ? 'rtl' : mode);

/** No two comments of one flow ever cover each other. */
function assertNoOverlap(stage: readonly OnStage[]) {
  for (let i = 0; i < stage.length; i++) {
    for (let j = i + 1; j < stage.length; j++) {
      const [a, b] = [stage[i], stage[j]];
      if (flowOf(a.mode) !== flowOf(b.mode) || !overlapY(a, b)) continue;
      if (overlapX(a, b))
        throw new Error(
          `${a.mode} comments ${a.item.id} and ${b.item.id} overlap at x ${a.x.toFixed(1)}/${b.x.toFixed(1)}, y ${a.y}/${b.y}`,
        );
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
  it('gives a large comment consecutive lanes that are all free, else says which run frees soonest', () => {
    const set = new LaneSet(4);
    const freeAt = (p: Placed | null) => (p === null ? -Infinity : p.start + p.duration);
    const take = (span: number, start: number, duration: number) => {
      const run = set.soonest(span, start, freeAt);
      if (run.at <= start) set.take(run.lane, span, { start, width: 100, duration });
      return run;
    };
    expect(take(1, 0, 4)).toEqual({ lane: 0, at: -Infinity });
    expect(take(2, 0, 2)).toEqual({ lane: 1, at: -Infinity });
    // Lanes 1-2 free at 2, lane 3 is free now but too narrow alone for a large comment: it waits for 1-2.
    expect(take(2, 1, 4)).toEqual({ lane: 1, at: 2 });
    expect(take(1, 1, 4)).toEqual({ lane: 3, at: -Infinity });
  });
  it('says when a comment may follow another in a lane, as canFollow decides', () => {
    const prev = { start: 3, width: 300, duration: SCROLL_SECONDS };
    for (const width of [40, 300, 900]) {
      const at = prev.start + followDelay(prev, width, SCROLL_SECONDS, W);
      expect(canFollow(prev, width, at - 0.001, SCROLL_SECONDS, W)).toBe(false);
      expect(canFollow(prev, width, at + 0.001, SCROLL_SECONDS, W)).toBe(true);
    }
  });
  it('has fewer lanes for a smaller display area and keeps the subtitle band clear', () => {
    const unit = laneHeight(STAGE);
    expect(laneCount(STAGE)).toBe(Math.floor(720 / unit));
    expect(laneCount({ ...STAGE, area: 0.25 })).toBe(Math.floor(180 / unit));
    expect(laneCount({ ...STAGE, keepSubtitlesClear: true })).toBe(Math.floor((720 * 0.85) / unit));
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
    e.advance(0.2); // a seek back replays the window: nothing is counted twice
    expect(e.dropped).toBe(1);
  });
});

/** A comment that fills a lane for `seconds` before the next may follow (measure: 20 px a character). */
const blocker = (time: number, mode: DanmakuMode = 'top') => d(time, '满', mode);

describe('densities', () => {
  afterEach(() => {
    inkShare = 1;
  });
  const flood = (seed: number) => crowd(4000, 20, seed, ['rtl', 'rtl', 'rtl', 'top', 'bottom']);
  const busiest = (density: DanmakuDensity, list: Danmaku[]) => {
    inkShare = density === 'readable' ? 1 : 1.1 / 1.25;
    const e = engine({ density });
    e.load(list);
    let most = 0;
    for (let t = 0; t <= 22; t += 1 / 10) {
      const stage = e.advance(t);
      most = Math.max(most, stage.length);
      if (density !== 'all') assertNoOverlap(stage);
      if (stage.some((a) => a.y + a.height > 720 + 0.001)) throw new Error(`a comment below the stage at ${t}`);
    }
    return { e, most };
  };

  it('fits more without overlap when dense, and shows every comment in "all", on overlapping layers', () => {
    const list = flood(5);
    const readable = busiest('readable', list);
    const dense = busiest('dense', list);
    const all = busiest('all', list);
    expect(laneCount({ ...STAGE, density: 'dense' })).toBeGreaterThan(laneCount(STAGE));
    expect(dense.most).toBeGreaterThan(readable.most * 1.08);
    expect(readable.e.dropped).toBeGreaterThan(dense.e.dropped);
    expect(dense.e.dropped).toBeGreaterThan(0);
    // "all": nothing waits or is dropped; every comment was on stage for its whole lifetime.
    expect(all.e.dropped).toBe(0);
    expect(all.e.waitingCount).toBe(0);
    expect(all.most).toBeGreaterThan(dense.most * 2);
    expect(all.e.layerCount).toBeGreaterThan(1);
    const seen = new Set<number>();
    const e = engine({ density: 'all' });
    e.load(list);
    let late = 0;
    for (let t = 0; t <= 22; t += 1 / 10)
      for (const a of e.advance(t)) {
        seen.add(a.item.id);
        if (a.start !== a.item.time) late++; // each entered at its moment, never later
      }
    expect(late).toBe(0);
    expect(seen.size).toBe(list.length);
  });

  it('fills the first layer before opening another, and a new layer sits part of a lane lower', () => {
    const e = engine({ density: 'all', height: laneHeight({ fontScale: 1, density: 'all' }) * 3 + 10 });
    const lanes = laneCount({
      ...STAGE,
      height: laneHeight({ fontScale: 1, density: 'all' }) * 3 + 10,
      density: 'all',
    });
    e.load(Array.from({ length: lanes + 1 }, () => blocker(1)));
    const stage = e.advance(1.1);
    expect(stage.filter((a) => a.layer === 0)).toHaveLength(lanes);
    const extra = stage.find((a) => a.layer === 1)!;
    const unit = laneHeight({ fontScale: 1, density: 'all' });
    expect(extra.y % unit).toBeGreaterThan(0);
    inkShare = 1.1 / 1.25;
    assertNoOverlap(stage.filter((a) => a.layer === 0));
  });

  it('rebuilds the stage when the density changes, keeping the time', () => {
    const list = flood(9);
    const e = engine();
    e.load(list);
    for (let t = 0; t <= 10; t += 1 / 30) e.advance(t);
    const before = e.stage.length;
    e.configure({ density: 'all' });
    expect(e.stage.length).toBeGreaterThan(before);
    expect(e.waitingCount).toBe(0);
    e.configure({ density: 'readable' });
    expect(e.stage.length).toBe(before);
  });
});

/** Plays from `from` to `to` frame by frame (a jump of over a second would be a seek). */
function play(e: DanmakuEngine, from: number, to: number) {
  for (let t = from; t < to; t += 1 / 30) e.advance(t);
  return e.advance(to);
}

describe('the overflow path', () => {
  it('merges added comments into the list in time order, skipping those it knows, without disturbing the stage', () => {
    const e = engine();
    const early = [d(1, '一'), d(5, '五'), d(9, '九')];
    e.load(early);
    const onStageAt3 = e.advance(3).map((a) => a.item.text);
    const later = [d(7, '七'), d(2, '二'), d(12, '十二')];
    e.add([...later, early[1]]); // out of order, with one already known
    // '二' is past its moment by 1 s, within the waiting limit: it enters now...
    expect(e.advance(3.01).map((a) => a.item.text)).toEqual([...onStageAt3, '二']);
    e.add([later[1]]); // ...once only, however often it is added
    const upcoming = e.upcoming(20, 100).map((x) => x.text);
    expect(upcoming).toEqual(['五', '七', '九', '十二']);
    // Played through, each enters at its own moment, in order.
    const entered: string[] = [];
    for (let t = 3.02; t <= 13; t += 1 / 30)
      for (const a of e.advance(t)) if (!entered.includes(a.item.text)) entered.push(a.item.text);
    expect(entered).toEqual(['一', '二', '五', '七', '九', '十二']);
    // A seek back replays the merged list: the same as one loaded whole.
    const whole = engine();
    whole.load([...early, ...later]);
    const key = (stage: readonly OnStage[]) => stage.map((a) => `${a.item.text}@${a.x.toFixed(2)}`).sort();
    expect(key(e.advance(8))).toEqual(key(whole.advance(8)));
  });

  it('adds a comment just past its moment to the stage at once, and one long past not at all (not dropped)', () => {
    const e = engine();
    e.advance(0);
    for (let t = 0; t <= 5; t += 0.5) e.advance(t);
    const [recent, old] = [d(4.2, 'recent'), d(1, 'old')];
    e.add([recent, old]);
    expect(e.stage.map((a) => a.item.text)).toEqual(['recent']);
    expect(e.stage[0].start).toBe(5);
    expect(e.dropped).toBe(0);
  });

  it('keeps a waiting comment until the lane it fits frees, then enters it at that moment; past the limit it is dropped and counted', () => {
    const oneLane = laneHeight(STAGE) + 1;
    const e = engine({ height: oneLane });
    // Top comments hold their lane for 4 s: the second can never enter within 1.5 s and is dropped at once.
    e.load([blocker(0), blocker(0.5), blocker(3.5)]);
    play(e, 0, 0.6);
    expect(e.dropped).toBe(1);
    expect(e.waitingCount).toBe(0);
    // The third waits 0.5 s for the lane to free at 4, is counted as waiting, then enters at exactly 4.
    play(e, 0.6, 3.6);
    expect(e.waitingCount).toBe(1);
    expect(e.stage).toHaveLength(1);
    const entered = play(e, 3.6, 4.2).find((a) => a.item.time === 3.5)!;
    expect(entered.start).toBe(4);
    expect(e.waitingCount).toBe(0);
    expect(e.dropped).toBe(1);
  });

  it('lets a waiting comment go first when its lane frees before a newer one arrives', () => {
    const e = engine({ height: laneHeight(STAGE) + 1 });
    const [first, waiter, newcomer] = [blocker(0), blocker(3), blocker(4.5)];
    e.load([first, waiter, newcomer]);
    play(e, 0, 3.5);
    expect(e.waitingCount).toBe(1);
    // The lane frees at 4: the waiter takes it; the newcomer (4.5) must wait for 8, past its limit.
    const stage = play(e, 3.5, 5);
    expect(stage.map((a) => a.item.id)).toEqual([waiter.id]);
    expect(e.dropped).toBe(1);
  });

  it('lets the first waiting comments in as their lanes free, and drops the rest once no lane can free in time', () => {
    const e = engine({ height: laneHeight(STAGE) * 3 + 1 });
    // Three lanes taken until 4 s; 200 more arrive from 3 s to 4 s and wait for them.
    e.load([blocker(0), blocker(0), blocker(0), ...Array.from({ length: 200 }, (_, i) => blocker(3 + i / 200))]);
    play(e, 0, 3.9);
    expect(e.waitingCount).toBeGreaterThan(150);
    expect(e.dropped).toBe(0);
    const stage = play(e, 3.9, 4.1);
    expect(stage.filter((a) => a.start === 4).map((a) => a.item.time)).toEqual([3, 3.005, 3.01]); // the first three, in order
    play(e, 4.1, 10);
    expect(e.dropped).toBe(197);
    expect(e.waitingCount).toBe(0);
  });

  it('wakes one waiting comment when a lane frees, not every one that waits (a flood costs per comment, not per comment squared)', () => {
    let tries = 0;
    const e = new DanmakuEngine({ ...STAGE, speed: 1, measure: (item) => (tries++, measure(item)) });
    const flood = crowd(6000, 10, 21, ['rtl', 'rtl', 'top', 'bottom']); // ten times what the stage holds
    e.load(flood);
    play(e, 0, 12);
    expect(e.dropped).toBeGreaterThan(3000);
    // Each comment is tried on arrival and when it comes first in its line, a few times at most.
    expect(tries / flood.length).toBeLessThan(3);
  });

  it('costs the same per comment with 100 000 in the list: appending a live comment moves nothing', () => {
    const e = engine();
    const many = Array.from({ length: 100_000 }, (_, i) => d(i / 100, 'x'));
    e.load(many);
    e.advance(500);
    const live = d(500.001, 'live');
    e.add([live]);
    expect(e.upcoming(1, 1000).some((x) => x.id === live.id)).toBe(true);
    // Merged at its place: the comment after it in time is still after it.
    expect(e.upcoming(0.015, 10).map((x) => x.text)).toEqual(['live', 'x']);
  });
});

describe('the media clock', () => {
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  const media = (over: Partial<MediaLike>): Mutable<MediaLike> => ({
    currentTime: 10,
    playbackRate: 1,
    paused: false,
    seeking: false,
    readyState: 4,
    ...over,
  });
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
