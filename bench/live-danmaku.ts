/**
 * Live danmaku under a crowd: VIEWERS concurrent viewers of one video hold GET
 * video/danmaku/live open on server processes started from the real entry point
 * (server/main.ts) over one PostgreSQL database (a throwaway one), spread evenly over the
 * processes; RATE danmaku a second are sent for SECONDS seconds through POST
 * video/danmaku/emit, alternately to each process, by as many members as the per-member limit
 * needs. Measured:
 * - delivery latency: from just before the send's POST to the event's arrival at each viewer
 *   (the sender and the viewers share this process's clock), p50 / p99 over every delivery;
 * - delivered / (sent × viewers connected throughout), and viewers dropped or reconnected;
 * - each server process's CPU (% of one core, from /proc) and largest resident memory.
 * Two scenarios side by side, same database and load: PROCESSES processes (fan-out through
 * LISTEN/NOTIFY between them), and the baseline of one process (the same bus, no other process).
 * Ratio: p99 of the baseline / p99 with several processes (1 = crossing processes costs nothing).
 * Goals: p99 < 500 ms and delivered ratio 1.0 with several processes.
 * Usage: node bench/live-danmaku.ts [viewers=1000] [rate=50] [seconds=30] [processes=2]
 * (PostgreSQL from TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

process.env.TEST_DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
const { freshPostgresDatabase, openDatabase } = await import('../tests/api/harness.ts');
const { insertVideo, member } = await import('../tests/api/media-helpers.ts');
const { startServerProcess } = await import('../tests/api/cluster.ts');
type TestServer = import('../tests/api/harness.ts').TestServer;
type ServerProcess = import('../tests/api/cluster.ts').ServerProcess;

const VIEWERS = Number(process.argv[2]) || 1000;
const RATE = Number(process.argv[3]) || 50;
const SECONDS = Number(process.argv[4]) || 30;
const PROCESSES = Number(process.argv[5]) || 2;
/** Ports of the bench's server processes (the live helper's range). */
const FIRST_PORT = 4513;
const GOAL_P99_MS = 500;
/** One danmaku per 3 s and 20 a minute per member: enough members that none is limited. */
const SENDERS = Math.ceil(RATE * 6);

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;

/** CPU ticks (user + system) and resident memory of a process, from /proc. */
function sample(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  return { ticks, rss };
}
const TICKS_PER_SECOND = 100;

/** A viewer reduced to what the bench needs: the `bench N` texts it receives, and when. */
interface Viewer {
  received: number;
  closedEarly: boolean;
  close(): void;
}

function openViewer(
  port: number,
  videoId: number,
  agent: Agent,
  onDanmaku: (seq: number, at: number) => void,
): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const viewer: Viewer = { received: 0, closedEarly: false, close: () => req.destroy() };
    let closing = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/video/danmaku/live?videoId=${videoId}`,
        agent,
        headers: { Accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`viewer refused: ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          const end = buffer.lastIndexOf('\n\n');
          if (end < 0) return;
          const complete = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          for (const match of complete.matchAll(/"text":"bench (\d+)"/g)) {
            viewer.received += 1;
            onDanmaku(Number(match[1]), at);
          }
        });
        res.on('close', () => {
          if (!closing) viewer.closedEarly = true;
        });
        resolve(viewer);
      },
    );
    viewer.close = () => {
      closing = true;
      req.destroy();
    };
    req.on('error', (error) => {
      if (!closing) viewer.closedEarly = true;
      reject(error);
    });
    req.end();
  });
}

interface Outcome {
  processes: number;
  viewers: number;
  sent: number;
  sendErrors: number;
  deliveries: number;
  expected: number;
  deliveredRatio: number;
  viewersDropped: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  servers: Array<{ cpuPercentOfOneCore: number; maxRssMiB: number; rssBeforeMiB: number }>;
  loadAverage: number[];
}

