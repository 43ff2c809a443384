import { sql, type Kysely } from 'kysely';

/**
 * Notifications (issue 27): what happened to a member (a comment on their upload, a reply, a
 * mention, a follower, likes, a review's outcome, reports), newest first, with what is unread.
 *
 * - `notifications`: one row per event, or per group (`group_key`: the likes of one item in one
 *   day are one row whose actors grow; unique per recipient). `category` is the message centre's
 *   tab, so a tab is one index range. `actor_uids` keeps the newest actors (for "A, B and 8
 *   others"), `actor_count` all of them. `mail_pending` marks what the next e-mail digest carries.
 * - Indexes: the list by (recipient, created_at, id) and by tab; the unread count from a partial
 *   index of the unread rows only (a member's count reads only what is unread, however many
 *   they read before); the digest finds its recipients in a partial index of what waits.
 * - `notification_settings`: a member's channel per kind ('site', 'email', 'off'); no row is 'site'.
 * - `notification_digests`: when a member's last digest went, so at most one goes an hour,
 *   claimed by one process (an upsert that only wins when the hour is over).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('recipient_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('group_key', 'text')
    .addColumn('actor_uids', sql`bigint[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('actor_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'bigint')
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('is_read', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('mail_pending', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX notifications_list ON notifications (recipient_uid, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX notifications_tab ON notifications (recipient_uid, category, created_at DESC, id DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX notifications_unread ON notifications (recipient_uid) WHERE NOT is_read`.execute(db);
  await sql`CREATE INDEX notifications_mail ON notifications (recipient_uid) WHERE mail_pending`.execute(db);
  await sql`CREATE UNIQUE INDEX notifications_group ON notifications (recipient_uid, group_key)`.execute(db);

  await db.schema
    .createTable('notification_settings')
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel IN ('site', 'email', 'off')`))
    .addPrimaryKeyConstraint('notification_settings_pk', ['uid', 'kind'])
    .execute();

  await db.schema
    .createTable('notification_digests')
    .addColumn('uid', 'bigint', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_digests').execute();
  await db.schema.dropTable('notification_settings').execute();
  await db.schema.dropTable('notifications').execute();
}
