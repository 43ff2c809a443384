/**
 * The moderation log: every staff action (reviews, deletions of others' things, hides, bans,
 * role changes, report resolutions) is written here, by the service that acts, through
 * `recordStaffAction` alone. Entries are only ever added: nothing in the API edits or removes one.
 */
import type { Repositories } from '../repositories/index.ts';
import type { StaffActionEntry } from '../repositories/moderation-log.repository.ts';
import type { ModerationLogEntry } from '../../src/lib/api/contracts/moderation.ts';
import type { StaffAction } from '../../src/lib/api/contracts/moderation.constants.ts';
import { Invalid } from '../domain/errors.ts';

export function recordStaffAction(
  repositories: Pick<Repositories, 'moderationLog'>,
  entry: StaffActionEntry & { action: StaffAction },
): Promise<void> {
  return repositories.moderationLog.insert(entry);
}

/** Cursors of the id-ordered pages (the log, the report queue): the last row's id, in base 36. */
export function encodeIdCursor(id: number): string {
  return id.toString(36);
}
export function decodeIdCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const id = Number.parseInt(cursor, 36);
  if (!/^[0-9a-z]{1,11}$/.test(cursor) || !Number.isSafeInteger(id) || id <= 0)
    throw new Invalid([{ path: 'cursor', message: 'is not a cursor' }]);
  return id;
}

export function createModerationLogService(repositories: Pick<Repositories, 'moderationLog'>) {
  return {
    /** A page of the log, newest first, by one actor and of one action when given. */
    async page(query: {
      cursor?: string;
      actor?: number;
      action?: StaffAction;
      pageSize: number;
    }): Promise<{ entries: ModerationLogEntry[]; nextCursor: string | null }> {
      const rows = await repositories.moderationLog.page(
        { beforeId: decodeIdCursor(query.cursor), actorUid: query.actor, action: query.action },
        query.pageSize + 1,
      );
      const page = rows.slice(0, query.pageSize);
      const last = page.at(-1);
      return {
        entries: page.map((row) => ({
          entryId: Number(row.entry_id),
          actor: { uid: Number(row.actor_uid), username: row.username ?? null },
          action: row.action as StaffAction,
          targetType: row.target_type,
          targetId: Number(row.target_id),
          details: row.details,
          createdDateTime: new Date(row.created_at).getTime(),
        })),
        nextCursor: rows.length > query.pageSize && last ? encodeIdCursor(Number(last.entry_id)) : null,
      };
    },
  };
}
