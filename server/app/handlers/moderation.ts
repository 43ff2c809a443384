import type { HandlerSet } from '../mount-routes.ts';

/** Issue 28: reports by members, their resolution by staff, and the log of staff actions. */
export const reportHandlers: HandlerSet<'report/'> = {
  'POST report/create': async (body, { services, actor }) =>
    ({ success: true, reportId: await services.reports.create(actor, body) }),
  'GET report/list': async (query, { services }) => ({ success: true, ...(await services.reports.list(query)) }),
  'POST report/resolve': async (body, { services, actor, authorize, logger }) => {
    const resolvedReports = await services.reports.resolve(actor.uid, body, (currentRoles, nextRoles) => authorize('user.roles', { currentRoles, nextRoles }));
    logger.info('report resolved', { reportId: body.reportId, action: body.action, by: actor.uid });
    return { success: true, resolvedReports };
  },
};

export const moderationLogHandlers: HandlerSet<'moderation/'> = {
  'GET moderation/log': async (query, { services }) => ({ success: true, ...(await services.moderationLog.page(query)) }),
};
