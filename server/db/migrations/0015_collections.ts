import { sql, type Kysely } from 'kysely';

/**
 * Collections (favourites, playlists): a member's lists of videos, gone with the account. A
 * video in a collection is one row with its place (position, ascending; gaps allowed), gone
 * with the collection or a hard-deleted video; a soft-deleted or unapproved video keeps its row
 * and is only left out of what is shown (and counted). Indexed for "a member's collections,
 * newest first", "a collection's videos in order", and "which collections hold this video".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('collection_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('owner_uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility', 'text', (c) =>
      c.notNull().defaultTo('private').check(sql`visibility IN ('public', 'private')`),
    )
    .addColumn('cover_video_id', 'bigint', (c) => c.references('videos.video_id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX collections_owner ON collections (owner_uid, created_at DESC, collection_id DESC)`.execute(db);
  await db.schema
    .createTable('collection_videos')
    .addColumn('collection_id', 'bigint', (c) =>
      c.notNull().references('collections.collection_id').onDelete('cascade'),
    )
    .addColumn('video_id', 'bigint', (c) => c.notNull().references('videos.video_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('collection_videos_pk', ['collection_id', 'video_id'])
    .execute();
  await sql`CREATE INDEX collection_videos_order ON collection_videos (collection_id, position, video_id)`.execute(db);
  await sql`CREATE INDEX collection_videos_video ON collection_videos (video_id, collection_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_videos').execute();
  await db.schema.dropTable('collections').execute();
}
