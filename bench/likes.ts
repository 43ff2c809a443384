/**
 * POST api/video/like on ONE video at a steady 1000 likes/s for 10 s (issue 27), each from a
 * different member, on the real server as the API tests start it (tests/api/harness.ts), on
 * PostgreSQL (TEST_DATABASE_URL; PGlite when unset, which serialises every write anyway).
 * The load is open-loop (requests leave on schedule whether or not earlier ones came back, so a
 * slow server cannot slow the offered rate down) and comes from a worker thread, off the
 * server's event loop. Goals: every like counted (the video's likeCount and the like rows both
 * equal the likes sent, and every liker is in the uploader's one notification entry) and p99
 * latency < 100 ms. Also reported: the statements the server sent per like and its thread's CPU
 * time per like, which the machine's load moves far less than latency. Writes bench/results/likes.json.
 * With `watch`, the same load of views (POST api/video/watch): every view counted in the video's
 * watch count once the write window closed; writes bench/results/views.json.
 * Usage: TEST_DATABASE_URL=postgres://… node bench/likes.ts [rate=1000] [seconds=10] [like|watch]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { cpus, loadavg } from 'node:os';
import { createRepositories } from '../server/repositories/index.ts';
import { createSession } from '../server/auth/sessions.ts';
import { insertApprovedVideo } from './fixtures.ts';
import { LIKE_COUNTER_SHARDS } from '../server/repositories/likes.repository.ts';

const RATE = Number(process.argv[2]) || 1000;
const SECONDS = Number(process.argv[3]) || 10;
/** `watch`: the same load of views (POST api/video/watch, issue 30 item 5) instead of likes. */
const WATCH = process.argv[4] === 'watch';
/** Requests of the same kind on another video before the load (at most the members there are). */
const WARMUP = Math.min(300, RATE * SECONDS);
const TOTAL = RATE * SECONDS;

