import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';

export const JOB_MAX_ATTEMPTS = 5;
/** How long a claimed job is held; a job whose worker died is taken again after it. */
export const JOB_LEASE_MS = 10 * 60_000;
const backoffMs = (attempt: number) => Math.min(60_000 * 2 ** (attempt - 1), 30 * 60_000);

/** `isLastAttempt`: a failure now is final (the job is not retried). */
export type JobHandler = (payload: Record<string, unknown>, run: { attempt: number; isLastAttempt: boolean }) => Promise<void>;

export async function enqueueJob(db: Kysely<Database>, kind: string, payload: Record<string, unknown>): Promise<void> {
  await db.insertInto('jobs').values({ kind, payload: JSON.stringify(payload) }).execute();
}

/** Claims the next due job atomically (several workers never take the same one). */
async function claimJob(db: Kysely<Database>) {
  const { rows } = await sql<{ id: number; kind: string; payload: Record<string, unknown>; attempts: number }>`
    UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ${new Date(Date.now() + JOB_LEASE_MS)}
    WHERE id = (
      SELECT id FROM jobs
      WHERE (status = 'queued' AND run_after <= now()) OR (status = 'running' AND locked_until < now())
      ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1
    )
    RETURNING id, kind, payload, attempts`.execute(db);
  return rows[0];
}

/**
 * A worker that polls the job table: a finished job is marked done; a failed one is retried
 * with growing back-off up to JOB_MAX_ATTEMPTS, then marked failed with its error kept.
 */
export function startJobWorker(options: { db: Kysely<Database>; logger: Logger; handlers: Record<string, JobHandler>; pollMs?: number }) {
  const { db, logger, handlers, pollMs = 1000 } = options;
  let stopped = false;
  let wake: (() => void) | undefined;
  let running: Promise<void> = Promise.resolve();

  async function runOnce(): Promise<boolean> {
    const job = await claimJob(db);
    if (!job) return false;
    const handler = handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, { attempt: job.attempts, isLastAttempt: job.attempts >= JOB_MAX_ATTEMPTS });
      await db.updateTable('jobs').set({ status: 'done', locked_until: null, last_error: null }).where('id', '=', job.id).execute();
    } catch (error) {
      const final = job.attempts >= JOB_MAX_ATTEMPTS;
      logger.warn('job failed', { jobId: job.id, kind: job.kind, attempt: job.attempts, final, err: error });
      await db.updateTable('jobs').set({
        status: final ? 'failed' : 'queued', locked_until: null, last_error: String((error as Error)?.message ?? error).slice(0, 2000),
        run_after: new Date(Date.now() + backoffMs(job.attempts)),
      } as never).where('id', '=', job.id).execute();
    }
    return true;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      const worked = await runOnce().catch((error) => {
        if (!stopped) logger.error('job worker error', { err: error });
        return false;
      });
      if (!worked && !stopped) await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pollMs).unref();
      });
    }
  }
  running = loop();

  return {
    /** Look for work now (after enqueueing), instead of at the next poll. */
    poke: () => wake?.(),
    async stop() {
      stopped = true;
      wake?.();
      await running;
    },
  };
}
