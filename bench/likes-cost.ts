/**
 * DIAGNOSTIC: what a like costs (server thread CPU, PostgreSQL backends' CPU, client CPU) block
 * by block from a freshly started server, closed loop at low concurrency so the machine's load
 * moves the figures as little as it can. Usage: TEST_DATABASE_URL=… node bench/likes-cost.ts [blocks] [perBlock] [concurrency] [warmup]
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
import { insertMembersWithSessions, insertPlainVideo, insertUploader } from './fixtures.ts';
import pg from 'pg';

const BLOCKS = Number(process.argv[2]) || 12;
const PER = Number(process.argv[3]) || 250;
const CONC = Number(process.argv[4]) || 4;
const WARMUP = process.argv[5] === undefined ? 300 : Number(process.argv[5]);
const TOTAL = BLOCKS * PER + WARMUP;
const { startTestServer } = await import('../tests/api/harness.ts');
const server = await startTestServer('postgres');
const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();
try {
  const { db } = server;
  const dbName = (
    await db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('n')).executeTakeFirstOrThrow()
  ).n;
  const cookies = await insertMembersWithSessions(db, TOTAL);
  const uploader = await insertUploader(db);
  const videoId = await insertPlainVideo(db, uploader, 'hot');
  const warmVideoId = await insertPlainVideo(db, uploader, 'warm');
  const url = `${server.baseUrl}/api/video/like`;
  const backendsCpu = async () => {
    const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
      dbName,
    ]);
    let ticks = 0;
    for (const { pid } of rows) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(f[11]) + Number(f[12]);
      } catch {
        /* gone */
      }
    }
    return { ms: ticks * 10, n: rows.length };
  };
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const http = require('node:http');
    const { url, cookies, conc } = workerData;
    // node:http on kept connections, as bench/likes.ts (fetch cost this thread half what the server spent).
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port, pathname } = new URL(url);
    const like = (cookie, videoId) => new Promise((resolve, reject) => {
      const body = JSON.stringify({ videoId });
      const req = http.request({ agent, hostname, port, path: pathname, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Cookie: cookie } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(res.statusCode))));
      });
      req.on('error', reject);
      req.end(body);
    });
    parentPort.on('message', async ({ from, n, videoId, burst }) => {
      const c0 = process.threadCpuUsage(); const t0 = performance.now();
      if (burst) await Promise.all(cookies.slice(from, from + n).map((c) => like(c, videoId).catch(() => {})));
      else { let next = from; await Promise.all(Array.from({ length: conc }, async () => { while (next < from + n) await like(cookies[next++], videoId); })); }
      const c = process.threadCpuUsage(c0);
      parentPort.postMessage({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 });
    });
  `,
    { eval: true, workerData: { url, cookies, conc: CONC } },
  );
  const run = async (from: number, n: number, vid: number, burst = false) => {
    const s0 = process.threadCpuUsage();
    const b0 = await backendsCpu();
    worker.postMessage({ from, n, videoId: vid, burst });
    const r = await new Promise<{ wall: number; cpu: number }>((resolve) => worker.once('message', resolve));
    const s = process.threadCpuUsage(s0);
    const b1 = await backendsCpu();
    return {
      n,
      msPerLike: +(r.wall / n).toFixed(2),
      serverCpu: +((s.user + s.system) / 1000 / n).toFixed(3),
      serverSys: +(s.system / 1000 / n).toFixed(3),
      clientCpu: +(r.cpu / n).toFixed(3),
      pgCpu: +((b1.ms - b0.ms) / n).toFixed(3),
      backends: b1.n,
    };
  };
  console.log(
    'load',
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  );
  if (WARMUP) console.log('warm-up burst', JSON.stringify(await run(0, WARMUP, warmVideoId, true)));
  for (let b = 0; b < BLOCKS; b++) console.log(`block ${b}`, JSON.stringify(await run(WARMUP + b * PER, PER, videoId)));
  console.log(
    'load',
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  );
  await worker.terminate();
} finally {
  await admin.end();
  await server.close();
}
