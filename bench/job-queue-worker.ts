/**
 * One worker process of bench/job-queue.ts: works `bench.work` jobs one at a time, on our queue
 * (server/jobs/queue.ts) or on pg-boss, until killed or told to stop (SIGTERM). Each attempt
 * sleeps WORK_MS (a transcode holds its job for a while), then fails when the job says so, or
 * records its completion in bench_runs: the side effect whose repeats the bench counts.
 * pgboss-burst: pg-boss fetching again at once while jobs are waiting (burstWhenReadyExceeds),
 * instead of every pollingIntervalSeconds (its minimum, 0.5 s, after each job of a batch of one).
 * Usage: node bench/job-queue-worker.ts ours|pgboss|pgboss-burst NAME DATABASE_URL
 */
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';

const [queue, name, databaseUrl] = process.argv.slice(2);
const WORK_MS = 20;
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

interface Work {
  key: number;
  failFirst: boolean;
  failAlways: boolean;
}
async function work(data: Work, attempt: number) {
  await pool.query('INSERT INTO bench_runs (job_key, worker, attempt, outcome) VALUES ($1, $2, $3, $4)', [
    data.key,
    name,
    attempt,
    'started',
  ]);
  await sleep(WORK_MS);
  if (data.failAlways || (data.failFirst && attempt === 1))
    throw new Error(`job ${data.key} failed on attempt ${attempt}`);
  await pool.query('INSERT INTO bench_runs (job_key, worker, attempt, outcome) VALUES ($1, $2, $3, $4)', [
    data.key,
    name,
    attempt,
    'completed',
  ]);
}

let stop: () => Promise<void>;
if (queue === 'ours') {
  const { openDatabase } = await import('../server/db/database.ts');
  const { startJobWorker } = await import('../server/jobs/queue.ts');
  const { createLogger } = await import('../server/logger.ts');
  const database = await openDatabase({ databaseUrl });
  const worker = startJobWorker({
    db: database.db,
    logger: createLogger('error'),
    pollMs: 500,
    handlers: { 'bench.work': (payload, run) => work(payload as unknown as Work, run.attempt) },
  });
  stop = async () => {
    await worker.stop();
    await database.close();
  };
} else {
  const { PgBoss } = await import('pg-boss');
  const burst = queue === 'pgboss-burst';
  const boss = new PgBoss({
    connectionString: databaseUrl,
    max: 3,
    supervise: true,
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
    migrate: false,
    ...(burst ? { queueCacheIntervalSeconds: 1 } : {}),
  });
  boss.on('error', (error) => console.error(name, error.message));
  await boss.start();
  await boss.work<Work>(
    'bench.work',
    {
      batchSize: 1,
      pollingIntervalSeconds: 0.5,
      heartbeatRefreshSeconds: 2,
      ...(burst ? { burstWhenReadyExceeds: 1 } : {}),
    },
    async ([job]) => work(job.data, job.retryCount + 1),
  );
  stop = () => boss.stop({ graceful: true });
}
console.log('ready');
process.once(
  'SIGTERM',
  () =>
    void stop()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
