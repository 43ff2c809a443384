import { sql, type Kysely } from 'kysely';

/**
 * A category's page at size (issue 30, tests/api/query-plans.test.ts): its videos came from the
 * site-wide listing index filtered by category, and its count, one in seven videos at 100 000,
 * was a sequential scan of every video (63 ms there, growing with the site). The approved videos
 * of a category in listing order: the page walks it and stops at its LIMIT, and the count is an
 * index-only scan of that category alone (1.8 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX videos_category_listing ON videos (category, created_at DESC, video_id DESC) WHERE status = 'approved'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX videos_category_listing`.execute(db);
}