async function scenario(
  processCount: number,
  databaseUrl: string,
  handle: Awaited<ReturnType<typeof openDatabase>>,
): Promise<Outcome> {
  const direct = { db: handle.db } as TestServer;
  const uploader = await member(direct, `bench${randomBytes(3).toString('hex')}`);
  // Three hours: a pool cap of 8000, so nothing sent is trimmed while the bench runs.
  const videoId = await insertVideo(direct, uploader, 3 * 3600_000);
  // The fixture's upload record is born expired; a starting server cleans expired uploads, and
  // would refuse to start over this one (its media is in use): give it a day.
  await handle.db
    .updateTable('uploads')
    .set({ expires_at: new Date(Date.now() + 86_400_000) })
    .execute();
  const senders = await Promise.all(
    Array.from({ length: SENDERS }, (_, i) => member(direct, `s${i}x${randomBytes(3).toString('hex')}`)),
  );
  const servers: ServerProcess[] = [];
  for (let i = 0; i < processCount; i++)
    servers.push(
      await startServerProcess(FIRST_PORT + i, { DATABASE_URL: databaseUrl, WORKER: '0', LOG_LEVEL: 'error' }),
    );
  const ports = servers.map((s) => s.port);
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const onDanmaku = (seq: number, at: number) => {
    const started = sentAt.get(seq);
    if (started !== undefined) latencies.push(at - started);
  };
  const viewers: Viewer[] = [];
  for (let i = 0; i < VIEWERS; i += 50) {
    viewers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, VIEWERS - i) }, (_, j) =>
          openViewer(ports[(i + j) % ports.length], videoId, agent, onDanmaku),
        ),
      )),
    );
  }
  // Settle: every viewer connected and counted before sending starts.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = servers.map((s) => sample(s.child.pid!));
  const peaks = before.map((b) => b.rss);
  const sampler = setInterval(
    () =>
      servers.forEach((s, i) => {
        peaks[i] = Math.max(peaks[i], sample(s.child.pid!).rss);
      }),
    500,
  );

  let sent = 0;
  let sendErrors = 0;
  const sends: Promise<void>[] = [];
  const started = performance.now();
  for (let seq = 0; seq < RATE * SECONDS; seq++) {
    // Paced on the clock (not on answers): a slow answer does not slow the load.
    const due = started + (seq * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sentAt.set(seq, performance.now());
    sends.push(
      fetch(`http://127.0.0.1:${ports[seq % ports.length]}/api/video/danmaku/emit`, {
        method: 'POST',
        headers: { Cookie: senders[seq % senders.length], 'Content-Type': 'application/json' },
        body: JSON.stringify({ videoId, time: (seq / RATE) % 3600, text: `bench ${seq}`, color: 'ffffff' }),
      }).then(
        async (res) => {
          if (res.ok) sent += 1;
          else {
            sendErrors += 1;
            sentAt.delete(seq);
            console.error(`send ${seq}: ${res.status} ${await res.text()}`);
          }
        },
        () => {
          sendErrors += 1;
          sentAt.delete(seq);
        },
      ),
    );
  }
  await Promise.all(sends);
  // Deliveries still in flight: wait until none arrives for two seconds.
  for (let last = -1; last !== latencies.length; ) {
    last = latencies.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  clearInterval(sampler);
  const elapsed = (performance.now() - started) / 1000;
  const after = servers.map((s) => sample(s.child.pid!));
  const load = loadavg();
  viewers.forEach((v) => v.close());
  agent.destroy();
  await Promise.all(servers.map((s) => s.stop('SIGTERM')));

  const connected = viewers.filter((v) => !v.closedEarly).length;
  const sorted = Float64Array.from(latencies).sort();
  const deliveries = viewers.filter((v) => !v.closedEarly).reduce((sum, v) => sum + v.received, 0);
  return {
    processes: processCount,
    viewers: VIEWERS,
    sent,
    sendErrors,
    deliveries,
    expected: sent * connected,
    deliveredRatio: Number((deliveries / Math.max(1, sent * connected)).toFixed(4)),
    viewersDropped: VIEWERS - connected,
    p50Ms: Math.round(percentile(sorted, 0.5)),
    p99Ms: Math.round(percentile(sorted, 0.99)),
    maxMs: Math.round(sorted[sorted.length - 1] ?? NaN),
    servers: servers.map((_, i) => ({
      cpuPercentOfOneCore: Math.round(((after[i].ticks - before[i].ticks) / TICKS_PER_SECOND / elapsed) * 100),
      maxRssMiB: Math.round(peaks[i] / 1024 / 1024),
      rssBeforeMiB: Math.round(before[i].rss / 1024 / 1024),
    })),
    loadAverage: load.map((l) => Number(l.toFixed(2))),
  };
}

const database = await freshPostgresDatabase();
const handle = await openDatabase({ databaseUrl: database.url });
try {
  // The first process migrates the database; a short start so both scenarios find it ready.
  const migrate = await startServerProcess(FIRST_PORT, { DATABASE_URL: database.url, WORKER: '0', LOG_LEVEL: 'error' });
  await migrate.stop('SIGTERM');
  const loadBefore = loadavg().map((l) => Number(l.toFixed(2)));
  const several = await scenario(PROCESSES, database.url, handle);
  console.log(JSON.stringify(several));
  const baseline = await scenario(1, database.url, handle);
  console.log(JSON.stringify(baseline));
  const result = {
    bench: 'live-danmaku',
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 1024 ** 3),
      platform: `${platform()} ${release()}`,
      node: process.version,
    },
    loadAverageBefore: loadBefore,
    settings: { viewers: VIEWERS, ratePerSecond: RATE, seconds: SECONDS },
    goal: { p99Ms: GOAL_P99_MS, deliveredRatio: 1 },
    several,
    baseline,
    ratioP99BaselineOverSeveral: Number((baseline.p99Ms / several.p99Ms).toFixed(2)),
    meetsGoal: several.p99Ms < GOAL_P99_MS && several.deliveredRatio === 1,
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  // The issue's setting is live-danmaku.json; others are kept beside it, named by their setting.
  const isIssueSetting = VIEWERS === 1000 && RATE === 50 && SECONDS === 30 && PROCESSES === 2;
  const file = isIssueSetting
    ? 'live-danmaku.json'
    : `live-danmaku-${VIEWERS}v-${RATE}ps-${SECONDS}s-${PROCESSES}p.json`;
  writeFileSync(join('bench', 'results', file), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await handle.close();
  await database.drop();
}
