import { sql, type Kysely } from 'kysely';

/**
 * The font names an ASS track's lines use (its styles' Fontname and `\fn` overrides), read when
 * the track is added (issue 29, the first line within 300 ms): the player gives libass only the
 * part's attachments the track names, not every font the MKV carried. NULL for tracks made before
 * and for SRT and WebVTT: those are given every font of their part, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE video_subtitles ADD COLUMN font_names text[]`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE video_subtitles DROP COLUMN font_names`.execute(db);
}
