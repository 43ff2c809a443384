/**
 * GET api/video/danmaku for a video with 6000 danmaku in one 6-minute segment, on the real
 * server as the API tests start it (tests/api/harness.ts startTestServer('pglite'), PGlite in
 * memory), under 50 concurrent connections on loopback with autocannon (its CLI in a child
 * process, so the load generator does not share the server's event loop).
 * Baseline, same server, same run: the exact bytes that GET answered, written once as a .json
 * file under MEDIA_DIR and fetched from /media/… (the server's static file handler: a stat per
 * request, ETag, streamed from disk). Measured twice: plain (no Accept-Encoding: both sides send
 * the same uncompressed bytes; the goal is read here), and with Accept-Encoding: br as browsers
 * send it (each side sends its cached compressed copy). Every request is a fresh GET without
 * If-None-Match, so neither side can answer 304.
 * The two alternate (ABBA), ROUNDS rounds of SECONDS s each, after a warm-up of each.
 * Ratios: requests/s (API / static) and p99 latency (static / API), so 1 means "as fast as a
 * static file" for both. Goal: both >= 0.5.
 * Usage: node bench/danmaku-api.ts [rounds=3] [seconds=10] [connections=50]
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { runFacts } from './run-facts.ts';
import { cannon as runCannon, drain as drainTo, type Cannon, summarise } from './cannon.ts';

const cannon = (url: string, seconds: number, headers: string[] = []) =>
  runCannon(url, { seconds, connections: CONNECTIONS, headers });
const drain = (baseUrl: string, videoId: number) => drainTo(`${baseUrl}/api/video/exists?videoId=${videoId}`);

const rounds = Number(process.argv[2]) || 3;
const SECONDS = Number(process.argv[3]) || 10;
const CONNECTIONS = Number(process.argv[4]) || 50;
const DANMAKU = 6000;
const GOAL = 0.5;

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-danmaku-api-'));
const mediaDir = join(root, 'media');
const { startTestServer } = await import('../tests/api/harness.ts');
const { insertAccount } = await import('../server/services/accounts.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { insertApprovedVideo, insertDanmaku } = await import('./fixtures.ts');
const app = await startTestServer('pglite', {
  env: { WORKER: '0', MEDIA_DIR: mediaDir, UPLOAD_DIR: join(root, 'uploads'), OUTBOX_DIR: join(root, 'outbox') },
});
try {
  // An approved 45-minute video (its pool holds 8000), written as tests/api/danmaku-comments.test.ts does.
  const uid = await insertAccount(createRepositories(app.db), {
    email: 'bench@example.com',
    password: 'bench password 1',
    username: 'Bench',
    roles: ['user'],
  });
  const { videoId } = await insertApprovedVideo(app.db, uid, {
    title: '弹幕压力测试',
    durationMs: 45 * 60_000,
    width: 1280,
    height: 720,
    renditions: [360, 720],
  });

  // 6000 danmaku in the first segment (0-360 s): the busiest segment a viewer loads.
  await insertDanmaku(app.db, {
    videoId,
    uid,
    count: DANMAKU,
    seed: 7,
    maxWords: 4,
    timeOf: (_, rand) => rand() * 359.9,
  });

  const apiUrl = `${app.baseUrl}/api/video/danmaku?videoId=${videoId}&segment=0`;
  const first = await fetch(apiUrl);
  const bytes = Buffer.from(await first.arrayBuffer());
  const answer = JSON.parse(bytes.toString());
  if (first.status !== 200 || answer.danmaku.length !== DANMAKU)
    throw new Error(`the API answered ${first.status} with ${answer.danmaku?.length} danmaku`);
  await mkdir(join(mediaDir, 'bench'), { recursive: true });
  await writeFile(join(mediaDir, 'bench', 'danmaku-segment.json'), bytes);
  const staticUrl = `${app.baseUrl}/media/bench/danmaku-segment.json`;
  const copy = Buffer.from(await (await fetch(staticUrl)).arrayBuffer());
  if (!copy.equals(bytes)) throw new Error('the static copy differs from the API answer');
  console.log(`${DANMAKU} danmaku, ${bytes.length} bytes per answer (${first.headers.get('content-type')})`);

  // Warm-up: JIT, connections, caches on both sides; not counted.
  await cannon(apiUrl, 3);
  await drain(app.baseUrl, videoId);
  await cannon(staticUrl, 3);
  await drain(app.baseUrl, videoId);

  // Plain (the goal's measure: identical bytes on both sides) and as browsers ask, with brotli:
  // each side then sends its own cached compressed copy (static files at quality 9, the API at 5).
  const ENCODINGS = { plain: [], br: ['Accept-Encoding=br'] } as const;
  type Side = 'api' | 'static';
  const samples: Record<keyof typeof ENCODINGS, Record<Side, Cannon[]>> = {
    plain: { api: [], static: [] },
    br: { api: [], static: [] },
  };
  for (const [encoding, headers] of Object.entries(ENCODINGS) as Array<[keyof typeof ENCODINGS, readonly string[]]>) {
    for (let round = 0; round < rounds; round++) {
      for (const kind of (round % 2 ? ['static', 'api'] : ['api', 'static']) as Side[]) {
        const r = await cannon(kind === 'api' ? apiUrl : staticUrl, SECONDS, [...headers]);
        await drain(app.baseUrl, videoId);
        if (r.non2xx) throw new Error(`${kind}: ${r.non2xx} non-2xx answers`);
        samples[encoding][kind].push(r);
        // Errors are requests that got no answer within autocannon's 10 s timeout; they count against that side.
        console.log(
          `${encoding} round ${round + 1} ${kind.padEnd(6)}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${(r.bytesPerSecond / r.requestsPerSecond / 1024).toFixed(0)} KiB per answer (${r.total} requests, ${r.errors} errors, ${r.timeouts} timeouts)`,
        );
      }
    }
  }

  const compare = (side: Record<Side, Cannon[]>) => {
    const api = summarise(side.api);
    const stat = summarise(side.static);
    return {
      median: { api, static: stat },
      ratio: {
        requestsPerSecond: +(api.requestsPerSecond / stat.requestsPerSecond).toFixed(3),
        p99: +(stat.p99Ms / api.p99Ms).toFixed(3),
      },
    };
  };
  const {
    median: { api, static: stat },
    ratio,
  } = compare(samples.plain);
  const brotli = compare(samples.br);
  const goalMet = ratio.requestsPerSecond >= GOAL && ratio.p99 >= GOAL;
  const result = {
    name: 'danmaku-api',
    date: new Date().toISOString(),
    ...runFacts(loadAtStart),
    setup: {
      server:
        'real server via tests/api/harness.ts startTestServer(pglite) (PGlite in memory), WORKER=0, LOG_LEVEL=error',
      data: `an approved 45-minute video with ${DANMAKU} danmaku, all in segment 0 (0-360 s)`,
      api: 'GET /api/video/danmaku?videoId=<id>&segment=0, anonymous, no If-None-Match; plain: no Accept-Encoding; br: Accept-Encoding: br',
      static:
        'the same response bytes saved once as MEDIA_DIR/bench/danmaku-segment.json, GET /media/bench/danmaku-segment.json (server/site/static-files.ts: stat per request, ETag, streamed from disk; uncompressed since no Accept-Encoding is sent), no If-None-Match',
      bytesPerAnswer: bytes.length,
      load: `autocannon CLI in a child process, ${CONNECTIONS} connections, keep-alive, loopback`,
      runs: `warm-up 3 s each, then ${rounds} rounds of ${SECONDS} s per side, alternating (ABBA); after each run, wait until the server answers video/exists within 100 ms (no backlog carried into the next run)`,
      ratios: 'requestsPerSecond: API / static; p99: static p99 / API p99 (both: 1 = as fast as the static file)',
    },
    samples,
    median: { api, static: stat },
    ratio,
    withBrotli: brotli,
    goal: { bothRatiosAtLeast: GOAL, measuredOn: 'plain' },
    goalMet,
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  writeFileSync(join('bench', 'results', 'danmaku-api.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\nmedians: API ${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms; static ${stat.requestsPerSecond} req/s, p99 ${stat.p99Ms} ms`,
  );
  console.log(
    `ratios: req/s ${ratio.requestsPerSecond}, p99 ${ratio.p99} (goal >= ${GOAL}): ${goalMet ? 'met' : 'NOT met'}`,
  );
  console.log(
    `with brotli: API ${brotli.median.api.requestsPerSecond} req/s, static ${brotli.median.static.requestsPerSecond} req/s; ratios ${brotli.ratio.requestsPerSecond} (req/s), ${brotli.ratio.p99} (p99)`,
  );
  console.log('written bench/results/danmaku-api.json');
} finally {
  await app.close();
  await rm(root, { recursive: true, force: true });
}
