import { sql, type Kysely } from 'kysely';

/**
 * Conversations (issue 27): replies attached to a top-level comment, the people a comment
 * mentions, one pinned comment per item; and likes on videos, tracks and photo posts.
 *
 * Likes are counted in sharded counters (docs/decisions/0015): each like adds one to one of
 * LIKE_COUNTER_SHARDS rows of its item, picked at random, so a hot item's writers rarely wait on
 * the same row lock; the count is the sum of an item's shards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A reply's parent is always a top-level comment (replies to replies attach to the same one).
  await sql`ALTER TABLE comments
    ADD COLUMN parent_id bigint REFERENCES comments(id) ON DELETE CASCADE,
    ADD COLUMN mentions jsonb NOT NULL DEFAULT '[]'::jsonb,
    ADD COLUMN pinned boolean NOT NULL DEFAULT false`.execute(db);
  await sql`CREATE INDEX comments_thread ON comments (parent_id, id) WHERE parent_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX comments_top_level ON comments (video_id, target_type, id) WHERE parent_id IS NULL`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX comments_one_pin ON comments (video_id, target_type) WHERE pinned`.execute(db);

  await sql`CREATE TABLE media_likes (
    target_type text NOT NULL CHECK (target_type IN ('video', 'audio', 'photo')),
    target_id bigint NOT NULL,
    uid bigint NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (target_type, target_id, uid))`.execute(db);
  await sql`CREATE INDEX media_likes_by_member ON media_likes (uid, created_at DESC)`.execute(db);
  await sql`CREATE TABLE like_counter_shards (
    target_type text NOT NULL,
    target_id bigint NOT NULL,
    shard smallint NOT NULL,
    likes bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (target_type, target_id, shard))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE like_counter_shards`.execute(db);
  await sql`DROP TABLE media_likes`.execute(db);
  await sql`DROP INDEX comments_one_pin`.execute(db);
  await sql`DROP INDEX comments_top_level`.execute(db);
  await sql`DROP INDEX comments_thread`.execute(db);
  await sql`ALTER TABLE comments DROP COLUMN pinned, DROP COLUMN mentions, DROP COLUMN parent_id`.execute(db);
}