const { startTestServer } = await import('../tests/api/harness.ts');
const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const loadAtStart = loadavg().map((l) => +l.toFixed(2));
// Statements the server sends during the load, per like: a figure the machine's load does not move.
let statements = 0;
let counting = false;
const server = await startTestServer(backend, { onQuery: () => { if (counting) statements++; } });
try {
  const { db } = server;
  // TOTAL members (a like per member), inserted directly: no password hashing, no mail.
  const users: number[] = [];
  for (let i = 0; i < TOTAL; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, TOTAL - i) }, (_, j) => ({ username: `fan${i + j}`, email: `fan${i + j}@bench.test`, password_hash: null, roles: ['user'] }));
    users.push(...(await db.insertInto('users').values(rows).returning('uid').execute()).map((r) => r.uid));
  }
  const repositories = createRepositories(db);
  const cookies: string[] = [];
  for (const uid of users) cookies.push(`uid=${uid}; token=${await createSession(repositories, uid)}`);
  // The uploader is not among the likers, so every like is one the uploader hears of.
  const uploader = (await db.insertInto('users').values({ username: 'uploader', email: 'uploader@bench.test', password_hash: null, roles: ['user'] }).returning('uid').executeTakeFirstOrThrow()).uid;
  const { videoId } = await insertApprovedVideo(db, uploader, { title: 'a hot video', durationMs: 60_000, width: 640, height: 360, renditions: [360] });
  console.log(`${backend}: ${TOTAL} members ready; ${RATE} likes/s for ${SECONDS} s on video ${videoId} (${LIKE_COUNTER_SHARDS} counter shards)`);

  // Warmed up as a running server is (the pool's connections open, the code compiled) and as the
  // load generator's connections will be: WARMUP requests of the same kind on another video first,
  // from the worker, neither timed nor counted.
  const { videoId: warmVideoId } = await insertApprovedVideo(db, uploader, { title: 'warm-up', durationMs: 60_000, width: 640, height: 360, renditions: [360] });
  const url = `${server.baseUrl}/api/video/${WATCH ? 'watch' : 'like'}`;
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, cookies, rate, videoId, warmVideoId, warmup } = workerData;
    const latencies = []; const lateAt = []; let failed = 0; let sent = 0; const statuses = {};
    let start = 0;
    const one = async (cookie) => {
      const t0 = performance.now();
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify({ videoId }) });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] || 0) + 1;
        if (res.status !== 200) failed++;
      } catch { failed++; }
      latencies.push(performance.now() - t0);
      lateAt.push([t0 - start, performance.now() - t0]);
    };
    const inflight = [];
    const warm = (cookie) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify({ videoId: warmVideoId }) }).then((r) => r.arrayBuffer(), () => {});
    Promise.all(cookies.slice(0, warmup).map(warm)).then(() => parentPort.postMessage('warm'));
    // The load starts when the main thread says so (once it counts).
    parentPort.once('message', () => {
    start = performance.now();
    // Every 10 ms, the requests due by then (open loop).
    const timer = setInterval(() => {
      const due = Math.min(cookies.length, Math.floor((performance.now() - start) / 1000 * rate));
      while (sent < due) inflight.push(one(cookies[sent++]));
      if (sent >= cookies.length) {
        clearInterval(timer);
        Promise.all(inflight).then(() => parentPort.postMessage({ latencies, slowBySecond: lateAt.filter(([, ms]) => ms > 100).reduce((by, [at]) => { const s = Math.floor(at / 1000); by[s] = (by[s] || 0) + 1; return by; }, {}), failed, statuses, seconds: (performance.now() - start) / 1000 }));
      }
    }, 10);
    });
  `, { eval: true, workerData: { url, cookies, rate: RATE, videoId, warmVideoId, warmup: WARMUP } });
  // Messages the server publishes on its event bus (each a NOTIFY on PostgreSQL's bus), per like.
  let published = 0;
  const publish = server.bus.publish.bind(server.bus);
  server.bus.publish = (channel, payload) => {
    if (counting) published++;
    return publish(channel, payload);
  };
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // The warm-up's notification window closes before anything is counted.
  await new Promise((r) => setTimeout(r, 1500));
  counting = true;
  // The server's thread's CPU time per like (the load generator is another thread): what a like
  // costs the server, much less moved by the machine's load than latency is.
  const cpuBefore = process.threadCpuUsage();
  worker.postMessage('go');
  const result = await new Promise<{ latencies: number[]; slowBySecond: Record<string, number>; failed: number; statuses: Record<string, number>; seconds: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  // The uploader's "likes" notification may be written up to a coalescing window after the last like: counted too.
  await new Promise((r) => setTimeout(r, 1500));
  counting = false;
  const cpu = process.threadCpuUsage(cpuBefore);

  const sorted = result.latencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const ok = result.statuses['200'] ?? 0;
  const common = {
    backend, rate: RATE, seconds: SECONDS, sent: TOTAL, answered200: ok, failed: result.failed, statuses: result.statuses, wallSeconds: +result.seconds.toFixed(2),
    // Requests over 100 ms by the second of the load they were sent in: a start-up burst or a steady queue.
    slowBySecond: result.slowBySecond,
    statementsPerRequest: +(statements / TOTAL).toFixed(2), busMessagesPerRequest: +(published / TOTAL).toFixed(2),
    serverCpuMsPerRequest: +((cpu.user + cpu.system) / 1000 / TOTAL).toFixed(3),
    p50ms: +at(0.5).toFixed(1), p95ms: +at(0.95).toFixed(1), p99ms: +at(0.99).toFixed(1), maxms: +sorted[sorted.length - 1].toFixed(1), p99Under100ms: at(0.99) < 100,
    machine: { cpus: cpus().length, loadAtStart },
  };
  let name: string;
  let report: typeof common & Record<string, unknown>;
  if (WATCH) {
    // Every view answered is in the video's watch count (its window written by now) and recorded once.
    const { watched_count: watchedCount } = await db.selectFrom('videos').select('watched_count').where('video_id', '=', videoId).executeTakeFirstOrThrow();
    const viewRows = Number((await db.selectFrom('video_views').select((eb) => eb.fn.countAll<number>().as('n')).where('video_id', '=', videoId).executeTakeFirstOrThrow()).n);
    name = 'views';
    report = { ...common, watchedCount, viewRows, everyViewCounted: watchedCount === ok && viewRows === ok && ok === TOTAL };
  } else {
    const likeCount = (await (await server.api(`video?videoId=${videoId}`)).json()).likeCount;
    const rows = Number((await db.selectFrom('media_likes').select((eb) => eb.fn.countAll<number>().as('n')).where('target_id', '=', videoId).executeTakeFirstOrThrow()).n);
    // Every liker is one of the uploader's notification's actors (one entry for the item and day).
    const notification = await db.selectFrom('notifications').select(['actor_count']).where('recipient_uid', '=', uploader).where('kind', '=', 'like').where('target_id', '=', videoId).executeTakeFirst();
    name = 'likes';
    report = {
      ...common, likeCount, likeRows: rows, notificationActors: notification?.actor_count ?? 0,
      everyLikeCounted: likeCount === ok && rows === ok && ok === TOTAL, everyLikerNotified: (notification?.actor_count ?? 0) === ok,
    };
  }
  console.log(JSON.stringify(report, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify({ date: new Date().toISOString(), ...report, machine: { ...report.machine, loadAtEnd: loadavg().map((l) => +l.toFixed(2)) } }, null, 2)}\n`);
} finally {
  await server.close();
}
