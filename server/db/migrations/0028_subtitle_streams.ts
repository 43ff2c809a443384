import { sql, type Kysely } from 'kysely';

/**
 * What the transcode found in an uploaded file's subtitle and attachment streams (issue 29, "from
 * the upload"): the text tracks extracted to the media folder and waiting to become the part's
 * tracks, the fonts kept for its ASS tracks, and the notes its uploader reads (bitmap subtitles,
 * a malformed stream, a refused font). Null until the transcode looked. `stream_subtitles_adopted`
 * is set once the tracks were made (claimed once, whether by the transcode or by the commit of
 * the video, whichever comes last).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('media')
    .addColumn('stream_subtitles', 'jsonb')
    .addColumn('stream_subtitles_adopted', 'boolean', (c) => c.notNull().defaultTo(sql`false`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('stream_subtitles').dropColumn('stream_subtitles_adopted').execute();
}
