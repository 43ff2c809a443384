import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import {
  createJobQueueRepository,
  enqueueJob,
  type BackgroundWork,
  type JobQueueRepository,
} from '../repositories/job-queue.repository.ts';
export { enqueueJob, type BackgroundWork };

export const JOB_MAX_ATTEMPTS = 5;
/**
 * How long a claimed job is held without news from its worker. The worker renews the lease every
 * quarter of it while the job runs, so a short lease costs little and a worker that died (a
 * SIGKILL, a lost machine) lets its job go within seconds. JOB_LEASE_MS sets it.
 */
export const JOB_LEASE_MS = 8_000;
/** The first retry's delay after a failure; it doubles with each attempt (JOB_RETRY_DELAY_MS sets it). */
export const JOB_RETRY_DELAY_MS = 60_000;
const backoffMs = (attempt: number, firstDelayMs: number) => Math.min(firstDelayMs * 2 ** (attempt - 1), 30 * 60_000);

/**
 * `isLastAttempt`: a failure now is final (the job is not retried). `signal` aborts when the
 * worker lets the job go (shutdown, or its lease was lost): stop the work, nothing is recorded.
 */
export type JobHandler = (
  payload: Record<string, unknown>,
  run: { attempt: number; isLastAttempt: boolean; signal?: AbortSignal },
) => Promise<void>;

/** This process's holder name prefix: a job locked by `host:pid:` names the process that holds it. */
const HOLDER_PREFIX = `${hostname()}:${process.pid}:`;

/** The reason a background job is stopped to let foreground work run (it is handed back unspent). */
const GIVING_WAY = 'foreground work is due: this background job gives way and runs again later';

/** The holders of the jobs this process's workers are running now. */
const heldHere = new Set<string>();

/**
 * Whether a job's holder on this machine is alive. Our own pid is a previous process's that had
 * it too (pid 1 in a container, every time) unless one of our workers holds that job now.
 */
