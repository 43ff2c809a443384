import { defineRoutes } from '../route.ts';
import * as C from '../contracts/admin.ts';
import { okResponse, pageQuery } from '../contracts/common.ts';
import type { FamilyEntry } from './user.ts';

const review = <const D extends FamilyEntry>(summary: string, def: D) =>
  ({ tag: 'admin', summary, permission: 'user.review', ...def }) as const;

/** SPEC §7 "User" and "role management", for root and administrators: profile review, bans and roles; and the media jobs. */
export const adminRoutes = defineRoutes({
  'GET user/adminGetUserInfo': review(
    'The profile review queue (optionally only profiles changed since their last review).',
    { query: C.reviewQuery, response: C.reviewQueueResponse, cache: 'no-store' },
  ),
  'POST user/approveUserInfo': review('Mark a profile reviewed.', { body: C.uidBody, response: okResponse }),
  'POST user/adminClearUserInfo': review('Reset a profile to neutral values (the username stays).', {
    body: C.uidBody,
    response: okResponse,
  }),
  'GET user/blocked/info': review('Banned users, most recently changed first.', {
    query: pageQuery,
    response: C.blockedUsersResponse,
  }),
  'GET admin/jobs': {
    tag: 'admin',
    summary:
      'Media jobs in one state (queued, running, failed, done), newest first, with each state’s count and the last error.',
    permission: 'jobs.manage',
    query: C.jobListQuery,
    response: C.jobListResponse,
    cache: 'no-store',
  },
  'POST admin/jobs/retry': {
    tag: 'admin',
    summary: 'Queue a failed job again with fresh attempts (a failed transcode’s media goes back to waiting for it).',
    permission: 'jobs.manage',
    body: C.jobIdBody,
    response: okResponse,
    errors: ['CONFLICT'],
  },
  'POST rbac/adminUpdateUserRole': {
    tag: 'admin',
    summary: 'Set a user’s roles: root any; an administrator only of users who neither are nor become staff.',
    permission: 'user.roles',
    body: C.updateRolesBody,
    response: C.rolesResponse,
    errors: ['LAST_ROOT'],
  },
});
