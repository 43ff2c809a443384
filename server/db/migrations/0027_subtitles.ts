import { sql, type Kysely } from 'kysely';

/**
 * Subtitle tracks of a video's parts (issue 29): a BCP 47 language, a label and a format; the
 * files (the original and its WebVTT) live under the part's media folder, named by the track's id,
 * so they follow the video's review state as its streams do. A track goes with its video's part
 * row. Danmaku brought in from a Bilibili XML file are marked `imported` (stored under the
 * importing uploader's account: the file's sender hashes are not kept).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('video_subtitles')
    .addColumn('subtitle_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('part_index', 'integer', (c) => c.notNull())
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format IN ('ass', 'srt', 'vtt')`))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('member').check(sql`source IN ('member', 'stream')`))
    .addColumn('created_by', 'bigint', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX video_subtitles_video ON video_subtitles (video_id, part_index, subtitle_id)`.execute(db);
  await sql`ALTER TABLE danmaku ADD COLUMN imported boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE danmaku DROP COLUMN imported`.execute(db);
  await db.schema.dropTable('video_subtitles').execute();
}
