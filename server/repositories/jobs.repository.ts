/**
 * The media jobs as administrators see them (settings/jobs): the jobs table, read and retried.
 * Claiming, leasing and finishing jobs is the queue's (server/jobs/queue.ts), not this.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createMediaRepository } from './media.repository.ts';

export type JobStatus = 'queued' | 'running' | 'failed' | 'done';

export function createJobsRepository(db: Kysely<Database>) {
  return {
    /** How many jobs are in each state. */
    async counts(): Promise<Record<JobStatus, number>> {
      const rows = await db
        .selectFrom('jobs')
        .select(['status', sql<string>`count(*)`.as('n')])
        .groupBy('status')
        .execute();
      const counts: Record<JobStatus, number> = { queued: 0, running: 0, failed: 0, done: 0 };
      for (const row of rows) counts[row.status] = Number(row.n);
      return counts;
    },

    /** One page of the jobs in a state, newest first. */
    list(status: JobStatus, limit: number, offset: number) {
      return db
        .selectFrom('jobs')
        .select([
          'id',
          'kind',
          'status',
          'attempts',
          'last_error',
          'created_at',
          'run_after',
          'locked_until',
          sql<string | null>`payload->>'mediaId'`.as('media_id'),
        ])
        .where('status', '=', status)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /**
     * Queues a failed job again with its attempts back to none (its last error stays until it
     * succeeds). A failed media job's media, given up on, waits for it again: 'failed' goes back
     * to the state the job starts from. Answers false when the job is missing or not failed.
     */
    async retryFailed(jobId: number, mediaStateBefore: Record<string, string>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const job = await trx
          .updateTable('jobs')
          .set({ status: 'queued', attempts: 0, run_after: sql<Date>`now()`, locked_until: null })
          .where('id', '=', jobId)
          .where('status', '=', 'failed')
          .returning(['kind', sql<string | null>`payload->>'mediaId'`.as('media_id')])
          .executeTakeFirst();
        if (!job) return false;
        const before = mediaStateBefore[job.kind];
        if (before && job.media_id) {
          await createMediaRepository(trx).retryFailed(job.media_id, before);
        }
        return true;
      });
    },

    async exists(jobId: number): Promise<boolean> {
      return !!(await db.selectFrom('jobs').select('id').where('id', '=', jobId).executeTakeFirst());
    },
  };
}
export type JobsRepository = ReturnType<typeof createJobsRepository>;
