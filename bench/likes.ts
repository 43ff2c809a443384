/**
 * POST api/video/like on ONE video at a steady 1000 likes/s for 10 s (issue 27), each from a
 * different member, on the real server as the API tests start it (tests/api/harness.ts), on
 * PostgreSQL (TEST_DATABASE_URL; PGlite when unset, which serialises every write anyway).
 * The server is first brought to what a running site is: `warmSeconds` (3) of the same load, from
 * the same code in the worker, on another video by other members, neither timed nor counted. A
 * server that has just started runs its handlers unoptimised for its first few thousand requests
 * (V8 compiles them as they get hot, on the same two cores): 300 requests were not enough, and the
 * first second of the load paid for the rest (bench/README.md, "likes"). `warmSeconds=0` measures
 * that cold start.
 * The load is open-loop (requests leave on schedule whether or not earlier ones came back, so a
 * slow server cannot slow the offered rate down) and comes from a worker thread, off the
 * server's event loop. Goals: every like counted (the video's likeCount and the like rows both
 * equal the likes sent, and every liker is in the uploader's one notification entry) and p99
 * latency < 100 ms. Also reported, per like answered: the statements the server sent, its thread's
 * CPU time, the load generator's and PostgreSQL's backends' (the three sides share two cores),
 * which the machine's load moves far less than latency; and the error code of every refusal. Writes bench/results/likes.json.
 * With `watch`, the same load of views (POST api/video/watch): every view counted in the video's
 * watch count once the write window closed; writes bench/results/views.json.
 * Also written: `firstSeconds`, latency per 100 ms of the load's first 3 s by when each request
 * was sent (count, p50, p99, max), to see a start-up burst.
 * Usage: TEST_DATABASE_URL=postgres://… node bench/likes.ts [rate=1000] [seconds=10] [like|watch] [warmSeconds=3]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { Worker } from 'node:worker_threads';
import { cpus, loadavg } from 'node:os';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { insertMembersWithSessions, insertPlainVideo, insertUploader } from './fixtures.ts';
import { LIKE_COUNTER_SHARDS } from '../server/repositories/likes.repository.ts';

const RATE = Number(process.argv[2]) || 1000;
const SECONDS = Number(process.argv[3]) || 10;
/** `watch`: the same load of views (POST api/video/watch, issue 30 item 5) instead of likes. */
const WATCH = process.argv[4] === 'watch';
/** Seconds of the same load on another video before the load (0: a server that has just started). */
const WARM_SECONDS = process.argv[5] === undefined ? 3 : Number(process.argv[5]);
const WARMUP = Math.round(RATE * WARM_SECONDS);
const TOTAL = RATE * SECONDS;

