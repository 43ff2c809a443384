import { sql, type Kysely } from 'kysely';

/**
 * An ASS track's own cut of the bundled CJK fallback font (issue 29, the first line within
 * 300 ms): made when the track is added, holding only the characters its lines use, stored beside
 * the track's files as `fallback.ttf`. Tracks made before have none; the player then loads the
 * whole fallback as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE video_subtitles ADD COLUMN fallback_font boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE video_subtitles DROP COLUMN fallback_font`.execute(db);
}
