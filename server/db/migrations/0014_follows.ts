import { sql, type Kysely } from 'kysely';

/**
 * Who follows whom (SPEC §7 "Feed"): one row per pair, gone with either account. Indexed both
 * ways, newest first: "whom does X follow" (X's followings) and "who follows X" (X's followers
 * and their count). The feed walks the newest approved videos (videos_listing) and keeps those of
 * followed uploaders (follows_pk), from the newest video any of them pushed to the feed: one
 * probe per followed uploader of a partial index of exactly those videos (videos_feed).
 * bench/feed.ts shows the plan and its cost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('follows')
    .addColumn('follower_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('followed_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('follows_pk', ['follower_uid', 'followed_uid'])
    .addCheckConstraint('follows_not_self', sql`follower_uid <> followed_uid`)
    .execute();
  await sql`CREATE INDEX follows_following ON follows (follower_uid, created_at DESC, followed_uid DESC)`.execute(db);
  await sql`CREATE INDEX follows_followers ON follows (followed_uid, created_at DESC, follower_uid DESC)`.execute(db);
  await sql`CREATE INDEX videos_feed ON videos (uploader_uid, created_at DESC, video_id DESC) WHERE status = 'approved' AND push_to_feed`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX videos_feed`.execute(db);
  await db.schema.dropTable('follows').execute();
}
