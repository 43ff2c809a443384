import type { HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';

/** The media jobs for administrators (settings/jobs). */
export const adminHandlers: HandlerSet<'admin/'> = {
  'GET admin/jobs': async ({ status, page, pageSize }, { services }) => ({
    success: true,
    ...(await services.jobs.list(status, page, pageSize)),
  }),
  'POST admin/jobs/retry': async ({ jobId }, { services }) => done(services.jobs.retry(jobId)),
};
