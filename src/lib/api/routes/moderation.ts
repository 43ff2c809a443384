import { defineRoutes } from '../route.ts';
import * as M from '../contracts/moderation.ts';

/**
 * Issue 28: members report what breaks the rules; staff read the queue and resolve each report
 * through the existing services; administrators read the log of every staff action. The log has
 * no route that changes or removes an entry (tests/api/moderation-log.test.ts checks the table).
 */
export const moderationRoutes = defineRoutes({
  'POST report/create': {
    tag: 'moderation',
    summary: 'Report a video, track, photo post, comment, danmaku or user (one open report per member and target).',
    permission: 'report.create',
    body: M.reportCreateBody,
    response: M.reportCreateResponse,
    cache: 'no-store',
    rateLimits: [{ limit: 'reportPerUser', by: 'uid' }],
    errors: ['ALREADY_REPORTED', 'CANNOT_REPORT_OWN', 'NOT_FOUND', 'RATE_LIMITED'],
  },
  'GET report/list': {
    tag: 'moderation',
    summary: 'The report queue, newest first, each report with the reported item in its context.',
    permission: 'report.review',
    query: M.reportListQuery,
    response: M.reportListResponse,
    cache: 'no-store',
  },
  'POST report/resolve': {
    tag: 'moderation',
    summary:
      'Resolve a report (and every open report of the same item): dismiss, hide, delete, or ban its author; the reporters are told.',
    permission: 'report.review',
    body: M.reportResolveBody,
    response: M.reportResolveResponse,
    cache: 'no-store',
    errors: ['ALREADY_RESOLVED', 'ACTION_NOT_APPLICABLE', 'NOT_FOUND'],
  },
  'GET moderation/log': {
    tag: 'moderation',
    summary: 'The log of staff actions, newest first (reviews, deletions, bans, role changes, report resolutions).',
    permission: 'moderation.log',
    query: M.moderationLogQuery,
    response: M.moderationLogResponse,
    cache: 'no-store',
  },
  'GET video/related': {
    tag: 'video',
    summary:
      'Approved videos related to one (shared tags, same uploader, watched by the same members), without what the viewer blocked or hid.',
    permission: 'catalogue.read',
    query: M.relatedVideosQuery,
    response: M.relatedVideosResponse,
    cache: 'private',
  },
});
