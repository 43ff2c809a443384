import type { Repositories } from '../repositories/index.ts';
import { Conflict, NotFound } from '../domain/errors.ts';
import { JOB_MAX_ATTEMPTS } from '../jobs/queue.ts';
import { MEDIA_STATE_ON_RETRY } from '../media/paths.ts';
import type { JobStatus } from '../repositories/jobs.repository.ts';

/** The media jobs for administrators (settings/jobs): what is queued, running, failed or done, and retrying a failed one. */
export function createJobsService(repositories: Pick<Repositories, 'jobs'>) {
  const { jobs } = repositories;
  return {
    async list(status: JobStatus, page: number, pageSize: number) {
      const [counts, rows] = await Promise.all([jobs.counts(), jobs.list(status, pageSize, (page - 1) * pageSize)]);
      return {
        counts,
        totalCount: counts[status],
        maxAttempts: JOB_MAX_ATTEMPTS,
        jobs: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          status: row.status,
          attempts: row.attempts,
          lastError: row.last_error,
          mediaId: row.media_id,
          createdDateTime: row.created_at.getTime(),
          runAfterDateTime: row.run_after.getTime(),
          lockedUntilDateTime: row.locked_until?.getTime() ?? null,
        })),
      };
    },

    /** A failed job queued again with fresh attempts; a job that is not failed is refused (409), a missing one 404. */
    async retry(jobId: number): Promise<void> {
      if (await jobs.retryFailed(jobId, MEDIA_STATE_ON_RETRY)) return;
      if (!(await jobs.exists(jobId))) throw new NotFound();
      throw new Conflict();
    },
  };
}
