/** The administrators' schemas: roles, the profile review queue, bans, media jobs. */
import { z } from 'zod';
import { ROLES } from '../../policy/policy.ts';
import { pageQuery, positiveId } from './common.ts';
import { profileFields } from './user.ts';

export const updateRolesBody = z.object({ uid: positiveId, newRoles: z.array(z.enum(ROLES)).min(1).max(5) });
/** The roles the target has now (normalised: 'blocked' alone, else known roles). */
export const rolesResponse = z.object({ success: z.literal(true), uid: z.number(), roles: z.array(z.enum(ROLES)) });
export const reviewQuery = pageQuery.extend({
  isOnlyShowUserInfoUpdatedAfterReview: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  sortBy: z.enum(['createDateTime', 'editDateTime', 'username', 'uid']).default('editDateTime'),
  sortOrder: z.enum(['ascend', 'descend']).default('descend'),
});
export const uidBody = z.object({ uid: positiveId });
export const reviewItem = profileFields.extend({ editDateTime: z.number(), isUpdatedAfterReview: z.boolean() });
export type ReviewItem = z.infer<typeof reviewItem>;
export const reviewQueueResponse = z.object({
  success: z.literal(true),
  result: z.array(reviewItem),
  totalCount: z.number(),
});
/** Banned users, most recently changed first. */
export const blockedUsersResponse = z.object({
  success: z.literal(true),
  totalCount: z.number(),
  result: z.array(
    z.object({
      uid: z.number(),
      username: z.string(),
      userNickname: z.string().nullable(),
      avatar: z.string(),
      editDateTime: z.number(),
    }),
  ),
});

// ---- Media jobs (administrators) ----
export const JOB_STATUSES = ['queued', 'running', 'failed', 'done'] as const;
export const jobListQuery = pageQuery.extend({ status: z.enum(JOB_STATUSES).default('failed') });
export const jobListResponse = z.object({
  success: z.literal(true),
  /** How many jobs are in each state now. */
  counts: z.object({ queued: z.number(), running: z.number(), failed: z.number(), done: z.number() }),
  totalCount: z.number(),
  /** Attempts a job gets before it stays failed. */
  maxAttempts: z.number(),
  /** Newest first; `lastError` is the last failed attempt's message (kept until the job succeeds). */
  jobs: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      status: z.enum(JOB_STATUSES),
      attempts: z.number(),
      lastError: z.string().nullable(),
      mediaId: z.string().nullable(),
      createdDateTime: z.number(),
      runAfterDateTime: z.number(),
      lockedUntilDateTime: z.number().nullable(),
    }),
  ),
});
export const jobIdBody = z.object({ jobId: positiveId });
