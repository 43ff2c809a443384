import { sql, type Kysely } from 'kysely';

/**
 * Media kinds: an upload (and the media item it becomes) is a video, an audio track or a photo,
 * and danmaku, comments and watch history are on a target of one of those types. Every existing
 * row stays a video. `video_id` in those tables keeps its name and holds the target's id (a
 * video, audio track or photo post id, per target_type), so the video code reads as before.
 *
 * The foreign keys to videos go (an audio id is not a video id); a trigger per kind's table
 * keeps what they did: hard-deleting a video (with its uploader's account) deletes its danmaku,
 * comments and history. Non-video targets number their comment floors in comment_floors.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['uploads', 'media']) {
    await db.schema
      .alterTable(table)
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('video').check(sql`kind IN ('video', 'audio', 'photo')`))
      .execute();
  }
  for (const table of ['danmaku', 'comments', 'watch_history']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT IF EXISTS ${sql.id(`${table}_video_id_fkey`)}`.execute(
      db,
    );
    await db.schema
      .alterTable(table)
      .addColumn('target_type', 'text', (c) =>
        c.notNull().defaultTo('video').check(sql`target_type IN ('video', 'audio', 'photo')`),
      )
      .execute();
  }
  await sql`DROP INDEX danmaku_by_time`.execute(db);
  await sql`DROP INDEX danmaku_by_age`.execute(db);
  await sql`CREATE INDEX danmaku_by_time ON danmaku (video_id, target_type, time)`.execute(db);
  await sql`CREATE INDEX danmaku_by_age ON danmaku (video_id, target_type, created_at, id)`.execute(db);
  await sql`ALTER TABLE comments DROP CONSTRAINT comments_floor`.execute(db);
  await sql`ALTER TABLE comments ADD CONSTRAINT comments_floor UNIQUE (video_id, target_type, floor)`.execute(db);
  await sql`ALTER TABLE watch_history DROP CONSTRAINT watch_history_pk`.execute(db);
  await sql`ALTER TABLE watch_history ADD CONSTRAINT watch_history_pk PRIMARY KEY (uid, target_type, video_id)`.execute(
    db,
  );

  await db.schema
    .createTable('comment_floors')
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'bigint', (c) => c.notNull())
    .addColumn('floor', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_floors_pk', ['target_type', 'target_id'])
    .execute();

  // What the foreign keys did, per target type: each section's table has a trigger that passes
  // its type and the name of its id column, e.g. forget_media_target('audio', 'audio_id').
  await sql`CREATE FUNCTION forget_media_target() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE target bigint := (to_jsonb(OLD) ->> TG_ARGV[1])::bigint;
    BEGIN
      DELETE FROM danmaku WHERE target_type = TG_ARGV[0] AND video_id = target;
      DELETE FROM comments WHERE target_type = TG_ARGV[0] AND video_id = target;
      DELETE FROM watch_history WHERE target_type = TG_ARGV[0] AND video_id = target;
      DELETE FROM comment_floors WHERE target_type = TG_ARGV[0] AND target_id = target;
      RETURN OLD;
    END $$`.execute(db);
  await sql`CREATE TRIGGER videos_forget_target AFTER DELETE ON videos FOR EACH ROW EXECUTE FUNCTION forget_media_target('video', 'video_id')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER videos_forget_target ON videos`.execute(db);
  await sql`DROP FUNCTION forget_media_target()`.execute(db);
  await db.schema.dropTable('comment_floors').execute();
  for (const table of ['danmaku', 'comments', 'watch_history']) {
    await sql`DELETE FROM ${sql.table(table)} WHERE target_type <> 'video'`.execute(db);
  }
  await sql`ALTER TABLE watch_history DROP CONSTRAINT watch_history_pk`.execute(db);
  await sql`ALTER TABLE watch_history ADD CONSTRAINT watch_history_pk PRIMARY KEY (uid, video_id)`.execute(db);
  await sql`ALTER TABLE comments DROP CONSTRAINT comments_floor`.execute(db);
  await sql`ALTER TABLE comments ADD CONSTRAINT comments_floor UNIQUE (video_id, floor)`.execute(db);
  await sql`DROP INDEX danmaku_by_time`.execute(db);
  await sql`DROP INDEX danmaku_by_age`.execute(db);
  await sql`CREATE INDEX danmaku_by_time ON danmaku (video_id, time)`.execute(db);
  await sql`CREATE INDEX danmaku_by_age ON danmaku (video_id, created_at, id)`.execute(db);
  for (const table of ['danmaku', 'comments', 'watch_history']) {
    await db.schema.alterTable(table).dropColumn('target_type').execute();
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(`${table}_video_id_fkey`)} FOREIGN KEY (video_id) REFERENCES videos (video_id) ON DELETE CASCADE`.execute(
      db,
    );
  }
  for (const table of ['uploads', 'media']) await db.schema.alterTable(table).dropColumn('kind').execute();
}
