import { sql, type Kysely } from 'kysely';

/**
 * The sitemap index at size (issue 30): its files and their dates were one grouping of every
 * approved video (467 ms at 1 000 000 videos, bench/README.md "scale"). With the file number and
 * the date in one index, each file's first entry and its newest date are one descent each, so the
 * index of 500 files reads about 1 000 entries (server/repositories/sitemap-files.sql.ts). The
 * file size in the expression is SITEMAP_VIDEOS_PER_FILE (2000); a site configured with another
 * size keeps the grouping.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX videos_sitemap_files ON videos (((video_id - 1) / 2000), (coalesce(reviewed_at, created_at))) WHERE status = 'approved'`.execute(
    db,
  );
  await sql`CREATE INDEX audio_tracks_sitemap_files ON audio_tracks (((audio_id - 1) / 2000), (coalesce(reviewed_at, created_at))) WHERE status = 'approved'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX audio_tracks_sitemap_files`.execute(db);
  await sql`DROP INDEX videos_sitemap_files`.execute(db);
}
