import type { HandlerSet } from '../mount-routes.ts';
import { logged } from './logged.ts';

/** Issue 28: reports by members, their resolution by staff, and the log of staff actions. */
export const reportHandlers: HandlerSet<'report/'> = {
  'POST report/create': async (body, { services, actor }) => ({
    success: true,
    reportId: await services.reports.create(actor, body),
  }),
  'GET report/list': async (query, { services }) => ({ success: true, ...(await services.reports.list(query)) }),
  // A ban is a role change: the service asks the policy's roleChange rule for this actor.
  'POST report/resolve': async (body, { services, actor, logger }) => ({
    success: true,
    resolvedReports: await logged(logger, 'report resolved', services.reports.resolve(actor, body), () => ({
      reportId: body.reportId,
      action: body.action,
      by: actor.uid,
    })),
  }),
};

export const moderationLogHandlers: HandlerSet<'moderation/'> = {
  'GET moderation/log': async (query, { services }) => ({
    success: true,
    ...(await services.moderationLog.page(query)),
  }),
};
