/**
 * Danmaku rendering: our overlay's engine + canvas renderer (src/lib/danmaku/) against the npm
 * package `danmaku` (weizhenye/Danmaku, its DOM engine), fed the same comments, in headless
 * Debian Chromium at 1280x720, with 400, 800, 1600 and 3200 comments on stage at once, at normal
 * CPU and at 4x CPU throttling (CDP Emulation.setCPUThrottlingRate).
 *
 * Each run is one fresh page load (bench/danmaku-render.page.ts bundled with esbuild into a temp
 * folder, served from file://) with one engine: a video-like clock (currentTime follows
 * performance.now(), both engines read it), a steady stream of n/8 comments per second, all
 * scrolling right to left and crossing the stage in 8 s in both engines, so that n are on stage
 * once it has filled; WARM s to fill, then MEASURE s of requestAnimationFrame deltas (and
 * long-animation-frame entries). The on-stage count is sampled every measured frame and
 * reported. An empty stage is measured once per round and throttling, as the machine's floor.
 * Engines alternate within a round (ABBA across rounds); medians over rounds.
 * Goal (issue): ours 60 fps with no janky frames (> 20 ms) at 1600 on stage, and >= 2x the DOM
 * library's frame rate at 3200.
 * Usage: node bench/danmaku-render.ts [rounds=3] [measureSeconds=5] [counts=400,800,1600,3200] [throttles=1,4]
 * About 13 minutes at the defaults.
 */
import { chromium, type Page } from 'playwright';
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, totalmem, platform, release, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderResult, RenderRun } from './danmaku-render.page.ts';
import { median } from './stats.ts';

