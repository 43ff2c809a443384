/**
 * The danmaku engine alone (no browser): add() and advance() with 100 000 comments and a flood
 * ten times what the stage holds, the engine of this branch against the engine before storm
 * mode (checked out from git at BASELINE into a temp folder at bench time), in the same run.
 *
 * - advance: the whole list played at 60 frames a second of video time, the per-call cost of
 *   advance() (mean, p99, max) and the total; at the stage's capacity (1x) and at 10x.
 * - add, live: comments pushed one by one at the current time during playback (what live
 *   danmaku do) on top of the 100 000 already loaded; per-call cost.
 * - add, segments: the 100 000 loaded the way the overlay loads them, one 6-minute segment a call.
 * Each call is timed in wall time and in this process's CPU time (process.cpuUsage): on a shared
 * machine the wall time's tail is other processes taking the core, the CPU time's is the call's.
 * Rounds alternate the engines (ABBA); medians over rounds.
 * Usage: node bench/danmaku-engine.ts [rounds=3] [liveAdds=500]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Danmaku } from '../src/lib/api/contracts/interaction.ts';
import type { DanmakuMode } from '../src/lib/api/contracts/interaction.constants.ts';
import { DanmakuEngine } from '../src/lib/danmaku/engine.ts';
import type { DanmakuDensity } from '../src/lib/danmaku/density.ts';
import { median } from './stats.ts';
import { runFacts } from './run-facts.ts';

/** The last commit before storm mode: its engine is the baseline. */
const BASELINE = '06cc836';
const rounds = Number(process.argv[2]) || 3;
const LIVE_ADDS = Number(process.argv[3]) || 500;
const COUNT = 100_000;
const FPS = 60;
const STAGE = { width: 1280, height: 720, area: 1, keepSubtitlesClear: false, fontScale: 1, speed: 1 };

interface EngineLike {
  load(items: readonly Danmaku[]): void;
  add(items: readonly Danmaku[]): void;
  advance(time: number): readonly unknown[];
  dropped: number;
}
type Make = () => EngineLike;

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const dir = mkdtempSync(join(tmpdir(), 'kiraboshi-bench-engine-'));
mkdirSync(join(dir, 'danmaku'));
for (const file of ['engine.ts', 'layout.ts']) {
  writeFileSync(join(dir, 'danmaku', file), execFileSync('git', ['show', `${BASELINE}:src/lib/danmaku/${file}`]));
}
const { DanmakuEngine: OldEngine } = (await import(pathToFileURL(join(dir, 'danmaku', 'engine.ts')).href)) as {
  DanmakuEngine: new (o: object) => EngineLike;
};

/** Canvas-like widths: 20 px a character at medium. */
const measure = (d: Danmaku) => [...d.text].length * { small: 14, medium: 20, large: 28 }[d.fontSize];
const engines: Record<string, Make> = {
  old: () => new OldEngine({ ...STAGE, measure }),
  ...Object.fromEntries(
    (['readable', 'dense', 'all'] as DanmakuDensity[]).map((density) => [
      `new ${density}`,
      () => new DanmakuEngine({ ...STAGE, density, measure }),
    ]),
  ),
};

/** A reproducible stream at `perSecond`, 4/7 rtl, 1/7 each ltr, top, bottom; 1-3 words. */
function stream(count: number, perSecond: number, firstId = 1, from = 0): Danmaku[] {
  let s = 20261124;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = [
    '草',
    '哈哈哈哈',
    '前方高能',
    '来了来了',
    '好耶',
    '名场面',
    'wwww',
    'kawaii',
    '泪目',
    '这里是重点',
    'AWSL',
    '笑死',
    '神作',
    '233333',
  ];
  const modes: DanmakuMode[] = ['rtl', 'rtl', 'rtl', 'rtl', 'ltr', 'top', 'bottom'];
  return Array.from({ length: count }, (_, i) => {
    const r = rand();
    return {
      id: firstId + i,
      time: from + i / perSecond,
      text: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => words[Math.floor(rand() * words.length)]).join(
        ' ',
      ),
      color: 'ffffff',
      fontSize: r < 0.2 ? 'small' : r < 0.9 ? 'medium' : 'large',
      mode: modes[Math.floor(rand() * modes.length)],
      enableRainbow: false,
      editDateTime: 0,
    };
  });
}