function holderAlive(holder: string, pid: number): boolean {
  if (pid === process.pid) return heldHere.has(holder);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Jobs held by a process of this machine that no longer runs (killed during a job) are put
 * back at once, rather than after their lease: a restart resumes them in seconds. Their attempt
 * stays counted (a job that kills its process every time must not loop forever).
 */
async function takeBackOrphanedJobs(jobs: JobQueueRepository): Promise<number[]> {
  const prefix = `${hostname()}:`;
  const held = await jobs.runningHeldBy(prefix);
  const orphaned = held.filter(
    (job) => !holderAlive(job.locked_by!, Number(job.locked_by!.slice(prefix.length).split(':')[0])),
  );
  const taken: number[] = [];
  for (const job of orphaned) {
    if (await jobs.takeBack(job.id, job.locked_by)) taken.push(job.id);
  }
  return taken;
}

export interface JobWorkerOptions {
  db: Kysely<Database>;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  pollMs?: number;
  leaseMs?: number;
  retryDelayMs?: number;
  /**
   * Background jobs (a SQL condition on the row `jobs`): claimed only when no other job is due,
   * and stopped (handed back without spending an attempt) when other work becomes due while they run.
   */
  background?: BackgroundWork;
}

/**
 * A worker that polls the job table: a finished job is marked done; a failed one is retried
 * with growing back-off up to JOB_MAX_ATTEMPTS, then marked failed with its error kept. A
 * running job's lease is renewed by a heartbeat; if the renewal finds the job taken by another
 * worker (this one stalled past its lease), the work is aborted and nothing is recorded. On
 * stop, the running job is aborted and handed back to the queue without using up an attempt.
 */
export function startJobWorker(options: JobWorkerOptions) {
  const {
    logger,
    handlers,
    pollMs = 1000,
    leaseMs = JOB_LEASE_MS,
    retryDelayMs = JOB_RETRY_DELAY_MS,
    background,
  } = options;
  const jobs = createJobQueueRepository(options.db);
  let stopped = false;
  let wake: (() => void) | undefined;
  let current: { id: number; kind: string; abort: AbortController } | undefined;
  const handedBack: number[] = [];

  const whileHeld = jobs.whileHeld;

  async function runOnce(): Promise<boolean> {
    const holder = `${HOLDER_PREFIX}${randomBytes(6).toString('hex')}`;
    const job = await jobs.claim(holder, leaseMs, background);
    if (!job) return false;
    const handler = handlers[job.kind];
    const abort = new AbortController();
    current = { id: job.id, kind: job.kind, abort };
    heldHere.add(holder);
    const heartbeat = setInterval(
      () => {
        whileHeld(job.id, holder, { renewFor: leaseMs })
          .then(async (held) => {
            if (abort.signal.aborted) return;
            if (!held) {
              logger.warn('job lease lost: another worker took the job, this attempt stops', {
                jobId: job.id,
                kind: job.kind,
              });
              return abort.abort(new Error('lease lost'));
            }
            // A background job (an unpublished upload's transcode) does not hold up work that counts.
            if (job.background && (await jobs.foregroundDue(background))) abort.abort(new Error(GIVING_WAY));
          })
          // The database away for a moment: the next beat tries again (the lease covers a few misses).
          .catch((error) => logger.warn('job lease renewal failed', { jobId: job.id, err: error }));
      },
      Math.max(50, Math.floor(leaseMs / 4)),
    );
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, {
        attempt: job.attempts,
        isLastAttempt: job.attempts >= JOB_MAX_ATTEMPTS,
        signal: abort.signal,
      });
      // Finished even if told to stop meanwhile: recorded done (a lost lease records nothing).
      await whileHeld(job.id, holder, { done: true });
    } catch (error) {
      if (abort.signal.aborted) {
        // Shutdown, or giving way to foreground work: back to the queue at once, the attempt not
        // counted. Lease lost: not ours any more.
        const givingWay = (abort.signal.reason as Error | undefined)?.message === GIVING_WAY;
        if (givingWay && (await whileHeld(job.id, holder, { handBack: true }))) {
          logger.info('background job gives way to foreground work', { jobId: job.id, kind: job.kind });
        } else if (stopped && (await whileHeld(job.id, holder, { handBack: true }))) {
          handedBack.push(job.id);
          logger.info('job handed back to the queue', { jobId: job.id, kind: job.kind, attempt: job.attempts });
        }
        return true;
      }
      const final = job.attempts >= JOB_MAX_ATTEMPTS;
      const message = String((error as Error)?.message ?? error).slice(0, 2000);
      logger.warn('job failed', { jobId: job.id, kind: job.kind, attempt: job.attempts, final, err: error });
      await whileHeld(job.id, holder, {
        failed: { final, message, runAfter: new Date(Date.now() + backoffMs(job.attempts, retryDelayMs)) },
      });
    } finally {
      clearInterval(heartbeat);
      heldHere.delete(holder);
      current = undefined;
    }
    return true;
  }

  async function loop(): Promise<void> {
    const taken = await takeBackOrphanedJobs(jobs).catch((error) => {
      logger.warn('taking back the jobs of a stopped process failed (their leases will run out)', { err: error });
      return [];
    });
    if (taken.length) logger.info('took back jobs of a process that is gone', { jobIds: taken });
    while (!stopped) {
      const worked = await runOnce().catch((error) => {
        if (!stopped) logger.error('job worker error', { err: error });
        return false;
      });
      if (!worked && !stopped)
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, pollMs).unref();
        });
    }
  }
  const running = loop();

  return {
    /** Look for work now (after enqueueing), instead of at the next poll. */
    poke: () => wake?.(),
    /** Stops taking jobs; the running one is aborted and handed back. Answers the jobs handed back. */
    async stop(): Promise<{ handedBack: Array<{ id: number }> }> {
      stopped = true;
      current?.abort.abort(new Error('the worker is stopping'));
      wake?.();
      await running;
      return { handedBack: handedBack.map((id) => ({ id })) };
    },
  };
}