const rounds = Number(process.argv[2]) || 3;
const MEASURE = Number(process.argv[3]) || 5;
const WARM = 9; // the stage fills in 8 s (one crossing)
const COUNTS = process.argv[4] ? process.argv[4].split(',').map(Number) : [400, 800, 1600, 3200];
const THROTTLES = process.argv[5] ? process.argv[5].split(',').map(Number) : [1, 4];
const ENGINES = ['ours', 'dom'] as const;
const GOAL = { fpsAt1600: 60, slowShareAt1600: 0, ratioAt3200: 2 };

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-danmaku-'));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  await build({
    entryPoints: [join(import.meta.dirname, 'danmaku-render.page.ts')],
    bundle: true, format: 'iife', target: 'es2022', outfile: join(dir, 'bench.js'), logLevel: 'warning',
  });
  await writeFile(join(dir, 'index.html'), `<!doctype html><meta charset="utf-8">
<style>html,body{margin:0;background:#000;overflow:hidden}#stage{position:relative;width:1280px;height:720px;background:#223}</style>
<div id="stage"></div><script src="bench.js"></script>`);
  const url = pathToFileURL(join(dir, 'index.html')).href;
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });

  const runOnce = async (run: RenderRun, throttle: number): Promise<RenderResult> => {
    const page: Page = await context.newPage();
    try {
      page.on('pageerror', (error) => console.error('page error:', error));
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      await page.goto(url);
      await page.waitForFunction(() => 'danmakuBench' in globalThis);
      return await page.evaluate((r) => (globalThis as unknown as { danmakuBench: (r: RenderRun) => Promise<RenderResult> }).danmakuBench(r), run);
    } finally {
      await page.close();
    }
  };

  const key = (engine: string, n: number, throttle: number) => `${engine}/${n}/x${throttle}`;
  const samples: Record<string, RenderResult[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const throttle of THROTTLES) {
      const idle = await runOnce({ engine: 'none', n: 0, warmSeconds: 2, measureSeconds: MEASURE }, throttle);
      (samples[key('none', 0, throttle)] ??= []).push(idle);
      console.log(`round ${round + 1} x${throttle} empty stage: ${idle.fps.toFixed(1)} fps, ${(idle.slowShare * 100).toFixed(1)} % > 20 ms`);
      for (const n of COUNTS) {
        const order = round % 2 ? [...ENGINES].reverse() : [...ENGINES];
        for (const engine of order) {
          const r = await runOnce({ engine, n, warmSeconds: WARM, measureSeconds: MEASURE }, throttle);
          (samples[key(engine, n, throttle)] ??= []).push(r);
          console.log(`round ${round + 1} x${throttle} n=${n} ${engine.padEnd(4)}: ${r.fps.toFixed(1)} fps, ${(r.slowShare * 100).toFixed(1)} % > 20 ms, on stage ${r.onStage.median} (${r.onStage.min}-${r.onStage.max}), layers ${r.layers}, dropped ${r.dropped}, LoAF ${r.longAnimationFrames.count}${r.scriptMsPerFrame ? `, advance ${r.scriptMsPerFrame.advance} ms + draw ${r.scriptMsPerFrame.draw} ms` : ''}`);
        }
      }
    }
  }

  const table = THROTTLES.flatMap((throttle) => COUNTS.map((n) => {
    const summary = (engine: string) => {
      const runs = samples[key(engine, n, throttle)];
      return {
        fps: +median(runs.map((r) => r.fps)).toFixed(1),
        slowShare: +median(runs.map((r) => r.slowShare)).toFixed(3),
        onStage: median(runs.map((r) => r.onStage.median)),
        longAnimationFrames: median(runs.map((r) => r.longAnimationFrames.count)),
      };
    };
    const ours = summary('ours');
    const dom = summary('dom');
    return { cpuThrottling: throttle, onStage: n, ours, dom, fpsRatio: +(ours.fps / dom.fps).toFixed(2) };
  }));
  const emptyStage = THROTTLES.map((throttle) => {
    const runs = samples[key('none', 0, throttle)];
    return { cpuThrottling: throttle, fps: +median(runs.map((r) => r.fps)).toFixed(1), slowShare: +median(runs.map((r) => r.slowShare)).toFixed(3) };
  });
  const at = (n: number, throttle = 1) => table.find((row) => row.onStage === n && row.cpuThrottling === throttle);
  // A partial run (other counts or throttles) cannot judge the goal: null rather than a guess.
  const [at1600, at3200] = [at(1600), at(3200)];
  const goalMet = at1600 && at3200
    ? at1600.ours.fps >= GOAL.fpsAt1600 * 0.98 && at1600.ours.slowShare <= GOAL.slowShareAt1600 && at3200.fpsRatio >= GOAL.ratioAt3200
    : null;
  const layers = Object.fromEntries(COUNTS.map((n) => [n, samples[key('ours', n, THROTTLES[0])][0].layers]));

  const result = {
    name: 'danmaku-render',
    date: new Date().toISOString(),
    machine: { os: `${platform()} ${release()}`, cpus: cpus().length, cpuModel: cpus()[0]?.model, totalMemoryBytes: totalmem() },
    node: process.version,
    browser: `Chromium ${browser.version()} headless, --disable-gpu (software raster)`,
    loadAverage: { atStart: loadAtStart, atEnd: loadavg().map((l) => +l.toFixed(2)) },
    setup: {
      stage: '1280x720 CSS px, deviceScaleFactor 1',
      clock: 'a video-like object whose currentTime follows performance.now() from page load; ours reads it through MediaClock, the library as its `media`',
      comments: 'the same reproducible stream for both: n/8 per second, all rtl, 8 s crossing (ours speed 1; the library speed 160 px/s = 1280/8), 1-3 words of Chinese/Latin text, 20 % small, 70 % medium, 10 % large, a third coloured',
      onStage: `a steady state of rate x crossing time = n. The library never drops a comment (it stacks them, overlapping when full) so n is on stage. One of our engines never overlaps comments and holds at most ${samples[key('ours', COUNTS[0], THROTTLES[0])][0].capacity} at once with this stream (measured in the page by flooding one engine); to reach n the stream is dealt round-robin to enough engines ("layers") to stay at most half full, and the one renderer draws all layers in one draw() per frame. Layers used: ${JSON.stringify(layers)}. The measured on-stage count (median per run) is reported for both.`,
      look: 'ours: canvas sprites with a 3 px dark outline; the library: divs with the same font, colour, and a 4-way 1 px text-shadow outline (its README style)',
      frames: `page load, ${WARM} s for the stage to fill, then ${MEASURE} s of requestAnimationFrame deltas; fps = frames / window; slowShare = share of deltas > 20 ms; long animation frames from PerformanceObserver('long-animation-frame')`,
      runs: `${rounds} rounds; within a round each throttling x count runs both engines back to back, order alternating between rounds; a fresh page per run`,
    },
    samples: Object.fromEntries(Object.entries(samples).map(([k, runs]) => [k, runs.map((r) => ({ fps: r.fps, slowShare: r.slowShare, onStage: r.onStage, layers: r.layers, dropped: r.dropped, scriptMsPerFrame: r.scriptMsPerFrame, longAnimationFrames: r.longAnimationFrames, frameDeltasMs: r.deltas }))])),
    medians: table,
    /** The same page with nothing on stage, in the same run: the frame-time floor other load on the machine causes. */
    emptyStage,
    goal: { ours1600: '60 fps, no frame over 20 ms (normal CPU)', ratio3200: '>= 2x the library\'s fps (normal CPU)' },
    goalMet,
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  // A partial run never overwrites the committed full result.
  const resultFile = join('bench', 'results', goalMet === null ? 'danmaku-render.partial.json' : 'danmaku-render.json');
  writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log('\nthrottle  on stage   ours fps  >20ms   dom fps  >20ms   ratio');
  for (const row of emptyStage) console.log(`x${row.cpuThrottling}        empty      ${row.fps.toFixed(1).padStart(6)}  ${(row.slowShare * 100).toFixed(1).padStart(5)}%`);
  for (const row of table) console.log(`x${row.cpuThrottling}        ${String(row.onStage).padEnd(9)}  ${row.ours.fps.toFixed(1).padStart(6)}  ${(row.ours.slowShare * 100).toFixed(1).padStart(5)}%  ${row.dom.fps.toFixed(1).padStart(6)}  ${(row.dom.slowShare * 100).toFixed(1).padStart(5)}%  ${row.fpsRatio}`);
  console.log(`goal (60 fps and no frame > 20 ms at 1600; >= 2x at 3200): ${goalMet === null ? 'not judged (a partial run)' : goalMet ? 'met' : 'NOT met'}`);
  console.log(`written ${resultFile}`);
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