const { startTestServer } = await import('../tests/api/harness.ts');
const backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const loadAtStart = loadavg().map((l) => +l.toFixed(2));
// Statements the server sends during the load, per like: a figure the machine's load does not move.
let statements = 0;
let counting = false;
// The hot path's batched statements as they return (wall clock, kind, ms on their connection, batch
// size): the timeline puts each second's batches and statement times beside its latencies.
const batches: [number, 'like' | 'session', number, number][] = [];
// The pool as a site's (its ten connections opened at start and kept), not a test server's two.
// Answers are not checked against their schemas, as in production (the tests check them).
const server = await startTestServer(backend, {
  env: { DATABASE_POOL_KEPT: '10', API_CHECK_RESPONSES: '0' },
  onQuery: (query, ms) => {
    if (!counting) return;
    statements++;
    const kind = query.sql.includes('INSERT INTO media_likes')
      ? 'like'
      : query.sql.includes('JOIN sessions')
        ? 'session'
        : null;
    const members = query.parameters[0];
    if (kind) batches.push([Date.now(), kind, ms, Array.isArray(members) ? members.length : 1]);
  },
});
try {
  const { db } = server;
  // A member per like, the warm-up's and the load's apart (the load's members' sessions are read
  // by the load, not kept from the warm-up).
  const cookies = await insertMembersWithSessions(db, WARMUP + TOTAL);
  // The uploader is not among the likers, so every like is one the uploader hears of.
  const uploader = await insertUploader(db);
  const videoId = await insertPlainVideo(db, uploader, 'a hot video');
  console.log(
    `${backend}: ${TOTAL} members ready; ${RATE} likes/s for ${SECONDS} s on video ${videoId} (${LIKE_COUNTER_SHARDS} counter shards)`,
  );

  // Warmed up as a running server is (the pool's connections open, the code compiled) and as the
  // load generator's connections will be: WARM_SECONDS of the same load on another video first,
  // from the same code in the worker, neither timed nor counted.
  const warmVideoId = await insertPlainVideo(db, uploader, 'warm-up');
  const url = `${server.baseUrl}/api/video/${WATCH ? 'watch' : 'like'}`;
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const http = require('node:http');
    const { url, cookies, rate } = workerData;
    // node:http on kept connections rather than fetch: fetch cost this thread 0.4-0.6 ms a like,
    // half what the server spends on it, on the same two cores; the bench was measuring itself.
    const agent = new http.Agent({ keepAlive: true });
    const { hostname, port, pathname } = new URL(url);
    const post = (cookie, body) => new Promise((resolve, reject) => {
      const req = http.request({ agent, hostname, port, path: pathname, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Cookie: cookie } }, (res) => {
        // A refusal's body is kept: its error code says why (errorCodes in the report).
        let text = '';
        res.on('data', (chunk) => { if (res.statusCode !== 200) text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    // One phase: cookies[from, from + count) like videoId, the i-th sent i / rate s after the start
    // (open loop: every 10 ms, the requests due by then, whether or not earlier ones came back).
    const phase = ({ videoId, from, count }) => new Promise((done) => {
      const latencies = []; const lateAt = []; let failed = 0; let sent = 0; const statuses = {}; const errorCodes = {};
      const start = performance.now();
      const cpu0 = process.threadCpuUsage();
      const body = JSON.stringify({ videoId });
      const one = async (cookie) => {
        const t0 = performance.now();
        try {
          const { status, text } = await post(cookie, body);
          statuses[status] = (statuses[status] || 0) + 1;
          if (status !== 200) {
            failed++;
            let code = 'unreadable';
            try { code = JSON.parse(text).code ?? code; } catch {}
            errorCodes[status + ' ' + code] = (errorCodes[status + ' ' + code] || 0) + 1;
          }
        } catch (error) {
          failed++;
          errorCodes['client ' + (error.code || error.message)] = (errorCodes['client ' + (error.code || error.message)] || 0) + 1;
        }
        latencies.push(performance.now() - t0);
        lateAt.push([t0 - start, performance.now() - t0]);
      };
      const inflight = [];
      const timer = setInterval(() => {
        const due = Math.min(count, Math.floor((performance.now() - start) / 1000 * rate));
        while (sent < due) inflight.push(one(cookies[from + sent++]));
        if (sent >= count) {
          clearInterval(timer);
          Promise.all(inflight).then(() => { const cpu = process.threadCpuUsage(cpu0); done({ latencies, lateAt, failed, statuses, errorCodes, seconds: (performance.now() - start) / 1000, cpuMs: (cpu.user + cpu.system) / 1000, startEpoch: performance.timeOrigin + start }); });
        }
      }, 10);
    });
    parentPort.on('message', (job) => phase(job).then((result) => parentPort.postMessage(result)));
  `,
    { eval: true, workerData: { url, cookies, rate: RATE } },
  );
  const runPhase = (job: { videoId: number; from: number; count: number }) => {
    worker.postMessage(job);
    return new Promise<{
      latencies: number[];
      lateAt: [number, number][];
      failed: number;
      statuses: Record<string, number>;
      errorCodes: Record<string, number>;
      seconds: number;
      cpuMs: number;
      startEpoch: number;
    }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  };
  if (WARMUP) await runPhase({ videoId: warmVideoId, from: 0, count: WARMUP });
  // The CPU time of the database's backends (this machine's PostgreSQL, read from /proc): the
  // third side of a like, on the same cores as the server and the load generator.
  const backendsCpuMs = async () => {
    const { rows } = await sql<{
      pid: number;
    }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(db);
    let ticks = 0;
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        /* ended, or PostgreSQL on another machine */
      }
    }
    return ticks * (1000 / 100);
  };
  // Messages the server publishes on its event bus (each a NOTIFY on PostgreSQL's bus), per like.
  let published = 0;
  const publish = server.bus.publish.bind(server.bus);
  server.bus.publish = (channel, payload) => {
    if (counting) published++;
    return publish(channel, payload);
  };
  // The warm-up's notification window closes before anything is counted.
  await new Promise((r) => setTimeout(r, 1500));
  // The server thread's event loop delay (max per 100 ms) and GC pauses during the load, by
  // wall clock: the per-second timeline puts them beside the latencies of the requests sent then.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  const loopMax: [number, number][] = [];
  const gcPauses: [number, number, number][] = [];
  const gcObserver = new PerformanceObserver((list) => {
    // Scavenges are short; a mark-compact (kind 4: major) would be the stop-the-world one.
    for (const entry of list.getEntries())
      gcPauses.push([
        performance.timeOrigin + entry.startTime,
        entry.duration,
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MAJOR
          ? 1
          : 0,
      ]);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  loopDelay.enable();
  const loopSampler = setInterval(() => {
    loopMax.push([Date.now(), loopDelay.max / 1e6]);
    loopDelay.reset();
  }, 100);
  counting = true;
  // The server's thread's CPU time per like (the load generator is another thread): what a like
  // costs the server, much less moved by the machine's load than latency is.
  const cpuBefore = process.threadCpuUsage();
  const backendsBefore = await backendsCpuMs();
  // WAL flushes to disk (fsyncs) of the whole PostgreSQL server, other databases' included: a
  // commit that waits for its WAL causes one (shared by the commits flushed together).
  const walSyncs = async () =>
    backend === 'postgres'
      ? Number((await sql<{ n: string }>`SELECT wal_sync AS n FROM pg_stat_wal`.execute(db)).rows[0].n)
      : 0;
  const walSyncsBefore = await walSyncs();
  const result = await runPhase({ videoId, from: WARMUP, count: TOTAL });
  await worker.terminate();
  clearInterval(loopSampler);
  loopDelay.disable();
  gcObserver.disconnect();
  // The uploader's "likes" notification may be written up to a coalescing window after the last like: counted too.
  await new Promise((r) => setTimeout(r, 1500));
  counting = false;
  const cpu = process.threadCpuUsage(cpuBefore);
  const backendsMs = (await backendsCpuMs()) - backendsBefore;
  const walSyncsDuring = (await walSyncs()) - walSyncsBefore;

  const quantile = (values: number[], q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
  const sorted = result.latencies.sort((a, b) => a - b);
  const at = (q: number) => quantile(sorted, q);
  // Requests over 100 ms by the second of the load they were sent in: a start-up burst or a steady queue.
  const slowBySecond: Record<string, number> = {};
  for (const [sentAt, ms] of result.lateAt)
    if (ms > 100) slowBySecond[Math.floor(sentAt / 1000)] = (slowBySecond[Math.floor(sentAt / 1000)] ?? 0) + 1;
  // The first 3 s by 100 ms of sending: the requests sent then and their latencies.
  const firstSeconds: Record<string, string> = {};
  for (let b = 0; b < 30; b++) {
    const ms = result.lateAt
      .filter(([sentAt]) => Math.floor(sentAt / 100) === b)
      .map(([, l]) => l)
      .sort((x, y) => x - y);
    firstSeconds[`${b * 100} ms`] = ms.length
      ? `${ms.length} sent, p50 ${quantile(ms, 0.5).toFixed(1)}, p99 ${quantile(ms, 0.99).toFixed(1)}, max ${ms[ms.length - 1].toFixed(1)} ms`
      : 'none sent';
  }
  // Every second of the load: the requests sent in it (count, p50, p99, max, over 100 ms), and the
  // server thread's worst event loop delay and GC pauses in that wall-clock second.
  const timeline: Record<string, string> = {};
  const lastSent = Math.max(0, ...result.lateAt.map(([sentAt]) => sentAt));
  for (let second = 0; second <= Math.floor(lastSent / 1000); second++) {
    const ms = result.lateAt
      .filter(([sentAt]) => Math.floor(sentAt / 1000) === second)
      .map(([, l]) => l)
      .sort((x, y) => x - y);
    const from = result.startEpoch + second * 1000;
    const inSecond = ([at]: readonly [number, ...unknown[]]) => at >= from && at < from + 1000;
    const loop = Math.max(0, ...loopMax.filter(inSecond).map(([, max]) => max));
    const gc = gcPauses.filter(inSecond).map(([, d]) => d);
    const majors = gcPauses.filter((p) => inSecond(p) && p[2]).length;
    // The batches that returned in that second: how many, their mean size, their mean and worst time.
    const batchesOf = (kind: 'like' | 'session') => {
      const of = batches.filter((b) => b[1] === kind && inSecond(b));
      const sum = (i: 2 | 3) => of.reduce((a, b) => a + b[i], 0);
      return of.length
        ? `${of.length} ${kind} batches of ${(sum(3) / of.length).toFixed(1)} (max ${Math.max(...of.map((b) => b[3]))}), ${(sum(2) / of.length).toFixed(2)} ms (max ${Math.max(...of.map((b) => b[2])).toFixed(1)})`
        : `no ${kind} batch`;
    };
    timeline[`${second} s`] = ms.length
      ? `${ms.length} sent, p50 ${quantile(ms, 0.5).toFixed(1)}, p99 ${quantile(ms, 0.99).toFixed(1)}, max ${ms[ms.length - 1].toFixed(1)} ms, ${ms.filter((l) => l > 100).length} over 100 ms; server loop delay max ${loop.toFixed(1)} ms, GC ${gc.length} pauses (${majors} major) ${gc.reduce((a, b) => a + b, 0).toFixed(1)} ms (max ${Math.max(0, ...gc).toFixed(1)}); ${batchesOf('like')}; ${batchesOf('session')}`
      : 'none sent';
  }
  const ok = result.statuses['200'] ?? 0;
  const per = Math.max(1, ok);
  const common = {
    backend,
    rate: RATE,
    seconds: SECONDS,
    warmSeconds: WARM_SECONDS,
    sent: TOTAL,
    answered200: ok,
    failed: result.failed,
    statuses: result.statuses,
    errorCodes: result.errorCodes,
    wallSeconds: +result.seconds.toFixed(2),
    slowBySecond,
    // Per like answered: a saturated run refuses some (503, reset), which cost far less than a like.
    statementsPerRequest: +(statements / per).toFixed(2),
    busMessagesPerRequest: +(published / per).toFixed(2),
    serverCpuMsPerRequest: +((cpu.user + cpu.system) / 1000 / per).toFixed(3),
    loadGeneratorCpuMsPerRequest: +(result.cpuMs / per).toFixed(3),
    postgresCpuMsPerRequest: +(backendsMs / per).toFixed(3),
    walSyncsPerRequest: +(walSyncsDuring / per).toFixed(3),
    p50ms: +at(0.5).toFixed(1),
    p95ms: +at(0.95).toFixed(1),
    p99ms: +at(0.99).toFixed(1),
    maxms: +sorted[sorted.length - 1].toFixed(1),
    p99Under100ms: at(0.99) < 100,
    machine: { cpus: cpus().length, loadAtStart },
    loadStartedAt: new Date(result.startEpoch).toISOString(),
    timeline,
    firstSeconds,
  };
  let name: string;
  let report: typeof common & Record<string, unknown>;
  if (WATCH) {
    // Every view answered is in the video's watch count (its window written by now) and recorded once.
    const { watched_count: watchedCount } = await db
      .selectFrom('videos')
      .select('watched_count')
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    const viewRows = Number(
      (
        await db
          .selectFrom('video_views')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('video_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    name = 'views';
    report = {
      ...common,
      watchedCount,
      viewRows,
      everyViewCounted: watchedCount === ok && viewRows === ok && ok === TOTAL,
    };
  } else {
    const likeCount = (await (await server.api(`video?videoId=${videoId}`)).json()).likeCount;
    const rows = Number(
      (
        await db
          .selectFrom('media_likes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('target_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    // Every liker is one of the uploader's notification's actors (one entry for the item and day).
    const notification = await db
      .selectFrom('notifications')
      .select(['actor_count'])
      .where('recipient_uid', '=', uploader)
      .where('kind', '=', 'like')
      .where('target_id', '=', videoId)
      .executeTakeFirst();
    name = 'likes';
    report = {
      ...common,
      likeCount,
      likeRows: rows,
      notificationActors: notification?.actor_count ?? 0,
      everyLikeCounted: likeCount === ok && rows === ok && ok === TOTAL,
      everyLikerNotified: (notification?.actor_count ?? 0) === ok,
    };
  }
  // What the load left in the tables it wrote (updates made HOT, dead rows, pages): a counter
  // row updated a thousand times a second leaves a version each time until it is pruned.
  if (backend === 'postgres') {
    const { rows: tables } = await sql<{
      relname: string;
      n_tup_ins: number;
      n_tup_upd: number;
      n_tup_hot_upd: number;
      n_dead_tup: number;
      heap_pages: number;
      index_pages: number;
      autovacuums: number;
      autoanalyzes: number;
    }>`SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup,
        pg_relation_size(relid) / 8192 AS heap_pages, pg_indexes_size(relid) / 8192 AS index_pages,
        autovacuum_count AS autovacuums, autoanalyze_count AS autoanalyzes
      FROM pg_stat_user_tables WHERE relname IN ('like_counter_shards', 'media_likes', 'sessions', 'notifications')
      ORDER BY relname`.execute(db);
    report.tables = Object.fromEntries(tables.map(({ relname, ...rest }) => [relname, rest]));
  }
  console.log(JSON.stringify(report, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    `bench/results/${name}.json`,
    `${JSON.stringify({ date: new Date().toISOString(), ...report, machine: { ...report.machine, loadAtEnd: loadavg().map((l) => +l.toFixed(2)) } }, null, 2)}\n`,
  );
} finally {
  await server.close();
}
