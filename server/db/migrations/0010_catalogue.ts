import { sql, type Kysely } from 'kysely';

/**
 * The catalogue: committed videos with their metadata and parts, multilingual tags referenced
 * by videos, review and soft-delete operators, and watch counting (one per viewer per hour).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  await db.schema
    .alterTable('videos')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) =>
      c
        .notNull()
        .defaultTo('misc')
        .check(sql`category IN ('anime', 'music', 'otomad', 'tech', 'design', 'game', 'misc')`),
    )
    .addColumn('copyright', 'text', (c) =>
      c.notNull().defaultTo('original').check(sql`copyright IN ('original', 'authorized-repost', 'repost')`),
    )
    .addColumn('original_author', 'text')
    .addColumn('original_link', 'text')
    .addColumn('push_to_feed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('ensure_original', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cover', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('watched_count', 'bigint', (c) => c.notNull().defaultTo(0))
    // Lower-cased title and description: what keyword search matches (tags are joined in).
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reviewed_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('deleted_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX videos_listing ON videos (status, created_at DESC)`.execute(db);
  await sql`CREATE INDEX videos_uploader ON videos (uploader_uid, created_at DESC)`.execute(db);
  await sql`CREATE INDEX videos_search ON videos USING gin (search_text gin_trgm_ops)`.execute(db);

  // A video has one or more parts, each an uploaded media item (the first is the main one).
  await db.schema
    .createTable('video_parts')
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('part_index', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('media_id', 'text', (c) => c.notNull().references('media.media_id'))
    .addPrimaryKeyConstraint('video_parts_pk', ['video_id', 'part_index'])
    .addUniqueConstraint('video_parts_media', ['media_id'])
    .execute();

  await db.schema
    .createTable('tags')
    .addColumn('tag_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('created_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A tag's names per language; one is the default of its language, one is the original name.
  await db.schema
    .createTable('tag_names')
    .addColumn('tag_id', 'bigint', (c) => c.notNull().references('tags.tag_id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_original', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('tag_names_pk', ['tag_id', 'lang', 'name_lower'])
    .execute();
  await sql`CREATE INDEX tag_names_search ON tag_names USING gin (name_lower gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX tag_names_prefix ON tag_names (name_lower text_pattern_ops)`.execute(db);

  await db.schema
    .createTable('video_tags')
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('tag_id', 'bigint', (c) => c.notNull().references('tags.tag_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_tags_pk', ['video_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('video_tags_tag').on('video_tags').columns(['tag_id', 'video_id']).execute();

  // One counted view per viewer (member or hashed address) per video per hour.
  await db.schema
    .createTable('video_views')
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('viewer_key', 'text', (c) => c.notNull())
    .addColumn('hour', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('video_views_pk', ['video_id', 'viewer_key', 'hour'])
    .execute();
  await db.schema.createIndex('video_views_hour').on('video_views').column('hour').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['video_views', 'video_tags', 'tag_names', 'tags', 'video_parts'])
    await db.schema.dropTable(table).execute();
  await db.schema
    .alterTable('videos')
    .dropColumn('description')
    .dropColumn('category')
    .dropColumn('copyright')
    .dropColumn('original_author')
    .dropColumn('original_link')
    .dropColumn('push_to_feed')
    .dropColumn('ensure_original')
    .dropColumn('cover')
    .dropColumn('duration_ms')
    .dropColumn('watched_count')
    .dropColumn('search_text')
    .dropColumn('reviewed_by')
    .dropColumn('reviewed_at')
    .dropColumn('deleted_by')
    .dropColumn('deleted_at')
    .execute();
}
