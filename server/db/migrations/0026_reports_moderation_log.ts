import { sql, type Kysely } from 'kysely';

/**
 * Reports and the moderation log (issue 28).
 * - `reports`: a member reports a video, track, photo post, comment, danmaku or user with one of
 *   PeerTube's reasons; at most one open report per member and target (a partial unique index, so
 *   two requests at once cannot both pass). `snapshot` keeps what was reported as it was then
 *   (a danmaku's text and moment, a comment's text), so the queue still shows it after a change.
 * - `moderation_log`: one row per staff action, only ever inserted (the API has no route that
 *   edits or deletes one).
 * - `danmaku.hidden_at`: staff can take a danmaku out of view while keeping it for the record.
 * - `watch_history_viewers`: who watched a target, newest first, for "members who watched this
 *   also watched…" in related videos.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('report_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('reporter_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'bigint', (c) => c.notNull())
    .addColumn('target_owner_uid', 'bigint')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('time', 'double precision')
    .addColumn('snapshot', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('action', 'text')
    .addColumn('note', 'text')
    .addColumn('resolved_by', 'bigint')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX reports_one_open ON reports (reporter_uid, target_type, target_id) WHERE status = 'open'`.execute(
    db,
  );
  await sql`CREATE INDEX reports_queue ON reports (status, report_id DESC)`.execute(db);
  await sql`CREATE INDEX reports_of_target ON reports (target_type, target_id) WHERE status = 'open'`.execute(db);

  await db.schema
    .createTable('moderation_log')
    .addColumn('entry_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('actor_uid', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'bigint', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX moderation_log_by_actor ON moderation_log (actor_uid, entry_id DESC)`.execute(db);
  await sql`CREATE INDEX moderation_log_by_action ON moderation_log (action, entry_id DESC)`.execute(db);

  await sql`ALTER TABLE danmaku ADD COLUMN hidden_at timestamptz`.execute(db);
  await sql`CREATE INDEX watch_history_viewers ON watch_history (video_id, target_type, updated_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX watch_history_viewers`.execute(db);
  await sql`ALTER TABLE danmaku DROP COLUMN hidden_at`.execute(db);
  await db.schema.dropTable('moderation_log').execute();
  await db.schema.dropTable('reports').execute();
}
