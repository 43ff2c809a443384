import type { HandlerSet } from '../mount-routes.ts';

const OK = { success: true } as const;

/** The media jobs for administrators (settings/jobs). */
export const adminHandlers: HandlerSet<'admin/'> = {
  'GET admin/jobs': async ({ status, page, pageSize }, { services }) => ({ success: true, ...(await services.jobs.list(status, page, pageSize)) }),
  'POST admin/jobs/retry': async ({ jobId }, { services }) => {
    await services.jobs.retry(jobId);
    return OK;
  },
};
