/**
 * The job queue's leases, on the real database (PGlite, and PostgreSQL when configured): a
 * heartbeat keeps a long job; a worker that stops hands its job back unspent; a worker that
 * lost its lease stops and records nothing; the jobs of a dead process are taken back at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { enqueueJob, startJobWorker, type JobHandler } from '../../server/jobs/queue.ts';
import { createLogger } from '../../server/logger.ts';

const logger = createLogger('error');
const LEASE_MS = 400;

/** Resolves when `check` holds, checking every 20 ms. */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A handler that runs until its signal aborts (or `release` is called), noting what happened. */
function blockingHandler() {
  const state = { started: 0, abortedWith: '' as string, release: () => {} };
  const handler: JobHandler = (_payload, run) =>
    new Promise<void>((resolve, reject) => {
      state.started++;
      state.release = resolve;
      run.signal?.addEventListener(
        'abort',
        () => {
          state.abortedWith = String((run.signal!.reason as Error).message);
          reject(run.signal!.reason);
        },
        { once: true },
      );
    });
  return { handler, state };
}

describe.each(BACKENDS)('job leases on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { WORKER: '0' } });
  });
  afterAll(() => server?.close());

  const jobOfKind = (kind: string) =>
    server.db.selectFrom('jobs').selectAll().where('kind', '=', kind).executeTakeFirstOrThrow();

  it('renews the lease while the job runs: another worker never takes it, and it is done on its first attempt', async () => {
    await enqueueJob(server.db, 'test.long', {});
    const { handler, state } = blockingHandler();
    let takenByOther = 0;
    const worker = startJobWorker({
      db: server.db,
      logger,
      handlers: { 'test.long': handler },
      pollMs: 20,
      leaseMs: LEASE_MS,
    });
    await until(() => state.started === 1);
    // A second worker polling all along; the job is several leases long: only the heartbeat keeps it.
    const other = startJobWorker({
      db: server.db,
      logger,
      handlers: { 'test.long': async () => void takenByOther++ },
      pollMs: 20,
      leaseMs: LEASE_MS,
    });
    try {
      const heldUntil = (await jobOfKind('test.long')).locked_until!.getTime();
      await until(async () => (await jobOfKind('test.long')).locked_until!.getTime() > heldUntil + 2 * LEASE_MS);
      state.release();
      await until(async () => (await jobOfKind('test.long')).status === 'done');
    } finally {
      await Promise.all([worker.stop(), other.stop()]);
    }
    expect(takenByOther).toBe(0);
    expect(await jobOfKind('test.long')).toMatchObject({ status: 'done', attempts: 1, locked_by: null });
  });

  it('hands the running job back on stop: queued again, its attempt not counted', async () => {
    await enqueueJob(server.db, 'test.stop', { n: 1 });
    const { handler, state } = blockingHandler();
    const worker = startJobWorker({
      db: server.db,
      logger,
      handlers: { 'test.stop': handler },
      pollMs: 20,
      leaseMs: LEASE_MS,
    });
    await until(() => state.started === 1);
    const job = await jobOfKind('test.stop');
    expect(job).toMatchObject({ status: 'running', attempts: 1 });
    expect(job.locked_by).toMatch(new RegExp(`^${hostname()}:${process.pid}:`));
    expect(await worker.stop()).toEqual({ handedBack: [{ id: job.id }] });
    expect(state.abortedWith).toBe('the worker is stopping');
    expect(await jobOfKind('test.stop')).toMatchObject({
      status: 'queued',
      attempts: 0,
      locked_by: null,
      locked_until: null,
      last_error: null,
    });
  });

  it('stops the work and records nothing when its lease was lost to another worker', async () => {
    await enqueueJob(server.db, 'test.lost', {});
    const { handler, state } = blockingHandler();
    const worker = startJobWorker({
      db: server.db,
      logger,
      handlers: { 'test.lost': handler },
      pollMs: 20,
      leaseMs: LEASE_MS,
    });
    await until(() => state.started === 1);
    // As if this worker had stalled past its lease and another had claimed the job.
    await server.db
      .updateTable('jobs')
      .set({ locked_by: 'elsewhere:1:other' })
      .where('kind', '=', 'test.lost')
      .execute();
    await until(() => state.abortedWith !== '').finally(() => worker.stop());
    expect(state.abortedWith).toBe('lease lost');
    expect(await jobOfKind('test.lost')).toMatchObject({
      status: 'running',
      attempts: 1,
      locked_by: 'elsewhere:1:other',
      last_error: null,
    });
  });

  it('takes back at once the jobs of a process of this machine that is gone, not those of a live one', async () => {
    const farFuture = new Date(Date.now() + 3600_000);
    await server.db
      .insertInto('jobs')
      .values([
        {
          kind: 'test.orphan',
          payload: '{}',
          status: 'running',
          attempts: 1,
          locked_until: farFuture,
          locked_by: `${hostname()}:2147483646:gone`,
        },
        {
          kind: 'test.held',
          payload: '{}',
          status: 'running',
          attempts: 1,
          locked_until: farFuture,
          locked_by: `${hostname()}:${process.ppid}:alive`,
        },
      ] as never)
      .execute();
    let ran = 0;
    const worker = startJobWorker({
      db: server.db,
      logger,
      handlers: { 'test.orphan': async () => void ran++, 'test.held': async () => void ran++ },
      pollMs: 20,
      leaseMs: LEASE_MS,
    });
    await until(async () => (await jobOfKind('test.orphan')).status === 'done').finally(() => worker.stop());
    expect(ran).toBe(1);
    expect(await jobOfKind('test.orphan')).toMatchObject({ status: 'done', attempts: 2 });
    expect(await jobOfKind('test.held')).toMatchObject({
      status: 'running',
      locked_by: `${hostname()}:${process.ppid}:alive`,
    });
  });
});
