/**
 * Our job queue (server/jobs/queue.ts) against pg-boss 12 on the workload of issue 15, same run,
 * same PostgreSQL: 1000 transcode-like jobs (each holds its job WORK_MS), 10 % failing their first
 * attempt and 1 % failing every attempt, two worker processes working one job at a time, and
 * one of them killed (SIGKILL) mid-job once KILL_AFTER jobs are complete.
 * Measured for each: how many jobs end completed (exactly once each, by the queue's own state),
 * how many end failed and after how many attempts, how many times a completion's side effect
 * ran more than once, the throughput (completed jobs per second), and how the job the killed
 * worker held came back.
 * The retry delays differ by design (ours: 1, 2, 4, 8 min; pg-boss: as configured), so both are
 * compressed to zero for the bench: pg-boss with retryDelay 0, ours by moving run_after of
 * queued jobs to now as soon as they are set later (the bench's only hand in our queue).
 * Usage: node bench/job-queue.ts [DATABASE_URL] (default postgres://postgres@127.0.0.1:5432/test)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const adminUrl = process.argv[2] || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
process.env.TEST_DATABASE_URL = adminUrl;
const JOBS = 1000;
const KILL_AFTER = 300;
const MAX_ATTEMPTS = 5;
const workOf = (key: number) => ({ key, failFirst: key % 10 === 3, failAlways: key % 100 === 7 });
const EXPECTED_FAILED = Array.from({ length: JOBS }, (_, k) => workOf(k)).filter((w) => w.failAlways).length;

const { freshPostgresDatabase } = await import('../tests/api/harness.ts');

function startWorker(queue: string, name: string, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bench/job-queue-worker.ts', queue, name, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line === 'ready' && resolve(child));
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}`)));
  });
}

interface Settled {
  completed: number;
  failed: number;
  failedAttempts: number[];
  other: number;
}
interface Result {
  queue: string;
  seconds: number;
  jobsPerSecond: number;
  completed: number;
  failed: number;
  failedAfterAttempts: number[];
  completedTwiceByQueue: number;
  sideEffectRepeats: number;
  killedMidJob: boolean;
  orphanRecoveredSeconds: number | null;
  note: string;
}

type Queue = 'ours' | 'pgboss' | 'pgboss-burst';
async function run(queue: Queue): Promise<Result> {
  const database = await freshPostgresDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      'CREATE TABLE bench_runs (id bigserial PRIMARY KEY, job_key int NOT NULL, worker text NOT NULL, attempt int NOT NULL, outcome text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())',
    );
    let settled: () => Promise<Settled>;
    let fastForward = async () => {};
    let boss: import('pg-boss').PgBoss | undefined;
    if (queue === 'ours') {
      const { openDatabase, migrateToLatest } = await import('../server/db/database.ts');
      const opened = await openDatabase({ databaseUrl: database.url });
      await migrateToLatest(opened.db);
      await opened.close();
      await client.query(
        `INSERT INTO jobs (kind, payload) SELECT 'bench.work', jsonb_build_object('key', k, 'failFirst', k % 10 = 3, 'failAlways', k % 100 = 7) FROM generate_series(0, ${JOBS - 1}) k`,
      );
      fastForward = async () =>
        void (await client.query(`UPDATE jobs SET run_after = now() WHERE status = 'queued' AND run_after > now()`));
      settled = async () => {
        const { rows } = await client.query(`SELECT status, attempts FROM jobs`);
        return {
          completed: rows.filter((r) => r.status === 'done').length,
          failed: rows.filter((r) => r.status === 'failed').length,
          failedAttempts: rows.filter((r) => r.status === 'failed').map((r) => r.attempts),
          other: rows.filter((r) => r.status !== 'done' && r.status !== 'failed').length,
        };
      };
    } else {
      const { PgBoss } = await import('pg-boss');
      boss = new PgBoss({ connectionString: database.url, supervise: false });
      await boss.start();
      // Heartbeats every 2 s, 10 s without one (pg-boss's minimum) and the job is retried.
      await boss.createQueue('bench.work', {
        retryLimit: MAX_ATTEMPTS - 1,
        retryDelay: 0,
        heartbeatSeconds: 10,
        notify: true,
      });
      for (let k = 0; k < JOBS; k += 250)
        await boss.insert(
          'bench.work',
          Array.from({ length: Math.min(250, JOBS - k) }, (_, i) => ({ data: workOf(k + i) })),
        );
      settled = async () => {
        const { rows } = await client.query(`SELECT state, retry_count FROM pgboss.job WHERE name = 'bench.work'`);
        return {
          completed: rows.filter((r) => r.state === 'completed').length,
          failed: rows.filter((r) => r.state === 'failed').length,
          failedAttempts: rows.filter((r) => r.state === 'failed').map((r) => r.retry_count + 1),
          other: rows.filter((r) => r.state !== 'completed' && r.state !== 'failed').length,
        };
      };
    }

    const started = performance.now();
    const workers = await Promise.all([
      startWorker(queue, 'worker1', database.url),
      startWorker(queue, 'worker2', database.url),
    ]);
    let killedAt = 0;
    let orphanKey: number | null = null;
    let orphanRecoveredSeconds: number | null = null;
    let killedMidJob = false;
    let note = '';
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      await fastForward();
      const state = await settled();
      if (!killedAt && state.completed >= KILL_AFTER) {
        workers[0].kill('SIGKILL');
        killedAt = performance.now();
        // The job worker1 was inside when it died: started by it, never finished by it.
        const { rows } =
          await client.query(`SELECT job_key FROM bench_runs s WHERE worker = 'worker1' AND outcome = 'started'
          AND NOT EXISTS (SELECT 1 FROM bench_runs c WHERE c.job_key = s.job_key AND c.worker = 'worker1' AND c.attempt = s.attempt AND c.outcome = 'completed')
          ORDER BY id DESC LIMIT 1`);
        orphanKey = rows[0]?.job_key ?? null;
        killedMidJob = orphanKey !== null;
        if (queue === 'ours') {
          // Our lease (JOB_LEASE_MS, 10 min) is what brings a dead worker's job back; waited for here it would be the run.
          await client.query(
            `UPDATE jobs SET locked_until = now() WHERE status = 'running' AND (payload->>'key')::int = $1`,
            [orphanKey],
          );
          note =
            'ours: the killed worker’s job comes back when its 10-minute lease ends; the bench ended the lease at once (so its recovery time is not comparable)';
        } else {
          note =
            'pg-boss: the killed worker’s job comes back when its heartbeat is 10 s late (its minimum), found by the supervisor of the surviving worker';
        }
      }
      if (orphanKey !== null && orphanRecoveredSeconds === null) {
        const { rows } = await client.query(
          `SELECT 1 FROM bench_runs WHERE job_key = $1 AND worker = 'worker2' AND outcome IN ('completed', 'started') LIMIT 1`,
          [orphanKey],
        );
        if (rows.length) orphanRecoveredSeconds = +((performance.now() - killedAt) / 1000).toFixed(1);
      }
      if (killedAt && state.other === 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `${queue}: not settled in 10 minutes (${JSON.stringify({ ...state, failedAttempts: undefined })})`,
        );
      await sleep(100);
    }
    const seconds = (performance.now() - started) / 1000;
    workers[1].kill('SIGTERM');
    await new Promise((resolve) => workers[1].once('exit', resolve));
    const final = await settled();
    const { rows: repeats } = await client.query(
      `SELECT count(*) - count(DISTINCT job_key) AS n FROM bench_runs WHERE outcome = 'completed'`,
    );
    const { rows: twice } =
      queue === 'ours'
        ? { rows: [{ n: 0 }] } // one row per job: done is a state it enters once
        : await client.query(
            `SELECT count(*) AS n FROM (SELECT data->>'key' FROM pgboss.job WHERE name = 'bench.work' AND state = 'completed' GROUP BY 1 HAVING count(*) > 1) d`,
          );
    await boss?.stop({ graceful: false });
    return {
      queue,
      seconds: +seconds.toFixed(1),
      jobsPerSecond: +(final.completed / seconds).toFixed(1),
      completed: final.completed,
      failed: final.failed,
      failedAfterAttempts: [...new Set(final.failedAttempts)],
      completedTwiceByQueue: Number(twice[0].n),
      sideEffectRepeats: Number(repeats[0].n),
      killedMidJob,
      orphanRecoveredSeconds,
      note,
    };
  } finally {
    await client.end();
    await database.drop();
  }
}

const loadBefore = loadavg().map((l) => +l.toFixed(2));
const results: Result[] = [];
const queues = (process.env.BENCH_QUEUES?.split(',') ?? ['ours', 'pgboss', 'pgboss-burst']) as Queue[];
for (const queue of queues) {
  const result = await run(queue);
  results.push(result);
  console.log(JSON.stringify(result));
}
const report = {
  date: new Date().toISOString(),
  cores: cpus().length,
  loadBefore,
  loadAfter: loadavg().map((l) => +l.toFixed(2)),
  workload: {
    jobs: JOBS,
    workMs: 20,
    failFirstAttempt: '10 %',
    failAlways: `${EXPECTED_FAILED} jobs`,
    workers: 2,
    killedAfterCompleted: KILL_AFTER,
    maxAttempts: MAX_ATTEMPTS,
  },
  results,
  throughputOverOurs: Object.fromEntries(
    results.slice(1).map((r) => [r.queue, +(r.jobsPerSecond / results[0].jobsPerSecond).toFixed(2)]),
  ),
};
mkdirSync(join('bench', 'results'), { recursive: true });
writeFileSync(join('bench', 'results', 'job-queue.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(
  `throughput over ours: ${JSON.stringify(report.throughputOverOurs)} (cores ${report.cores}, load ${loadBefore.join(' ')} -> ${report.loadAfter.join(' ')})`,
);