/** What one readable (old-model) engine holds at once with this stream: the stage's capacity. */
function capacity(): number {
  const e = new DanmakuEngine({ ...STAGE, measure });
  e.load(stream(400 * 20, 400));
  let most = 0;
  for (let t = 0; t < 20; t += 1 / FPS) most = Math.max(most, e.advance(t).length);
  return most;
}

const stats = (xs: number[], cpu: number[] = []) => {
  const s = [...xs].sort((a, b) => a - b);
  const c = [...cpu].sort((a, b) => a - b);
  return {
    meanMs: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(4),
    p99Ms: +s[Math.floor(s.length * 0.99)].toFixed(4),
    maxMs: +s[s.length - 1].toFixed(4),
    totalMs: +s.reduce((a, b) => a + b, 0).toFixed(1),
    // CPU time of this process in the call (process.cpuUsage, µs grain): what the call cost without the time other processes took the core.
    ...(c.length
      ? {
          cpuMeanMs: +(c.reduce((a, b) => a + b, 0) / c.length).toFixed(4),
          cpuP99Ms: +c[Math.floor(c.length * 0.99)].toFixed(3),
          cpuMaxMs: +c[c.length - 1].toFixed(3),
        }
      : {}),
  };
};
/** Wall and CPU time of one call, in ms. */
function timed(run: () => void): [number, number] {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  run();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return [wall, (cpu.user + cpu.system) / 1000];
}

/** Plays the whole list at FPS; the cost of each advance(). */
function playThrough(make: Make, list: Danmaku[]) {
  const e = make();
  e.load(list);
  const end = list[list.length - 1].time + 10;
  const costs: number[] = [];
  const cpu: number[] = [];
  let onStage = 0;
  let frames = 0;
  for (let frame = 0; frame / FPS <= end; frame++) {
    const [wall, used] = timed(() => {
      onStage += e.advance(frame / FPS).length;
    });
    costs.push(wall);
    cpu.push(used);
    frames++;
  }
  return {
    ...stats(costs, cpu),
    meanOnStage: Math.round(onStage / frames),
    dropped: e.dropped,
    shown: list.length - e.dropped,
  };
}

/** Live pushes: LIVE_ADDS comments added one per frame at the current time, on top of the list. */
function liveAdds(make: Make, list: Danmaku[]) {
  const e = make();
  e.load(list);
  const from = 100;
  const costs: number[] = [];
  const cpu: number[] = [];
  for (let t = from - 1; t < from; t += 1 / FPS) e.advance(t);
  const pushed = stream(LIVE_ADDS, FPS, 10_000_000, from);
  for (let i = 0; i < pushed.length; i++) {
    const t = from + i / FPS;
    e.advance(t);
    const [wall, used] = timed(() => e.add([pushed[i]]));
    costs.push(wall);
    cpu.push(used);
  }
  return stats(costs, cpu);
}

/** The list loaded one 6-minute segment per add(), as the overlay does. */
function segmentAdds(make: Make, list: Danmaku[]) {
  const e = make();
  const costs: number[] = [];
  for (let from = 0; from < list.length; ) {
    const segmentEnd = (Math.floor(list[from].time / 360) + 1) * 360;
    let to = from;
    while (to < list.length && list[to].time < segmentEnd) to++;
    const t0 = performance.now();
    e.add(list.slice(from, to));
    costs.push(performance.now() - t0);
    from = to;
  }
  return stats(costs);
}

const cap = capacity();
const perSecondAtCapacity = cap / 8; // rtl crossing 8 s: what keeps the stage just full
const lists = {
  '1x': stream(COUNT, perSecondAtCapacity),
  '10x': stream(COUNT, perSecondAtCapacity * 10),
};
console.log(
  `stage capacity (readable, this stream): ${cap}; 1x = ${perSecondAtCapacity.toFixed(1)}/s (${(COUNT / perSecondAtCapacity / 60).toFixed(1)} min of video), 10x = ${(perSecondAtCapacity * 10).toFixed(0)}/s`,
);

