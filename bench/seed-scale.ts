/**
 * The scale seeder side by side (issue 30, item 1): `npm run cli -- seed:scale` of two checkouts,
 * each into a fresh PostgreSQL database, in the order given (ABBA, or A+B to start both at once),
 * with bench/scale.ts's shape (members N/10, comments 5, follows 20, history 100) and the danmaku
 * a video asked. Per run: each table's line as the seeder prints it, the total, the load average
 * at the start and the end, and the CPU seconds of the seeder's Node process and of the database's
 * backends (sampled from /proc every 2 s, each process's largest count: a figure the load moves
 * less than the wall time). The databases are dropped after (SEED_KEEP=1 keeps them).
 * Usage: node bench/seed-scale.ts [videos=100000] [danmakuPerVideo=100] [order=ABBA]
 * A_ROOT (default /work/main) and B_ROOT (default this checkout) are the two checkouts;
 * TEST_DATABASE_URL the server; SEED_DB_PREFIX (default seedbench_) names the databases.
 * Writes bench/results/seed-scale.json.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';

const [videos = '100000', perVideo = '100', order = 'ABBA'] = process.argv.slice(2);
const roots: Record<string, string> = {
  A: process.env.A_ROOT ?? '/work/main',
  B: process.env.B_ROOT ?? resolve(import.meta.dirname, '..'),
};
const server = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const prefix = process.env.SEED_DB_PREFIX ?? 'seedbench_';
const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const ticksPerSecond = 100;
const cpuOf = (pid: number): number | null => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return null;
  }
};

interface Run {
  side: string;
  database: string;
  loadAtStart: string;
  loadAtEnd: string;
  seconds: number;
  lines: string[];
  tables: Record<string, { rows: number; seconds: number }>;
  nodeCpuSeconds: number;
  postgresCpuSeconds: number;
}

async function run(side: string, index: number): Promise<Run> {
  const database = `${prefix}${side.toLowerCase()}${index}`;
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  const loadAtStart = load();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      'scripts/cli.ts',
      'seed:scale',
      '--videos',
      videos,
      '--users',
      String(Math.max(2, Math.round(Number(videos) / 10))),
      '--danmaku-per-video',
      perVideo,
      '--comments-per-video',
      '5',
      '--follows-per-user',
      '20',
      '--history-per-user',
      '100',
    ],
    { cwd: roots[side], env: { ...process.env, DATABASE_URL: url.toString() }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString();
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) {
      const stamped = `${((performance.now() - started) / 1000).toFixed(1)} s  ${line}`;
      lines.push(stamped);
      console.log(`${side}${index} ${stamped}`);
    }
  });
  // Each process's largest CPU count seen (a backend's is lost when it ends between two samples).
  const seen = new Map<number, { node: boolean; cpu: number }>();
  const sampler = setInterval(async () => {
    const node = cpuOf(child.pid ?? -1);
    if (node !== null) seen.set(child.pid!, { node: true, cpu: node });
    const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    for (const { pid } of rows) {
      const cpu = cpuOf(pid);
      if (cpu !== null) seen.set(pid, { node: false, cpu });
    }
  }, 2000);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${side}${index}: the seeder ended with ${code}`);
  const seconds = (performance.now() - started) / 1000;
  const tables: Run['tables'] = {};
  for (const line of lines) {
    const match = /\s(\w+): (\d+) rows in ([\d.]+) s/.exec(line);
    if (match) tables[match[1]] = { rows: Number(match[2]), seconds: Number(match[3]) };
  }
  if (process.env.SEED_KEEP !== '1') await admin.query(`DROP DATABASE ${database}`);
  const sum = (node: boolean) =>
    +[...seen.values()]
      .filter((p) => p.node === node)
      .reduce((total, p) => total + p.cpu, 0)
      .toFixed(1);
  return {
    side,
    database,
    loadAtStart,
    loadAtEnd: load(),
    seconds: +seconds.toFixed(1),
    lines,
    tables,
    nodeCpuSeconds: sum(true),
    postgresCpuSeconds: sum(false),
  };
}

const runs: Run[] = [];
const steps = order.includes('+') ? [order.split('+')] : [...order].map((side) => [side]);
const counts: Record<string, number> = {};
for (const step of steps) {
  const started = step.map((side) => {
    counts[side] = (counts[side] ?? 0) + 1;
    return run(side, counts[side]);
  });
  runs.push(...(await Promise.all(started)));
}
await admin.end();
for (const r of runs) {
  const danmaku = r.tables.danmaku;
  console.log(
    `${r.side} ${r.database}: ${r.seconds} s, load ${r.loadAtStart} → ${r.loadAtEnd}; danmaku ${danmaku?.rows ?? 0} in ${danmaku?.seconds ?? 0} s (${danmaku ? Math.round(danmaku.rows / danmaku.seconds) : 0} rows/s); CPU node ${r.nodeCpuSeconds} s, PostgreSQL ${r.postgresCpuSeconds} s`,
  );
}
writeFileSync(
  resolve(import.meta.dirname, 'results/seed-scale.json'),
  `${JSON.stringify({ at: new Date().toISOString(), videos: Number(videos), danmakuPerVideo: Number(perVideo), order, runs }, null, 2)}\n`,
);
