/**
 * Danmaku rendering through the player's own setup: the DanmakuOverlay that Player.tsx runs
 * (engine at a density + canvas renderer + the video's clock, loading its segments through the
 * API client), against the npm package `danmaku` (weizhenye/Danmaku, its DOM engine) fed the same
 * comments, in headless Debian Chromium at 1280x720, at normal CPU and at 4x CPU throttling (CDP
 * Emulation.setCPUThrottlingRate). No stacking of engines: one overlay, one engine, as viewers get.
 * The overlay draws where the player decides on this machine (worker-renderer.ts: in a worker
 * with four cores or more, else on the main thread); the "main thread" and "worker" cases force
 * one (the worker bundled here from the same module and started from a blob). fps as viewers see it is the worse of the page's frames and the worker's;
 * a CDP trace of each window gives the main thread's and the worker's busy ms a frame
 * (bench/trace.ts). CDP throttles the page's thread only, never a worker.
 *
 * Each run is one fresh page load (bench/danmaku-render.page.ts bundled with esbuild into a temp
 * folder, served from file://): a video-like clock (currentTime follows performance.now(), both
 * engines read it), a steady stream of comments all scrolling right to left and crossing the
 * stage in 8 s, WARM s for the stage to fill, then MEASURE s of requestAnimationFrame deltas
 * (and long-animation-frame entries); the on-stage count is sampled every measured frame.
 * Runs (each round, engines alternating ABBA across rounds; medians over rounds):
 * - x1: "all" density with 2000 on stage (250 a second) and 3000, the library with the same streams,
 *   and "all" 2000 drawn on the main thread and in the worker;
 * - x4: "all" with 600 on stage, the library with the same stream, "all" 600 on the main thread and in the worker;
 * - x4 flood: "readable" and "dense" fed ten times what the stage holds at that density
 *   (capacity measured in the page), against "all" fed exactly what the stage holds (the same
 *   number on stage, nothing waiting or dropped);
 * - an empty stage at x1 and x4: the floor the machine itself causes.
 * Goals (issue 14): "all" at x1 >= 2000 on stage at 60 fps with < 1 % of frames over 20 ms; at x4
 * >= 55 fps with ~600 on stage; at x4 a 10x flood costs < 10 % of the frame rate against the same
 * number on stage without it.
 * Usage: node bench/danmaku-render.ts [rounds=3] [measureSeconds=5] [only=x4/,flood]   (about 15 minutes)
 * `only` keeps the cases whose names contain one of its comma-separated parts; such a partial run
 * writes danmaku-render.partial.json and judges no goal.
 */
import { chromium, type Page } from 'playwright';
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderResult, RenderRun } from './danmaku-render.page.ts';
import { median } from './stats.ts';
import { runFacts } from './run-facts.ts';
import { busyBetween, startTrace, type TraceEvent } from './trace.ts';

const rounds = Number(process.argv[2]) || 3;
const MEASURE = Number(process.argv[3]) || 5;
const WARM = 9; // the stage fills in 8 s (one crossing)
const ONLY = process.argv[4]?.split(',');
const GOAL = { allX1: { onStage: 2000, fps: 60, slowShare: 0.01 }, allX4: { onStage: 600, fps: 55 }, floodCost: 0.1 };

/** Busy ms a frame of the page's main thread and of the drawing worker, from a trace of the measured window. */
interface ThreadTimes {
  mainMsPerFrame: number;
  workerMsPerFrame?: number;
}

