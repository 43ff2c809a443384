import { sql, type Kysely } from 'kysely';

/**
 * Collections hold audio tracks and photo posts beside videos (issue 13): an item names its
 * target by type and id, as danmaku, comments and history do (0017); `video_id` keeps its name
 * and holds the target's id. The foreign key to videos goes (a track id is not a video id): the
 * per-kind trigger that forgets a hard-deleted target's danmaku, comments and history now takes
 * its collection items too, as the foreign key did for videos.
 */
/** The trigger function of 0017, taking the target's collection items too (`withCollections`) or not (as before). */
async function forgetMediaTarget(db: Kysely<unknown>, withCollections: boolean): Promise<void> {
  const collectionItems = withCollections
    ? sql`DELETE FROM collection_videos WHERE target_type = TG_ARGV[0] AND video_id = target;`
    : sql``;
  await sql`CREATE OR REPLACE FUNCTION forget_media_target() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE target bigint := (to_jsonb(OLD) ->> TG_ARGV[1])::bigint;
    BEGIN
      DELETE FROM danmaku WHERE target_type = TG_ARGV[0] AND video_id = target;
      DELETE FROM comments WHERE target_type = TG_ARGV[0] AND video_id = target;
      DELETE FROM watch_history WHERE target_type = TG_ARGV[0] AND video_id = target;
      DELETE FROM comment_floors WHERE target_type = TG_ARGV[0] AND target_id = target;
      ${collectionItems}
      RETURN OLD;
    END $$`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE collection_videos DROP CONSTRAINT IF EXISTS collection_videos_video_id_fkey`.execute(db);
  await db.schema
    .alterTable('collection_videos')
    .addColumn('target_type', 'text', (c) =>
      c.notNull().defaultTo('video').check(sql`target_type IN ('video', 'audio', 'photo')`),
    )
    .execute();
  await sql`ALTER TABLE collection_videos DROP CONSTRAINT collection_videos_pk`.execute(db);
  await sql`ALTER TABLE collection_videos ADD CONSTRAINT collection_videos_pk PRIMARY KEY (collection_id, target_type, video_id)`.execute(
    db,
  );
  await sql`DROP INDEX collection_videos_video`.execute(db);
  await sql`CREATE INDEX collection_videos_video ON collection_videos (video_id, target_type, collection_id)`.execute(
    db,
  );
  await forgetMediaTarget(db, true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await forgetMediaTarget(db, false);
  await sql`DELETE FROM collection_videos WHERE target_type <> 'video'`.execute(db);
  await sql`DROP INDEX collection_videos_video`.execute(db);
  await sql`CREATE INDEX collection_videos_video ON collection_videos (video_id, collection_id)`.execute(db);
  await sql`ALTER TABLE collection_videos DROP CONSTRAINT collection_videos_pk`.execute(db);
  await sql`ALTER TABLE collection_videos ADD CONSTRAINT collection_videos_pk PRIMARY KEY (collection_id, video_id)`.execute(
    db,
  );
  await db.schema.alterTable('collection_videos').dropColumn('target_type').execute();
  await sql`ALTER TABLE collection_videos ADD CONSTRAINT collection_videos_video_id_fkey FOREIGN KEY (video_id) REFERENCES videos (video_id) ON DELETE CASCADE`.execute(
    db,
  );
}
