/**
 * The SQL of counts taken once per person per hour and added in write windows (docs/decisions/
 * 0023): a video's views and a track's plays. Each has an hourly record table (who was counted
 * this hour) and a count column on the item's row, which only the window's write touches.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface HourlyCount {
  /** The items' table, its id column, its count column. */
  items: string;
  id: string;
  count: string;
  /** The hourly records' table, its item column, its person column. */
  records: string;
  recordId: string;
  person: string;
}
export const VIDEO_VIEWS: HourlyCount = {
  items: 'videos',
  id: 'video_id',
  count: 'watched_count',
  records: 'video_views',
  recordId: 'video_id',
  person: 'viewer_key',
};
export const AUDIO_PLAYS: HourlyCount = {
  items: 'audio_tracks',
  id: 'audio_id',
  count: 'play_count',
  records: 'audio_plays',
  recordId: 'audio_id',
  person: 'listener_key',
};

/**
 * Records `person` for the approved item in the current hour, in one statement that never locks
 * the item's row: undefined when the item is not approved; `counted` false when this person was
 * recorded this hour already. `stored` is the count on the row (what waits in a window is the caller's).
 */
export async function recordOncePerHour(
  db: Kysely<Database>,
  c: HourlyCount,
  id: number,
  person: string,
): Promise<{ stored: number; counted: boolean } | undefined> {
  const { rows } = await sql<{ stored: string; counted: boolean }>`
    WITH item AS (SELECT ${sql.ref(c.count)} AS stored FROM ${sql.table(c.items)} WHERE ${sql.ref(c.id)} = ${id} AND status = 'approved'),
    recorded AS (
      INSERT INTO ${sql.table(c.records)} (${sql.ref(c.recordId)}, ${sql.ref(c.person)}, hour) SELECT ${id}, ${person}, date_trunc('hour', now()) FROM item
      ON CONFLICT DO NOTHING RETURNING 1
    )
    SELECT stored, EXISTS (SELECT 1 FROM recorded) AS counted FROM item`.execute(db);
  return rows[0] && { stored: Number(rows[0].stored), counted: rows[0].counted };
}

/**
 * Adds a window's counts to their items in one statement. The rows are locked in id order first,
 * so two processes writing the same items never deadlock.
 */
export async function addCounts(
  db: Kysely<Database>,
  c: HourlyCount,
  counts: ReadonlyMap<number, number>,
): Promise<void> {
  if (!counts.size) return;
  const ids = [...counts.keys()];
  await sql`
    WITH locked AS (SELECT ${sql.ref(c.id)} AS id FROM ${sql.table(c.items)} WHERE ${sql.ref(c.id)} = ANY(${sql.val(ids)}::bigint[]) ORDER BY ${sql.ref(c.id)} FOR UPDATE)
    UPDATE ${sql.table(c.items)} AS i SET ${sql.ref(c.count)} = i.${sql.ref(c.count)} + d.n
    FROM unnest(${sql.val(ids)}::bigint[], ${sql.val(ids.map((id) => counts.get(id)!))}::int[]) AS d(id, n)
    WHERE i.${sql.ref(c.id)} = d.id AND d.id IN (SELECT id FROM locked)`.execute(db);
}