function threadTimes(events: TraceEvent[], result: RenderResult): ThreadTimes | undefined {
  const busy = busyBetween(events, 'danmaku-bench-start', 'danmaku-bench-end');
  if (!busy) return undefined;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    mainMsPerFrame: round(busy.mainMs / Math.max(1, result.frames)),
    workerMsPerFrame:
      busy.workerMs !== undefined && result.worker
        ? round(busy.workerMs / Math.max(1, (result.worker.fps * busy.windowMs) / 1000))
        : undefined,
  };
}

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-danmaku-'));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  // The overlay's drawing worker, bundled from the same module the site's build bundles; a page
  // from file:// cannot start a worker from a file, so the bench starts it from a blob.
  const workerBuild = await build({
    entryPoints: [join(import.meta.dirname, '..', 'src', 'lib', 'danmaku', 'render-worker.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  const workerCode = workerBuild.outputFiles[0].text;
  await build({
    entryPoints: [join(import.meta.dirname, 'danmaku-render.page.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    outfile: join(dir, 'bench.js'),
    logLevel: 'warning',
    plugins: [
      {
        name: 'worker-from-blob',
        setup(b) {
          b.onResolve({ filter: /render-worker-start\.ts$/ }, () => ({
            path: 'render-worker-start',
            namespace: 'bench',
          }));
          b.onLoad({ filter: /.*/, namespace: 'bench' }, () => ({
            contents: `const code = ${JSON.stringify(workerCode)};
export const startRenderWorker = () => new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })), { name: 'danmaku' });`,
            loader: 'js',
          }));
        },
      },
    ],
  });
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8">
<style>html,body{margin:0;background:#000;overflow:hidden}#stage{position:relative;width:1280px;height:720px;background:#223}</style>
<div id="stage"></div><script src="bench.js"></script>`,
  );
  const url = pathToFileURL(join(dir, 'index.html')).href;
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });

  const openPage = async (throttle: number) => {
    const page: Page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await page.goto(url);
    await page.waitForFunction(() => 'danmakuBench' in globalThis);
    return page;
  };
  const runOnce = async (run: RenderRun, throttle: number): Promise<RenderResult & { trace?: ThreadTimes }> => {
    const page = await openPage(throttle);
    try {
      const stopTrace = run.engine === 'dom' ? undefined : await startTrace(context, page);
      const result = await page.evaluate(
        (r) => (globalThis as unknown as { danmakuBench: (r: RenderRun) => Promise<RenderResult> }).danmakuBench(r),
        run,
      );
      if (!stopTrace) return result;
      const events = await stopTrace();
      return { ...result, trace: threadTimes(events, result) };
    } finally {
      await page.close();
    }
  };
  const capacity: Record<string, number> = {};
  {
    const page = await openPage(1);
    for (const density of ['readable', 'dense'] as const)
      capacity[density] = await page.evaluate(
        (d) => (globalThis as unknown as { capacity: (d: string) => number }).capacity(d),
        density,
      );
    await page.close();
  }
  console.log(`stage capacity with this stream: readable ${capacity.readable}, dense ${capacity.dense}`);

  /** Every measured case: a name, the engine and density, the stream, the throttling. */
  interface Case {
    key: string;
    run: Omit<RenderRun, 'warmSeconds' | 'measureSeconds'>;
    throttle: number;
  }
  const cases: Case[][] = [
    [{ key: 'x1/empty', run: { engine: 'none', perSecond: 0 }, throttle: 1 }],
    ...[2000, 3000].map((n) =>
      (['ours', 'dom'] as const).map((engine) => ({
        key: `x1/${engine}${engine === 'ours' ? ' all' : ''}/${n}`,
        run: { engine, density: 'all' as const, perSecond: n / 8 },
        throttle: 1,
      })),
    ),
    // Both places the player can draw, whichever it picks on this machine (the cases above).
    (['main', 'worker'] as const).map((drawIn) => ({
      key: `x1/ours all ${drawIn === 'main' ? 'main thread' : 'worker'}/2000`,
      run: { engine: 'ours' as const, density: 'all' as const, perSecond: 2000 / 8, drawIn },
      throttle: 1,
    })),
    [{ key: 'x4/empty', run: { engine: 'none', perSecond: 0 }, throttle: 4 }],
    (['ours', 'dom'] as const).map((engine) => ({
      key: `x4/${engine}${engine === 'ours' ? ' all' : ''}/600`,
      run: { engine, density: 'all' as const, perSecond: 600 / 8 },
      throttle: 4,
    })),
    (['main', 'worker'] as const).map((drawIn) => ({
      key: `x4/ours all ${drawIn === 'main' ? 'main thread' : 'worker'}/600`,
      run: { engine: 'ours' as const, density: 'all' as const, perSecond: 600 / 8, drawIn },
      throttle: 4,
    })),
    ...(['readable', 'dense'] as const).map((density) => [
      {
        key: `x4/ours ${density} flood 10x/${capacity[density]}`,
        run: { engine: 'ours' as const, density, perSecond: (capacity[density] * 10) / 8 },
        throttle: 4,
      },
      {
        key: `x4/ours all no flood/${capacity[density]}`,
        run: { engine: 'ours' as const, density: 'all' as const, perSecond: capacity[density] / 8 },
        throttle: 4,
      },
    ]),
  ];
  type Sample = RenderResult & { trace?: ThreadTimes };
  const samples: Record<string, Sample[]> = {};
  /** What viewers see: the page's frames and, when a worker draws, the worker's, whichever is worse. */
  const seenFps = (r: RenderResult) => Math.min(r.fps, r.worker?.fps ?? Infinity);
  const seenSlow = (r: RenderResult) => Math.max(r.slowShare, r.worker?.slowShare ?? 0);
  const chosen = ONLY
    ? cases
        .map((group) => group.filter((c) => ONLY.some((part) => c.key.includes(part))))
        .filter((group) => group.length)
    : cases;
  for (let round = 0; round < rounds; round++) {
    for (const group of chosen) {
      for (const c of round % 2 ? [...group].reverse() : group) {
        const r = await runOnce(
          { ...c.run, warmSeconds: c.run.engine === 'none' ? 2 : WARM, measureSeconds: MEASURE },
          c.throttle,
        );
        (samples[c.key] ??= []).push(r);
        console.log(
          `round ${round + 1} ${c.key.padEnd(34)}: ${r.fps.toFixed(1)} fps, ${(r.slowShare * 100).toFixed(1)} % > 20 ms, on stage ${r.onStage.median} (${r.onStage.min}-${r.onStage.max}), layers ${r.layers}, waiting ${r.waiting}, dropped ${r.dropped}, LoAF ${r.longAnimationFrames.count}${r.scriptMsPerFrame ? `, advance ${r.scriptMsPerFrame.advance} ms + draw ${r.scriptMsPerFrame.draw} ms` : ''}${r.worker ? `; worker ${r.worker.fps} fps, ${(r.worker.slowShare * 100).toFixed(1)} % > 20 ms, ${r.worker.drawMsPerFrame} ms drawing` : ''}${r.trace ? `; trace: main ${r.trace.mainMsPerFrame} ms/frame${r.trace.workerMsPerFrame !== undefined ? `, worker ${r.trace.workerMsPerFrame} ms/frame` : ''}` : ''}`,
        );
      }
    }
  }

  const summary = (key: string) => {
    const runs = samples[key];
    const maybe = (values: Array<number | undefined>) =>
      values.every((v) => v !== undefined) ? +median(values as number[]).toFixed(2) : undefined;
    return {
      fps: +median(runs.map(seenFps)).toFixed(1),
      slowShare: +median(runs.map(seenSlow)).toFixed(3),
      pageFps: +median(runs.map((r) => r.fps)).toFixed(1),
      pageSlowShare: +median(runs.map((r) => r.slowShare)).toFixed(3),
      workerFps: maybe(runs.map((r) => r.worker?.fps)),
      workerSlowShare: maybe(runs.map((r) => r.worker?.slowShare)),
      workerDrawMs: maybe(runs.map((r) => r.worker?.drawMsPerFrame)),
      traceMainMsPerFrame: maybe(runs.map((r) => r.trace?.mainMsPerFrame)),
      traceWorkerMsPerFrame: maybe(runs.map((r) => r.trace?.workerMsPerFrame)),
      onStage: median(runs.map((r) => r.onStage.median)),
      layers: median(runs.map((r) => r.layers)),
      droppedAtEnd: median(runs.map((r) => r.dropped)),
      advanceMs: runs[0].scriptMsPerFrame
        ? +median(runs.map((r) => r.scriptMsPerFrame!.advance)).toFixed(2)
        : undefined,
      drawMs: runs[0].scriptMsPerFrame ? +median(runs.map((r) => r.scriptMsPerFrame!.draw)).toFixed(2) : undefined,
      longAnimationFrames: median(runs.map((r) => r.longAnimationFrames.count)),
    };
  };
  const medians = Object.fromEntries(Object.keys(samples).map((key) => [key, summary(key)]));
  const ratio = (a: string, b: string) =>
    medians[a] && medians[b] ? +(medians[a].fps / medians[b].fps).toFixed(2) : NaN;
  const ratios = {
    'x1 all/library at 2000': ratio('x1/ours all/2000', 'x1/dom/2000'),
    'x1 all/library at 3000': ratio('x1/ours all/3000', 'x1/dom/3000'),
    'x4 all/library at 600': ratio('x4/ours all/600', 'x4/dom/600'),
    'x1 all worker/main thread at 2000': ratio('x1/ours all worker/2000', 'x1/ours all main thread/2000'),
    'x4 all worker/main thread at 600': ratio('x4/ours all worker/600', 'x4/ours all main thread/600'),
    'x4 readable flood/no flood': ratio(
      `x4/ours readable flood 10x/${capacity.readable}`,
      `x4/ours all no flood/${capacity.readable}`,
    ),
    'x4 dense flood/no flood': ratio(
      `x4/ours dense flood 10x/${capacity.dense}`,
      `x4/ours all no flood/${capacity.dense}`,
    ),
  };
  const allX1 = medians['x1/ours all/2000'];
  const allX4 = medians['x4/ours all/600'];
  const goals = ONLY
    ? null
    : {
        allX1:
          allX1.onStage >= GOAL.allX1.onStage * 0.98 &&
          allX1.fps >= GOAL.allX1.fps * 0.98 &&
          allX1.slowShare < GOAL.allX1.slowShare,
        allX4: allX4.fps >= GOAL.allX4.fps,
        floodCost:
          ratios['x4 readable flood/no flood'] >= 1 - GOAL.floodCost &&
          ratios['x4 dense flood/no flood'] >= 1 - GOAL.floodCost,
      };
  const result = {
    name: 'danmaku-render',
    date: new Date().toISOString(),
    ...runFacts(loadAtStart),
    browser: `Chromium ${browser.version()} headless, --disable-gpu (software raster)`,
    setup: {
      stage: '1280x720 CSS px, deviceScaleFactor 1',
      ours: 'DanmakuOverlay (src/lib/danmaku/overlay.ts) as the player sets it up: one engine at the density named, MediaClock, segments loaded through the API client (the bench answers fetch with the stream), drawing where the player decides on this machine (a worker with 4 cores or more, else the main thread); "main thread" cases force the main-thread canvas renderer with idle-time sprite preparation (transferControlToOffscreen hidden), "worker" cases force the worker (hardwareConcurrency reported as 8; worker-renderer.ts + render-worker.ts, bundled from the same module and started from a blob as file:// pages cannot start one from a file)',
      throttle:
        'x4 = CDP Emulation.setCPUThrottlingRate 4 on the page; CDP cannot throttle a worker (Chromium 156 answers "only supported for pages, not workers"), so a drawing worker runs at full speed: its figures show the page\'s thread freed, not a 4x slower core',
      fps: "fps and slowShare are what viewers see: the worse of the page's requestAnimationFrame frames and the worker's drawn frames; pageFps/workerFps separately; traceMainMsPerFrame/traceWorkerMsPerFrame = busy ms a frame of the page's main thread and of the worker thread from a CDP trace (top-level tasks) of the measured window",
      clock:
        'a video-like object whose currentTime follows performance.now() from page load; the overlay reads it through MediaClock, the library as its `media`',
      comments:
        'the same reproducible stream for both: all rtl, 8 s crossing (ours speed 1; the library speed 160 px/s = 1280/8), 1-3 words of Chinese/Latin text, 20 % small, 70 % medium, 10 % large, a third coloured',
      capacity: `what one stage holds at most with this stream, measured in the page by flooding one engine: readable ${capacity.readable}, dense ${capacity.dense}`,
      frames: `page load, ${WARM} s for the stage to fill, then ${MEASURE} s of requestAnimationFrame deltas; fps = frames / window; slowShare = share of deltas > 20 ms; long animation frames from PerformanceObserver('long-animation-frame'); advance/draw = main-thread ms per frame inside the engine's advance() and the renderer's draw()`,
      runs: `${rounds} rounds; each group's runs back to back, order alternating between rounds; a fresh page per run`,
    },
    samples: Object.fromEntries(
      Object.entries(samples).map(([k, runs]) => [
        k,
        runs.map((r) => ({
          fps: r.fps,
          slowShare: r.slowShare,
          worker: r.worker,
          trace: r.trace,
          onStage: r.onStage,
          layers: r.layers,
          waiting: r.waiting,
          dropped: r.dropped,
          scriptMsPerFrame: r.scriptMsPerFrame,
          longAnimationFrames: r.longAnimationFrames,
          frameDeltasMs: r.deltas,
        })),
      ]),
    ),
    medians,
    ratios,
    goal: {
      allX1: '"all" at x1: >= 2000 on stage at 60 fps, < 1 % of frames over 20 ms',
      allX4: '"all" at x4: >= 55 fps with ~600 on stage',
      floodCost:
        'x4: a flood of 10x the capacity costs < 10 % of the frame rate against the same number on stage without it (readable and dense)',
    },
    goalMet: goals,
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  const resultFile = join('bench', 'results', ONLY ? 'danmaku-render.partial.json' : 'danmaku-render.json');
  writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    '\ncase                                  fps   >20ms  on stage  page/worker fps  advance+draw ms  trace main/worker ms a frame',
  );
  for (const [key, m] of Object.entries(medians))
    console.log(
      `${key.padEnd(36)} ${m.fps.toFixed(1).padStart(5)}  ${(m.slowShare * 100).toFixed(1).padStart(5)}%  ${String(m.onStage).padStart(7)}  ${`${m.pageFps}/${m.workerFps ?? '-'}`.padStart(15)}  ${`${m.advanceMs ?? '-'} + ${m.drawMs ?? '-'}`.padStart(15)}  ${m.traceMainMsPerFrame ?? '-'}/${m.traceWorkerMsPerFrame ?? '-'}`,
    );
  console.log(ratios);
  console.log('goals met:', goals);
  console.log(`written ${resultFile}`);
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
