/**
 * The job queue's rows (server/jobs/queue.ts runs them): queueing, claiming under a lease of the
 * database's clock, renewing and finishing while held, and taking back what a dead process held.
 * What administrators see of the jobs is jobs.repository.ts.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Whether a job (the row `jobs`) is background work, run only when nothing else is due: a SQL
 * condition given by the worker's owner (unpublished-uploads: the transcode of an upload nobody
 * has published yet). Its absence makes every job equal (first queued, first run).
 */
export type BackgroundWork = RawBuilder<boolean>;

const DUE = sql`((jobs.status = 'queued' AND jobs.run_after <= now()) OR (jobs.status = 'running' AND jobs.locked_until < now()))`;
const NO_BACKGROUND = sql<boolean>`false`;

/** What a worker records of the job it holds (only while it still holds it). */
export type HeldJobChange =
  | { renewFor: number }
  | { done: true }
  /** Back to the queue at once, the attempt not counted (shutdown, or giving way). */
  | { handBack: true }
  | { failed: { final: boolean; message: string; runAfter: Date } };

/** Queues a job (in the caller's transaction when `db` is one). */
export async function enqueueJob(db: Kysely<Database>, kind: string, payload: Record<string, unknown>): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ kind, payload: JSON.stringify(payload) })
    .execute();
}

export function createJobQueueRepository(db: Kysely<Database>) {
  return {
    enqueue: (kind: string, payload: Record<string, unknown>) => enqueueJob(db, kind, payload),

    /**
     * Claims the next due job atomically (several workers never take the same one), under a
     * lease: foreground work first, each kind in the order it was queued.
     */
    async claim(holder: string, leaseMs: number, background: BackgroundWork = NO_BACKGROUND) {
      const { rows } = await sql<{
        id: number;
        kind: string;
        payload: Record<string, unknown>;
        attempts: number;
        background: boolean;
      }>`
        UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ${holder},
          locked_until = now() + ${leaseMs} * interval '1 millisecond'
        WHERE id = (
          SELECT id FROM jobs
          WHERE ${DUE}
          ORDER BY CASE WHEN ${background} THEN 1 ELSE 0 END, id FOR UPDATE SKIP LOCKED LIMIT 1
        )
        RETURNING id, kind, payload, attempts, (${background}) AS background`.execute(db);
      return rows[0];
    },

    /** Whether foreground work is due (a background job running then gives way to it). */
    async foregroundDue(background: BackgroundWork = NO_BACKGROUND): Promise<boolean> {
      const { rows } = await sql<{
        due: boolean;
      }>`SELECT EXISTS (SELECT 1 FROM jobs WHERE ${DUE} AND NOT (${background})) AS due`.execute(db);
      return rows[0]?.due === true;
    },

    /** The running jobs whose holder name starts with `prefix` (this machine's). */
    runningHeldBy(prefix: string) {
      return db
        .selectFrom('jobs')
        .select(['id', 'locked_by'])
        .where('status', '=', 'running')
        .where(sql<boolean>`starts_with(locked_by, ${prefix})`)
        .execute();
    },

    /** Puts a job back in the queue if `holder` still holds it, its attempt still counted; answers whether it did. */
    async takeBack(id: number, holder: string | null): Promise<boolean> {
      const { numUpdatedRows } = await db
        .updateTable('jobs')
        .set({ status: 'queued', locked_until: null, locked_by: null, run_after: sql`now()` } as never)
        .where('id', '=', id)
        .where('locked_by', '=', holder)
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** Changes a job only while `holder` still holds it; answers whether it did. */
    async whileHeld(id: number, holder: string, change: HeldJobChange): Promise<boolean> {
      const released = { locked_until: null, locked_by: null };
      const values =
        'renewFor' in change
          ? { locked_until: sql`now() + ${change.renewFor} * interval '1 millisecond'` }
          : 'done' in change
            ? { status: 'done', ...released, last_error: null }
            : 'handBack' in change
              ? { status: 'queued', attempts: sql`attempts - 1`, ...released, run_after: sql`now()` }
              : {
                  status: change.failed.final ? 'failed' : 'queued',
                  ...released,
                  last_error: change.failed.message,
                  run_after: change.failed.runAfter,
                };
      const { numUpdatedRows } = await db
        .updateTable('jobs')
        .set(values as never)
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('locked_by', '=', holder)
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },
  };
}
export type JobQueueRepository = ReturnType<typeof createJobQueueRepository>;
