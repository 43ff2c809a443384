/** Members' reports of videos, tracks, photo posts, comments, danmaku and users, and their resolution. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface NewReport {
  reporterUid: number;
  targetType: string;
  targetId: number;
  targetOwnerUid: number | null;
  reason: string;
  text: string;
  time: number | null;
  snapshot: Record<string, unknown>;
}

export function createReportsRepository(db: Kysely<Database>) {
  const withReporter = () =>
    db
      .selectFrom('reports as r')
      .innerJoin('users as u', 'u.uid', 'r.reporter_uid')
      .select([
        'r.report_id',
        'r.reporter_uid',
        'r.target_type',
        'r.target_id',
        'r.target_owner_uid',
        'r.reason',
        'r.text',
        'r.time',
        'r.snapshot',
        'r.status',
        'r.action',
        'r.note',
        'r.resolved_by',
        'r.resolved_at',
        'r.created_at',
        'u.username',
      ]);
  return {
    /** The new report's id, or null when the member already has an open report of this target (the partial unique index decides). */
    async insert(report: NewReport): Promise<number | null> {
      const row = await db
        .insertInto('reports')
        .values({
          reporter_uid: report.reporterUid,
          target_type: report.targetType,
          target_id: report.targetId,
          target_owner_uid: report.targetOwnerUid,
          reason: report.reason,
          text: report.text,
          time: report.time,
          snapshot: JSON.stringify(report.snapshot),
        })
        .onConflict((oc) =>
          oc.columns(['reporter_uid', 'target_type', 'target_id']).where('status', '=', 'open').doNothing(),
        )
        .returning('report_id')
        .executeTakeFirst();
      return row ? Number(row.report_id) : null;
    },

    byId: (reportId: number) => withReporter().where('r.report_id', '=', reportId).executeTakeFirst(),

    /** Newest first, before report `beforeId` when given, in one status and of one target type when given. */
    page(filter: { beforeId?: number; status?: 'open' | 'resolved'; targetType?: string }, limit: number) {
      let query = withReporter();
      if (filter.beforeId !== undefined) query = query.where('r.report_id', '<', filter.beforeId);
      if (filter.status) query = query.where('r.status', '=', filter.status);
      if (filter.targetType) query = query.where('r.target_type', '=', filter.targetType);
      return query.orderBy('r.report_id', 'desc').limit(limit).execute();
    },

    /**
     * Closes every open report of the target with this outcome (one decision answers all who
     * reported it); answers the reports closed, with their reporters.
     */
    async resolveTarget(
      target: { type: string; id: number },
      outcome: { action: string; note: string; byUid: number },
    ) {
      return db
        .updateTable('reports')
        .set({
          status: 'resolved',
          action: outcome.action,
          note: outcome.note,
          resolved_by: outcome.byUid,
          resolved_at: new Date(),
        })
        .where('target_type', '=', target.type)
        .where('target_id', '=', target.id)
        .where('status', '=', 'open')
        .returning(['report_id', 'reporter_uid', 'reason'])
        .execute();
    },
  };
}
