import { sql, type Kysely } from 'kysely';

/**
 * Comment pages at size (issue 30; decision 0039). A target's count of shown threads (top-level
 * comments not deleted, or deleted with a live reply still under them) was counted on every page
 * read: 17 541 index entries for the busiest video at a million videos. It is now kept in
 * `comment_thread_counts` by triggers, in the same transaction as the comment's insert, deletion
 * or hard delete (a cascade from an account or an item included), so no process needs a notice.
 * A thread head keeps how many live replies it has (`live_replies`), which is what decides
 * whether a deleted head still shows.
 *
 * The pages are read from two partial indexes of the shown heads that are not pinned, one per
 * order (newest: floor; hot: score, then floor), each carrying the author (the viewer's blocks)
 * and the votes: a keyset cursor walks them from a page's edge, and a numbered page skips its
 * offset within the index alone. They replace comments_top_level.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE comments ADD COLUMN live_replies integer NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE comments h SET live_replies = r.n
    FROM (SELECT parent_id, count(*)::int AS n FROM comments WHERE parent_id IS NOT NULL AND deleted_at IS NULL GROUP BY 1) r
    WHERE h.id = r.parent_id`.execute(db);
  await sql`CREATE TABLE comment_thread_counts (
    target_type text NOT NULL,
    target_id bigint NOT NULL,
    threads integer NOT NULL,
    PRIMARY KEY (target_type, target_id))`.execute(db);
  await sql`INSERT INTO comment_thread_counts
    SELECT target_type, video_id, count(*) FROM comments
    WHERE parent_id IS NULL AND (deleted_at IS NULL OR live_replies > 0) GROUP BY 1, 2`.execute(db);

  // A reply that comes or goes live moves its head's live_replies; a head that comes to show or
  // stops showing moves its target's count (the head's own update fires this again, one level).
  await sql`CREATE FUNCTION keep_comment_thread_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      shown_before boolean := TG_OP <> 'INSERT' AND OLD.parent_id IS NULL AND (OLD.deleted_at IS NULL OR OLD.live_replies > 0);
      shown_after boolean := TG_OP <> 'DELETE' AND NEW.parent_id IS NULL AND (NEW.deleted_at IS NULL OR NEW.live_replies > 0);
      live_before boolean := TG_OP <> 'INSERT' AND OLD.parent_id IS NOT NULL AND OLD.deleted_at IS NULL;
      live_after boolean := TG_OP <> 'DELETE' AND NEW.parent_id IS NOT NULL AND NEW.deleted_at IS NULL;
      row_now comments := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    BEGIN
      IF shown_before <> shown_after THEN
        INSERT INTO comment_thread_counts AS k (target_type, target_id, threads)
          VALUES (row_now.target_type, row_now.video_id, CASE WHEN shown_after THEN 1 ELSE -1 END)
          ON CONFLICT (target_type, target_id) DO UPDATE SET threads = k.threads + EXCLUDED.threads;
      END IF;
      IF live_before <> live_after THEN
        UPDATE comments SET live_replies = live_replies + CASE WHEN live_after THEN 1 ELSE -1 END
          WHERE id = row_now.parent_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER comments_thread_counts_rows AFTER INSERT OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION keep_comment_thread_counts()`.execute(db);
  await sql`CREATE TRIGGER comments_thread_counts_changes AFTER UPDATE OF deleted_at, live_replies ON comments
    FOR EACH ROW EXECUTE FUNCTION keep_comment_thread_counts()`.execute(db);

  const shownHeads = sql`parent_id IS NULL AND NOT pinned AND (deleted_at IS NULL OR live_replies > 0)`;
  // The id (what a page picks), the author (a viewer's blocks) and, for hot, the votes the score
  // is made of: a page's heads are chosen by an index-only scan.
  await sql`CREATE INDEX comments_heads_new ON comments (video_id, target_type, floor)
    INCLUDE (id, uid) WHERE ${shownHeads}`.execute(db);
  await sql`CREATE INDEX comments_heads_hot ON comments (video_id, target_type, (upvote_count - downvote_count), floor)
    INCLUDE (id, uid, upvote_count, downvote_count) WHERE ${shownHeads}`.execute(db);
  // Whose threads a viewer's blocks hide on one target (the personal part of the count).
  await sql`CREATE INDEX comments_author_heads ON comments (uid, video_id, target_type) WHERE parent_id IS NULL`.execute(
    db,
  );
  await sql`DROP INDEX comments_top_level`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX comments_top_level ON comments (video_id, target_type, id) WHERE parent_id IS NULL`.execute(
    db,
  );
  await sql`DROP INDEX comments_author_heads`.execute(db);
  await sql`DROP INDEX comments_heads_hot`.execute(db);
  await sql`DROP INDEX comments_heads_new`.execute(db);
  await sql`DROP TRIGGER comments_thread_counts_changes ON comments`.execute(db);
  await sql`DROP TRIGGER comments_thread_counts_rows ON comments`.execute(db);
  await sql`DROP FUNCTION keep_comment_thread_counts()`.execute(db);
  await sql`DROP TABLE comment_thread_counts`.execute(db);
  await sql`ALTER TABLE comments DROP COLUMN live_replies`.execute(db);
}
