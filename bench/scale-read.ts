/**
 * Read calls of the site (home, a video, its danmaku, its comments, a search) against one web
 * process and against two behind a small round-robin proxy, same run, same PostgreSQL database.
 * Each web process is the real entry point (node server/main.ts, WORKER=0, SERVE_SITE=0) on
 * its own port. Three setups, alternating over ROUNDS rounds of SECONDS s after a warm-up:
 *   direct: the load generator straight to process A;
 *   proxy-one: through the proxy, which sends everything to A (what the proxy itself costs);
 *   proxy-two: through the proxy, round-robin over A and B.
 * The figure that answers "what does a second process give" is proxy-two / proxy-one. On a
 * machine with few cores the load generator, the proxy, PostgreSQL and both processes share
 * them: the cores and the load average are recorded with the figures.
 * Usage: node bench/scale-read.ts [rounds=2] [seconds=10] [connections=32]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.ts';
import { serverArguments } from '../server/node-flags.ts';

const ROUNDS = Number(process.argv[2]) || 2;
const SECONDS = Number(process.argv[3]) || 10;
const CONNECTIONS = Number(process.argv[4]) || 32;
const PROXY_PORT = 4542;
process.env.TEST_DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';

const { freshPostgresDatabase } = await import('../tests/api/harness.ts');
const { openDatabase, migrateToLatest } = await import('../server/db/database.ts');
const { insertAccount } = await import('../server/services/accounts.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { insertApprovedVideo, insertDanmaku } = await import('./fixtures.ts');

/** A web process on a port of this bench's range; resolves once it answers. */
async function startWeb(name: string, port: number, databaseUrl: string, root: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, serverArguments(), {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKER: '0',
      SERVE_SITE: '0',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(root, name),
      MEDIA_DIR: join(root, name, 'media'),
      UPLOAD_DIR: join(root, name, 'uploads'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${port}/api/video/home`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not answer on ${port}`);
}

/** The round-robin proxy: keep-alive connections to each backend, one request after another in turn. */
function startProxy(): { setBackends: (ports: number[]) => void; close: () => void } {
  let backends: number[] = [];
  let next = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const port = backends[next++ % backends.length];
    const upstream = request(
      { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(PROXY_PORT, '127.0.0.1');
  return { setBackends: (ports) => ((backends = ports), (next = 0)), close: () => (server.close(), agent.destroy()) };
}

interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
function load(url: string, seconds: number, paths: string[]): Promise<Load> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['bench/scale-read-load.ts', url, String(seconds), String(CONNECTIONS), ...paths],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`)),
    );
  });
}

const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-scale-'));
const database = await freshPostgresDatabase();
const processes: ChildProcess[] = [];
const proxy = startProxy();
try {
  const opened = await openDatabase({ databaseUrl: database.url });
  await migrateToLatest(opened.db);
  // Started before the catalogue is written: their start-up sweep of expired uploads would take the fixtures' rows.
  const a = { port: PROXY_PORT + 1 };
  const b = { port: PROXY_PORT + 2 };
  processes.push(
    ...(await Promise.all([startWeb('a', a.port, database.url, root), startWeb('b', b.port, database.url, root)])),
  );
  const uid = await insertAccount(createRepositories(opened.db), {
    email: 'bench@example.com',
    password: 'bench password 1',
    username: 'Bench',
  });
  // A catalogue of 200 videos; the one watched has 1500 danmaku in its first segment and 200 comments.
  let videoId = 0;
  for (let i = 0; i < 200; i++) {
    ({ videoId } = await insertApprovedVideo(opened.db, uid, {
      title: `横向扩展测试 ${i} scale out`,
      durationMs: 600_000,
      width: 1280,
      height: 720,
      renditions: [360, 720],
    }));
  }
  await insertDanmaku(opened.db, {
    videoId,
    uid,
    count: 1500,
    seed: 3,
    maxWords: 3,
    timeOf: (_, rand) => rand() * 359,
  });
  await opened.db
    .insertInto('comments')
    .values(
      Array.from({ length: 200 }, (_, i) => ({ video_id: videoId, floor: i + 1, uid, text: `<p>第 ${i + 1} 楼</p>` })),
    )
    .execute();
  await opened.close();

  const paths = [
    '/api/video/home',
    `/api/video?videoId=${videoId}`,
    `/api/video/danmaku?videoId=${videoId}&segment=0`,
    `/api/video/comment?videoId=${videoId}`,
    '/api/video/search?keyword=%E6%89%A9%E5%B1%95',
  ];
  for (const path of paths) {
    const answer = await fetch(`http://127.0.0.1:${a.port}${path}`);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
  }
  const setups = {
    direct: { url: `http://127.0.0.1:${a.port}`, backends: [a.port] },
    'proxy-one': { url: `http://127.0.0.1:${PROXY_PORT}`, backends: [a.port] },
    'proxy-two': { url: `http://127.0.0.1:${PROXY_PORT}`, backends: [a.port, b.port] },
  } as const;
  type Setup = keyof typeof setups;
  const order: Setup[] = ['direct', 'proxy-one', 'proxy-two'];
  const samples: Record<Setup, Array<Load & { load1: number }>> = { direct: [], 'proxy-one': [], 'proxy-two': [] };
  for (const setup of order) {
    proxy.setBackends([...setups[setup].backends]);
    await load(setups[setup].url, 3, paths); // warm-up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const setup of round % 2 ? [...order].reverse() : order) {
      proxy.setBackends([...setups[setup].backends]);
      const r = await load(setups[setup].url, SECONDS, paths);
      if (r.non2xx || r.errors) throw new Error(`${setup}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      samples[setup].push({ ...r, load1: +loadavg()[0].toFixed(2) });
      console.log(
        `round ${round + 1} ${setup.padEnd(9)}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (load ${loadavg()[0].toFixed(2)})`,
      );
    }
  }
  const summary = (setup: Setup) => ({
    requestsPerSecond: +median(samples[setup].map((s) => s.requestsPerSecond)).toFixed(1),
    p99: median(samples[setup].map((s) => s.p99)),
    runs: samples[setup],
  });
  const result = {
    date: new Date().toISOString(),
    cores: cpus().length,
    cpu: cpus()[0]?.model,
    loadAverage: loadavg().map((l) => +l.toFixed(2)),
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    calls: paths,
    direct: summary('direct'),
    proxyOne: summary('proxy-one'),
    proxyTwo: summary('proxy-two'),
    ratios: {} as Record<string, number>,
  };
  result.ratios = {
    twoOverOneRequestsPerSecond: +(result.proxyTwo.requestsPerSecond / result.proxyOne.requestsPerSecond).toFixed(2),
    twoOverOneP99: +(result.proxyTwo.p99 / result.proxyOne.p99).toFixed(2),
    proxyCost: +(result.proxyOne.requestsPerSecond / result.direct.requestsPerSecond).toFixed(2),
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  writeFileSync(join('bench', 'results', 'scale-read.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.ratios), `cores ${result.cores}, load ${result.loadAverage.join(' ')}`);
} finally {
  proxy.close();
  for (const child of processes) child.kill('SIGTERM');
  await Promise.all(
    processes.map(
      (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
    ),
  );
  await database.drop();
  await rm(root, { recursive: true, force: true });
}
