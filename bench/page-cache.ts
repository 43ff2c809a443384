/**
 * Pages at the speed of files (issue 30, goal: guests' home, video, user, search and tag pages at
 * >= 0.5x the throughput of a static file of the same size, p99 <= 100 ms, 50 connections).
 * Two real servers as the API tests start them (tests/api/harness.ts, the built site, PGlite in
 * memory, the same 60 approved videos with a tag): one as it ships, keeping guests' pages
 * (server/site/page-cache.ts), one with PAGE_CACHE_MB=0, rendering every request as before.
 * Baseline, same run: each page's own HTML written once as a .html file under MEDIA_DIR and
 * fetched from /media/… of the first server (its static file handler, compressed copy cached).
 * Every request as a browser sends it (Accept-Encoding: br), keep-alive, loopback, autocannon's
 * CLI in a child process. Per page, every round runs the three sides in a rotating order.
 * Ratios: req/s kept / static and p99 static / kept (1 = as fast as the file); kept / rendered.
 * Usage: node bench/page-cache.ts [rounds=2] [seconds=5] [connections=50]
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { runFacts } from './run-facts.ts';
import { cannon, drain, type Cannon, summarise } from './cannon.ts';

const ROUNDS = Number(process.argv[2]) || 2;
const SECONDS = Number(process.argv[3]) || 5;
const CONNECTIONS = Number(process.argv[4]) || 50;
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 100;
const BROWSER = ['Accept-Encoding=br', 'Accept-Language=en'];

const { startTestServer } = await import('../tests/api/harness.ts');
const { insertAccount } = await import('../server/services/accounts.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { insertApprovedVideo } = await import('./fixtures.ts');
type Server = Awaited<ReturnType<typeof startTestServer>>;

const TITLES = [
  '星空の下で歌ってみた',
  '【MAD】夏の終わりに',
  '猫と一緒にピアノを弾く',
  'Tutorial: drawing eyes',
  '东方 弹幕 合集',
  '초보자를 위한 기타 강좌',
];

/** The same catalogue on each server: an uploader, 60 approved videos, every third with the tag 星空. */
async function fill(server: Server): Promise<{ uid: number; videoId: number; tagId: number }> {
  const uid = await insertAccount(createRepositories(server.db), {
    email: 'bench@example.com',
    password: 'bench password 1',
    username: 'Uploader',
    roles: ['user'],
  });
  const { tag_id: tagId } = await server.db
    .insertInto('tags')
    .values({ created_by: uid })
    .returning('tag_id')
    .executeTakeFirstOrThrow();
  await server.db
    .insertInto('tag_names')
    .values({ tag_id: tagId, lang: 'ja', name: '星空', name_lower: '星空', is_default: true, is_original: true })
    .execute();
  let videoId = 0;
  for (let i = 0; i < 60; i++) {
    ({ videoId } = await insertApprovedVideo(server.db, uid, {
      title: `${TITLES[i % TITLES.length]} #${i + 1}`,
      durationMs: 90_000 + i * 1000,
      width: 1280,
      height: 720,
      renditions: [360, 720],
    }));
    await server.db
      .updateTable('videos')
      .set({ search_text: `${TITLES[i % TITLES.length]} #${i + 1}`.toLowerCase() })
      .where('video_id', '=', videoId)
      .execute();
    if (i % 3 === 0)
      await server.db.insertInto('video_tags').values({ video_id: videoId, tag_id: tagId, position: 0 }).execute();
  }
  return { uid, videoId, tagId };
}

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-page-cache-'));
const envOf = (name: string, extra: Record<string, string> = {}) => ({
  WORKER: '0',
  MEDIA_DIR: join(root, name, 'media'),
  UPLOAD_DIR: join(root, name, 'uploads'),
  OUTBOX_DIR: join(root, name, 'outbox'),
  ...extra,
});
const kept = await startTestServer('pglite', { site: true, env: envOf('kept') });
const rendered = await startTestServer('pglite', { site: true, env: envOf('rendered', { PAGE_CACHE_MB: '0' }) });
try {
  const [ids] = await Promise.all([fill(kept), fill(rendered)]);
  const pages = {
    home: '/en/',
    video: `/en/video/kv${ids.videoId}`,
    user: `/en/user/${ids.uid}`,
    search: `/en/search?keyword=${encodeURIComponent('星空')}`,
    tag: `/en/search?tag=${ids.tagId}`,
  };
  type Side = 'kept' | 'static' | 'rendered';
  const results: Record<string, { bytes: number; runs: Record<Side, Cannon[]> }> = {};
  for (const [name, path] of Object.entries(pages)) {
    // The page's own bytes become the static file: same size, same compressibility.
    const html = await (await fetch(kept.baseUrl + path)).text();
    if (!html.includes('<html')) throw new Error(`${path} answered no page`);
    await mkdir(join(root, 'kept', 'media', 'bench'), { recursive: true });
    await writeFile(join(root, 'kept', 'media', 'bench', `${name}.html`), html);
    const urls: Record<Side, string> = {
      kept: kept.baseUrl + path,
      static: `${kept.baseUrl}/media/bench/${name}.html`,
      rendered: rendered.baseUrl + path,
    };
    for (const side of Object.keys(urls) as Side[]) {
      const probe = await fetch(urls[side], { headers: { 'Accept-Encoding': 'br' } });
      if (probe.status !== 200) throw new Error(`${side} ${urls[side]} answered ${probe.status}`);
      await cannon(urls[side], { seconds: 2, connections: CONNECTIONS, headers: BROWSER });
    }
    const runs: Record<Side, Cannon[]> = { kept: [], static: [], rendered: [] };
    const sides: Side[] = ['kept', 'static', 'rendered'];
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of [...sides.slice(round % 3), ...sides.slice(0, round % 3)]) {
        const r = await cannon(urls[side], { seconds: SECONDS, connections: CONNECTIONS, headers: BROWSER });
        await drain(`${(side === 'rendered' ? rendered : kept).baseUrl}/api/health`);
        if (r.non2xx) throw new Error(`${name} ${side}: ${r.non2xx} non-2xx answers`);
        runs[side].push(r);
        console.log(
          `${name.padEnd(6)} round ${round + 1} ${side.padEnd(8)}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${r.errors} errors, ${r.timeouts} timeouts)`,
        );
      }
    }
    results[name] = { bytes: Buffer.byteLength(html), runs };
  }

  const perPage = Object.fromEntries(
    Object.entries(results).map(([name, { bytes, runs }]) => {
      const [k, s, r] = [summarise(runs.kept), summarise(runs.static), summarise(runs.rendered)];
      const ratio = {
        requestsPerSecondKeptOverStatic: +(k.requestsPerSecond / s.requestsPerSecond).toFixed(3),
        p99StaticOverKept: +(s.p99Ms / k.p99Ms).toFixed(3),
        requestsPerSecondKeptOverRendered: +(k.requestsPerSecond / r.requestsPerSecond).toFixed(2),
      };
      const goalMet =
        ratio.requestsPerSecondKeptOverStatic >= GOAL_RATIO && k.p99Ms <= GOAL_P99_MS && !k.errors && !k.timeouts;
      return [
        name,
        {
          path: pages[name as keyof typeof pages],
          htmlBytes: bytes,
          median: { kept: k, static: s, rendered: r },
          ratio,
          goalMet,
          samples: runs,
        },
      ];
    }),
  );
  const result = {
    name: 'page-cache',
    date: new Date().toISOString(),
    ...runFacts(loadAtStart),
    setup: {
      servers:
        'two real servers via tests/api/harness.ts startTestServer(pglite, site) in this process, WORKER=0; "rendered" with PAGE_CACHE_MB=0',
      catalogue: '60 approved videos of one uploader, every third tagged 星空',
      load: `autocannon CLI in a child process, ${CONNECTIONS} connections, keep-alive, loopback, ${BROWSER.join(' ')}`,
      rounds: ROUNDS,
      secondsPerRun: SECONDS,
      order: 'per page, each round rotates kept / static / rendered',
    },
    goal: `guests' pages >= ${GOAL_RATIO}x a static file's req/s, p99 <= ${GOAL_P99_MS} ms`,
    goalMet: Object.values(perPage).every((page) => page.goalMet),
    pages: perPage,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/page-cache.json', `${JSON.stringify(result, null, 2)}\n`);
  for (const [name, page] of Object.entries(perPage)) {
    console.log(
      `${name.padEnd(6)} ${page.htmlBytes} B: kept ${page.median.kept.requestsPerSecond} req/s p99 ${page.median.kept.p99Ms} ms | static ${page.median.static.requestsPerSecond} req/s p99 ${page.median.static.p99Ms} ms | rendered ${page.median.rendered.requestsPerSecond} req/s p99 ${page.median.rendered.p99Ms} ms | kept/static ${page.ratio.requestsPerSecondKeptOverStatic}, kept/rendered ${page.ratio.requestsPerSecondKeptOverRendered}x ${page.goalMet ? '(met)' : '(not met)'}`,
    );
  }
  console.log(
    `load ${result.loadAverage.atStart.join(' ')} -> ${result.loadAverage.atEnd.join(' ')}; goal ${result.goalMet ? 'met' : 'not met'}`,
  );
} finally {
  await kept.close();
  await rendered.close();
  await rm(root, { recursive: true, force: true });
}
