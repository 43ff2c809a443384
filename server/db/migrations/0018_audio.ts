import { sql, type Kysely } from 'kysely';

/**
 * Audio tracks: a committed audio upload with its metadata, tags, review state and plays, and
 * what the audio pipeline learns of the file (waveform peaks, EBU R128 loudness, an embedded
 * cover) on its media row. A track's danmaku, comments and history are those of target type
 * 'audio' (migration 0017); the trigger forgets them with a hard-deleted track.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('media')
    // ~1000 peak levels, 0..1, over the whole track.
    .addColumn('waveform', 'jsonb')
    // Integrated loudness (LUFS) and true peak (dBTP), so players can normalise.
    .addColumn('loudness_lufs', 'double precision')
    .addColumn('true_peak_db', 'double precision')
    // The embedded cover the pipeline extracted (a file beside the renditions), if any.
    .addColumn('cover_file', 'text')
    .execute();

  await db.schema
    .createTable('audio_tracks')
    .addColumn('audio_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('uploader_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('media_id', 'text', (c) => c.notNull().unique().references('media.media_id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('artist', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) =>
      c
        .notNull()
        .defaultTo('music')
        .check(sql`category IN ('anime', 'music', 'otomad', 'tech', 'design', 'game', 'misc')`),
    )
    .addColumn('copyright', 'text', (c) =>
      c.notNull().defaultTo('original').check(sql`copyright IN ('original', 'authorized-repost', 'repost')`),
    )
    .addColumn('original_author', 'text')
    .addColumn('original_link', 'text')
    // An uploaded cover (images service); null: the embedded one, if the file had one.
    .addColumn('cover', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('play_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status IN ('pending', 'approved', 'deleted')`),
    )
    .addColumn('reviewed_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('deleted_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX audio_tracks_listing ON audio_tracks (status, created_at DESC)`.execute(db);
  await sql`CREATE INDEX audio_tracks_popular ON audio_tracks (status, play_count DESC)`.execute(db);
  await sql`CREATE INDEX audio_tracks_uploader ON audio_tracks (uploader_uid, created_at)`.execute(db);
  await sql`CREATE INDEX audio_tracks_search ON audio_tracks USING gin (search_text gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('audio_tags')
    .addColumn('audio_id', 'bigint', (c) => c.notNull().references('audio_tracks.audio_id').onDelete('cascade'))
    .addColumn('tag_id', 'bigint', (c) => c.notNull().references('tags.tag_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('audio_tags_pk', ['audio_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('audio_tags_tag').on('audio_tags').columns(['tag_id', 'audio_id']).execute();

  // One counted play per listener (member or hashed address) per track per hour.
  await db.schema
    .createTable('audio_plays')
    .addColumn('audio_id', 'bigint', (c) => c.notNull().references('audio_tracks.audio_id').onDelete('cascade'))
    .addColumn('listener_key', 'text', (c) => c.notNull())
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('audio_plays_pk', ['audio_id', 'listener_key', 'hour'])
    .execute();

  await sql`CREATE TRIGGER audio_tracks_forget_target AFTER DELETE ON audio_tracks FOR EACH ROW EXECUTE FUNCTION forget_media_target('audio', 'audio_id')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER audio_tracks_forget_target ON audio_tracks`.execute(db);
  for (const table of ['audio_plays', 'audio_tags', 'audio_tracks']) await db.schema.dropTable(table).execute();
  await db.schema
    .alterTable('media')
    .dropColumn('waveform')
    .dropColumn('loudness_lufs')
    .dropColumn('true_peak_db')
    .dropColumn('cover_file')
    .execute();
}
