/** The moderation log: one row per staff action, only ever inserted and read (never changed or removed). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface StaffActionEntry {
  actorUid: number;
  action: string;
  targetType: string;
  targetId: number;
  details?: Record<string, unknown>;
}

export function createModerationLogRepository(db: Kysely<Database>) {
  return {
    async insert(entry: StaffActionEntry): Promise<void> {
      await db
        .insertInto('moderation_log')
        .values({
          actor_uid: entry.actorUid,
          action: entry.action,
          target_type: entry.targetType,
          target_id: entry.targetId,
          details: JSON.stringify(entry.details ?? {}),
        })
        .execute();
    },

    /** Newest first, before entry `beforeId` when given, by one actor and of one action when given; `limit` rows. */
    page(filter: { beforeId?: number; actorUid?: number; action?: string }, limit: number) {
      let query = db
        .selectFrom('moderation_log as l')
        .leftJoin('users as u', 'u.uid', 'l.actor_uid')
        .select([
          'l.entry_id',
          'l.actor_uid',
          'l.action',
          'l.target_type',
          'l.target_id',
          'l.details',
          'l.created_at',
          'u.username',
        ]);
      if (filter.beforeId !== undefined) query = query.where('l.entry_id', '<', filter.beforeId);
      if (filter.actorUid !== undefined) query = query.where('l.actor_uid', '=', filter.actorUid);
      if (filter.action !== undefined) query = query.where('l.action', '=', filter.action);
      return query.orderBy('l.entry_id', 'desc').limit(limit).execute();
    },
  };
}
