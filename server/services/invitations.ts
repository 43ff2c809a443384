import { randomInt } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitationCodesTable } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import { INVITATION_CODE_RE } from '../../src/lib/validation/account.ts';
import { isStaff } from '../auth/roles.ts';

export const INVITATION_MIN_ACCOUNT_AGE_MS = 7 * 24 * 60 * 60_000;
export const INVITATION_INTERVAL_MS = 7 * 24 * 60 * 60_000;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function generateInvitationCode(): string {
  const group = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `KIRA-${group()}-${group()}`;
}

export function toInvitationResult(row: Selectable<InvitationCodesTable>) {
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
export async function createInvitationCode(db: Kysely<Database>, creator: { uid: number; roles: string[] } | null) {
  if (creator && !isStaff(creator.roles)) {
    const user = await db.selectFrom('users').select('created_at').where('uid', '=', creator.uid).executeTakeFirstOrThrow();
    if (Date.now() - new Date(user.created_at).getTime() < INVITATION_MIN_ACCOUNT_AGE_MS) throw new AppError('ACCOUNT_TOO_NEW');
    const last = await db.selectFrom('invitation_codes').select('created_at').where('creator_uid', '=', creator.uid)
      .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    if (last && Date.now() - new Date(last.created_at).getTime() < INVITATION_INTERVAL_MS) {
      throw new AppError('COOLING_DOWN', { extra: { isCoolingDown: true } });
    }
  }
  for (;;) {
    const code = generateInvitationCode();
    const row = await db.insertInto('invitation_codes').values({ code, creator_uid: creator?.uid ?? null })
      .onConflict((oc) => oc.column('code').doNothing()).returningAll().executeTakeFirst();
    if (row) return toInvitationResult(row);
  }
}

export async function isInvitationCodeAvailable(db: Kysely<Database>, code: string): Promise<boolean> {
  if (!INVITATION_CODE_RE.test(code)) return false;
  const row = await db.selectFrom('invitation_codes').select('code').where('code', '=', code)
    .where('used_at', 'is', null).where('disabled', '=', false).executeTakeFirst();
  return !!row;
}

/** Single use: only one registration can claim a code, whatever the concurrency. */
export async function claimInvitationCode(db: Kysely<Database>, code: string, assigneeUid: number): Promise<void> {
  const claimed = await db.updateTable('invitation_codes').set({ assignee_uid: assigneeUid, used_at: new Date() })
    .where('code', '=', code).where('used_at', 'is', null).where('disabled', '=', false).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('INVITATION_CODE_INVALID');
}

export async function listInvitationCodes(db: Kysely<Database>, creatorUid: number) {
  const rows = await db.selectFrom('invitation_codes').selectAll().where('creator_uid', '=', creatorUid).orderBy('created_at', 'desc').execute();
  return rows.map(toInvitationResult);
}
