import { sql, type Kysely } from 'kysely';

/**
 * Photo posts (issue 13): one to thirty images with alt text, reviewed before they are public.
 * A post is `processing` while its images are rendered, then `pending` (review), `approved`,
 * `failed` (an image could not be rendered; `failure` says why) or `deleted` (soft, with who).
 * Each image is one finished upload (its media item) and, once rendered, its upright size, the
 * widths written and a blurred placeholder; camera data only when the uploader agreed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('photos')
    .addColumn('photo_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('uploader_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('copyright', 'text', (c) =>
      c.notNull().check(sql`copyright IN ('original', 'authorized-repost', 'repost')`),
    )
    .addColumn('original_author', 'text')
    .addColumn('keep_camera_data', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('processing')
        .check(sql`status IN ('processing', 'pending', 'approved', 'failed', 'deleted')`),
    )
    .addColumn('failure', 'text')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reviewed_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('deleted_by', 'bigint', (c) => c.references('users.uid'))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX photos_listing ON photos (status, created_at DESC, photo_id DESC)`.execute(db);
  await sql`CREATE INDEX photos_uploader ON photos (uploader_uid, created_at DESC)`.execute(db);
  await sql`CREATE INDEX photos_search ON photos USING gin (search_text gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('photo_images')
    .addColumn('image_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('photo_id', 'bigint', (c) => c.notNull().references('photos.photo_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('media_id', 'text', (c) => c.notNull().unique().references('media.media_id'))
    .addColumn('alt', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('widths', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('animated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('placeholder', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('camera', 'jsonb')
    .execute();
  await sql`CREATE INDEX photo_images_order ON photo_images (photo_id, position)`.execute(db);

  await db.schema
    .createTable('photo_tags')
    .addColumn('photo_id', 'bigint', (c) => c.notNull().references('photos.photo_id').onDelete('cascade'))
    .addColumn('tag_id', 'bigint', (c) => c.notNull().references('tags.tag_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('photo_tags_pk', ['photo_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('photo_tags_tag').on('photo_tags').columns(['tag_id', 'photo_id']).execute();
  // A post deleted for good (with its uploader's account) takes its comments and history with it (0017).
  await sql`CREATE TRIGGER photos_forget_target AFTER DELETE ON photos FOR EACH ROW EXECUTE FUNCTION forget_media_target('photo', 'photo_id')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER photos_forget_target ON photos`.execute(db);
  await db.schema.dropTable('photo_tags').execute();
  await db.schema.dropTable('photo_images').execute();
  await db.schema.dropTable('photos').execute();
}