type Sample = Record<string, unknown>;
const samples: Record<string, Sample[]> = {};
const names = Object.keys(engines);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...names].reverse() : names;
  for (const name of order) {
    const make = engines[name];
    for (const [flood, list] of Object.entries(lists)) {
      const r = playThrough(make, list);
      (samples[`${name}/advance/${flood}`] ??= []).push(r);
      console.log(
        `round ${round + 1} ${name.padEnd(12)} advance ${flood.padEnd(3)}: mean ${r.meanMs.toFixed(4)} ms, p99 ${r.p99Ms.toFixed(3)} ms, max ${r.maxMs.toFixed(2)} ms, CPU mean ${r.cpuMeanMs} p99 ${r.cpuP99Ms} max ${r.cpuMaxMs} ms, on stage ${r.meanOnStage}, dropped ${r.dropped}`,
      );
    }
    const live = liveAdds(make, lists['10x']);
    (samples[`${name}/add-live`] ??= []).push(live);
    const segments = segmentAdds(make, lists['1x']);
    (samples[`${name}/add-segments`] ??= []).push(segments);
    console.log(
      `round ${round + 1} ${name.padEnd(12)} add live: mean ${live.meanMs.toFixed(4)} ms, p99 ${live.p99Ms.toFixed(3)} ms; segments: mean ${segments.meanMs.toFixed(3)} ms, total ${segments.totalMs} ms`,
    );
  }
}

const med = (key: string, field: string) => median(samples[key].map((s) => s[field] as number));
const summary = Object.fromEntries(
  Object.keys(samples).map((key) => [
    key,
    Object.fromEntries(Object.keys(samples[key][0]).map((f) => [f, med(key, f)])),
  ]),
);
const ratio = (a: string, b: string, field = 'meanMs') => +(med(a, field) / med(b, field)).toFixed(1);
const ratios = {
  'advance 10x, mean per call, old / new readable': ratio('old/advance/10x', 'new readable/advance/10x'),
  'advance 10x, p99 per call, old / new readable': ratio('old/advance/10x', 'new readable/advance/10x', 'p99Ms'),
  'advance 10x, CPU mean per call, old / new readable': ratio(
    'old/advance/10x',
    'new readable/advance/10x',
    'cpuMeanMs',
  ),
  'advance 1x, mean per call, old / new readable': ratio('old/advance/1x', 'new readable/advance/1x'),
  'add live, mean per call, old / new readable': ratio('old/add-live', 'new readable/add-live'),
  'add segments, total, old / new readable': ratio('old/add-segments', 'new readable/add-segments', 'totalMs'),
  "new readable advance, 10x / 1x (the flood's own cost)": +(
    med('new readable/advance/10x', 'meanMs') / med('new readable/advance/1x', 'meanMs')
  ).toFixed(2),
  'old advance, 10x / 1x': +(med('old/advance/10x', 'meanMs') / med('old/advance/1x', 'meanMs')).toFixed(2),
};
const result = {
  name: 'danmaku-engine',
  date: new Date().toISOString(),
  ...runFacts(loadAtStart),
  setup: {
    baseline: `src/lib/danmaku/engine.ts and layout.ts at ${BASELINE} (before storm mode), checked out by git show into a temp folder`,
    stage: '1280x720, speed 1, widths 20 px a character at medium (as the unit tests measure)',
    comments: `${COUNT} in each list, 4/7 rtl, 1/7 each ltr, top, bottom; 1-3 words; 20 % small, 70 % medium, 10 % large`,
    capacity: `${cap} on stage at most with one readable engine (measured here); 1x = ${perSecondAtCapacity.toFixed(1)} a second, 10x = ${(perSecondAtCapacity * 10).toFixed(0)} a second`,
    advance: `the whole list played at ${FPS} frames per second of video time; performance.now() around each advance()`,
    addLive: `${LIVE_ADDS} single comments added one per frame at the current time, on top of the 100 000 of the 10x list, at 100 s into the video`,
    addSegments: 'the 1x list (25 min of video) added one 360 s segment per call into an empty engine',
    rounds: `${rounds}, engines alternating (ABBA); medians`,
  },
  samples,
  medians: summary,
  ratios,
};
mkdirSync(join('bench', 'results'), { recursive: true });
writeFileSync(join('bench', 'results', 'danmaku-engine.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(ratios);
console.log('written bench/results/danmaku-engine.json');
rmSync(dir, { recursive: true, force: true });
