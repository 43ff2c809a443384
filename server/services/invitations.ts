import { randomInt } from 'node:crypto';
import type { Repositories } from '../repositories/index.ts';
import type { InvitationRow } from '../repositories/invitations.repository.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import { INVITATION_CODE_RE } from '../../src/lib/validation/account.ts';
import { can, type Actor } from '../../src/lib/policy/policy.ts';

export const INVITATION_MIN_ACCOUNT_AGE_MS = 7 * 24 * 60 * 60_000;
export const INVITATION_INTERVAL_MS = 7 * 24 * 60 * 60_000;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function generateInvitationCode(): string {
  const group = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `KIRA-${group()}-${group()}`;
}

export function toInvitationResult(row: InvitationRow) {
  return {
    creatorUid: row.creator_uid,
    invitationCode: row.code,
    generationDateTime: new Date(row.created_at).getTime(),
    isPending: row.used_at === null && !row.disabled,
    disabled: row.disabled,
    assignee: row.assignee_uid,
    usedDateTime: row.used_at ? new Date(row.used_at).getTime() : null,
  };
}

/** Creates a code for a member (7-day-old account, one per 7 days) or, without limits, for staff and the CLI. */
export async function createInvitationCode(
  repositories: Pick<Repositories, 'users' | 'invitations'>,
  creator: Actor | null,
) {
  if (creator && !can(creator, 'invitation.unlimited')) {
    const createdAt = await repositories.users.createdAt(creator.uid);
    if (!createdAt) throw new NotFound();
    if (Date.now() - createdAt.getTime() < INVITATION_MIN_ACCOUNT_AGE_MS) throw new DomainError('ACCOUNT_TOO_NEW');
    const last = await repositories.invitations.lastCreatedBy(creator.uid);
    if (last && Date.now() - last.getTime() < INVITATION_INTERVAL_MS) {
      throw new DomainError('COOLING_DOWN', {
        retryAfterSeconds: Math.ceil((last.getTime() + INVITATION_INTERVAL_MS - Date.now()) / 1000),
        extra: { isCoolingDown: true },
      });
    }
  }
  for (;;) {
    const row = await repositories.invitations.insertUnlessExists(generateInvitationCode(), creator?.uid ?? null);
    if (row) return toInvitationResult(row);
  }
}

export async function isInvitationCodeAvailable(
  repositories: Pick<Repositories, 'invitations'>,
  code: string,
): Promise<boolean> {
  return INVITATION_CODE_RE.test(code) && repositories.invitations.isAvailable(code);
}

/** Single use: only one registration can claim a code, whatever the concurrency. */
export async function claimInvitationCode(
  repositories: Pick<Repositories, 'invitations'>,
  code: string,
  assigneeUid: number,
): Promise<void> {
  if (!(await repositories.invitations.claim(code, assigneeUid))) throw new DomainError('INVITATION_CODE_INVALID');
}

export async function listInvitationCodes(repositories: Pick<Repositories, 'invitations'>, creatorUid: number) {
  return (await repositories.invitations.listByCreator(creatorUid)).map(toInvitationResult);
}
