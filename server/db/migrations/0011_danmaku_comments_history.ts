import { sql, type Kysely } from 'kysely';

/** Danmaku, comments with votes, and watch history (with the setting that turns it off). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('danmaku')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    // Seconds into the video (fractions allowed).
    .addColumn('time', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull().check(sql`color ~ '^[0-9a-f]{6}$'`))
    .addColumn('font_size', 'text', (c) => c.notNull().check(sql`font_size IN ('small', 'medium', 'large')`))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode IN ('rtl', 'ltr', 'top', 'bottom')`))
    .addColumn('rainbow', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX danmaku_by_time ON danmaku (video_id, time)`.execute(db);
  await sql`CREATE INDEX danmaku_by_age ON danmaku (video_id, created_at, id)`.execute(db);

  // Floors are numbered per video from a counter on the video row (an atomic increment).
  await db.schema
    .alterTable('videos')
    .addColumn('comment_floor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('comments')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('floor', 'integer', (c) => c.notNull())
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    // Sanitised HTML (an allow-list of formatting tags, no attributes).
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('upvote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downvote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('deleted_by', 'bigint', (c) => c.references('users.uid'))
    .addUniqueConstraint('comments_floor', ['video_id', 'floor'])
    .execute();
  await db.schema
    .createTable('comment_votes')
    .addColumn('comment_id', 'bigint', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('vote', 'smallint', (c) => c.notNull().check(sql`vote IN (-1, 1)`))
    .addPrimaryKeyConstraint('comment_votes_pk', ['comment_id', 'uid'])
    .execute();

  await db.schema
    .createTable('watch_history')
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    // The last playback position, in seconds.
    .addColumn('anchor', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('watch_history_pk', ['uid', 'video_id'])
    .execute();
  await sql`CREATE INDEX watch_history_recent ON watch_history (uid, updated_at DESC)`.execute(db);
  await db.schema
    .alterTable('user_settings')
    .addColumn('history_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('history_enabled').execute();
  for (const table of ['watch_history', 'comment_votes', 'comments', 'danmaku'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('videos').dropColumn('comment_floor').execute();
}
