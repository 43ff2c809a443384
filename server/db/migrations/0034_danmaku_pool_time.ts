import { sql, type Kysely } from 'kysely';

/**
 * A video's pool read without its older danmaku (decision 0034): a list walks `danmaku_by_age`
 * from the newest and stops at the pool's cap, then reads only the rows of the segment asked for.
 * The entries carry the time, so which of the pool fall in the segment is known from the index
 * alone (no visit to the table for the thousands outside it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX danmaku_by_age`.execute(db);
  await sql`CREATE INDEX danmaku_by_age ON danmaku (video_id, target_type, created_at, id) INCLUDE (time)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX danmaku_by_age`.execute(db);
  await sql`CREATE INDEX danmaku_by_age ON danmaku (video_id, target_type, created_at, id)`.execute(db);
}
