import { sql, type Kysely } from 'kysely';

/**
 * Search of a very common word at a million videos (issue 30, decision 0020's second addendum).
 * The ranking is "title over tags over description, then popularity, then the newest": here the
 * approved videos are kept in that order per title piece and per tag, so a word's best matches are
 * an index walk that stops at the page, instead of a union of every match (600 000 tag rows for 猫).
 * - `video_title_terms (term, bucket, video_id)`: each piece of an approved video's title: its
 *   CJK pieces (`search_grams`) and the three-character pieces of its other words;
 * - `video_tag_ranks (tag_id, bucket, video_id)`: each tag of an approved video;
 * - `bucket` is the popularity: `search_bucket(watched_count)`, the bit length of the view count
 *   (0, 1, 2-3, 4-7, …), so a view moves a video's rows only when the count doubles.
 * Triggers keep them on every write of a video's status, title, view count or tags (the services,
 * the hot-counter flush, the demo seeder); the scale seeder's COPY runs without triggers and fills
 * them at the end (`fillSearchPostings`), as this migration does for the videos already there.
 * Descriptions and rare words keep the GIN and trigram indexes of `search_text`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION search_bucket(views bigint) RETURNS smallint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT length(ltrim(greatest(views, 0)::bit(64)::text, '0'))::smallint
    $$`.execute(db);
  // The title is search_text's first line. A word without CJK has no space and no CJK character,
  // so its three-character pieces are among those of one of the title's words, without CJK.
  await sql`
    CREATE FUNCTION search_title_terms(doc text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT term), '{}') FROM (
        SELECT unnest(search_grams(split_part(doc, chr(10), 1))) AS term
        UNION ALL
        SELECT substr(word, at, 3) FROM regexp_split_to_table(split_part(doc, chr(10), 1), ' ') AS word,
          LATERAL generate_series(1, char_length(word) - 2) AS at
      ) pieces WHERE char_length(term) < 3 OR term !~ '[ぁ-ヿ㐀-䶿一-鿿豈-﫿가-힯]'
    $$`.execute(db);
  await sql`CREATE TABLE video_title_terms (term text NOT NULL, bucket smallint NOT NULL, video_id integer NOT NULL)`.execute(
    db,
  );
  await sql`CREATE TABLE video_tag_ranks (tag_id integer NOT NULL, bucket smallint NOT NULL, video_id integer NOT NULL)`.execute(
    db,
  );
  await sql`INSERT INTO video_title_terms SELECT term, search_bucket(v.watched_count), v.video_id
    FROM videos v, unnest(search_title_terms(v.search_text)) AS term WHERE v.status = 'approved'`.execute(db);
  await sql`INSERT INTO video_tag_ranks SELECT t.tag_id, search_bucket(v.watched_count), v.video_id
    FROM videos v JOIN video_tags t ON t.video_id = v.video_id WHERE v.status = 'approved'`.execute(db);
  await sql`ALTER TABLE video_title_terms ADD PRIMARY KEY (term, bucket, video_id)`.execute(db);
  await sql`ALTER TABLE video_tag_ranks ADD PRIMARY KEY (tag_id, bucket, video_id)`.execute(db);

  // A video's rows go when it stops being approved, or its title or popularity bucket changes, and
  // come back as they are now. A video deleted outright loses its tags through the foreign key's
  // own trigger first (its name sorts before these), and the tags' rows with them (below).
  await sql`
    CREATE FUNCTION video_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND OLD.status = 'approved' THEN
        DELETE FROM video_title_terms WHERE term = ANY (search_title_terms(OLD.search_text))
          AND bucket = search_bucket(OLD.watched_count) AND video_id = OLD.video_id;
        DELETE FROM video_tag_ranks WHERE tag_id IN (SELECT tag_id FROM video_tags WHERE video_id = OLD.video_id)
          AND bucket = search_bucket(OLD.watched_count) AND video_id = OLD.video_id;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.status = 'approved' THEN
        INSERT INTO video_title_terms SELECT term, search_bucket(NEW.watched_count), NEW.video_id FROM unnest(search_title_terms(NEW.search_text)) AS term;
        INSERT INTO video_tag_ranks SELECT tag_id, search_bucket(NEW.watched_count), NEW.video_id FROM video_tags WHERE video_id = NEW.video_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER video_search_postings_written AFTER INSERT OR DELETE ON videos FOR EACH ROW EXECUTE FUNCTION video_search_postings()`.execute(
    db,
  );
  await sql`CREATE TRIGGER video_search_postings_changed AFTER UPDATE OF status, search_text, watched_count ON videos FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.search_text IS DISTINCT FROM NEW.search_text
      OR search_bucket(OLD.watched_count) <> search_bucket(NEW.watched_count))
    EXECUTE FUNCTION video_search_postings()`.execute(db);

  await sql`
    CREATE FUNCTION video_tag_search_postings() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      video record;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO video_tag_ranks SELECT NEW.tag_id, search_bucket(v.watched_count), v.video_id FROM videos v
          WHERE v.video_id = NEW.video_id AND v.status = 'approved';
        RETURN NULL;
      END IF;
      SELECT status, watched_count INTO video FROM videos WHERE video_id = OLD.video_id;
      IF NOT FOUND THEN
        DELETE FROM video_tag_ranks WHERE tag_id = OLD.tag_id AND video_id = OLD.video_id;
      ELSIF video.status = 'approved' THEN
        DELETE FROM video_tag_ranks WHERE tag_id = OLD.tag_id AND bucket = search_bucket(video.watched_count) AND video_id = OLD.video_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER video_tag_search_postings AFTER INSERT OR DELETE ON video_tags FOR EACH ROW EXECUTE FUNCTION video_tag_search_postings()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER video_tag_search_postings ON video_tags`.execute(db);
  await sql`DROP TRIGGER video_search_postings_changed ON videos`.execute(db);
  await sql`DROP TRIGGER video_search_postings_written ON videos`.execute(db);
  await sql`DROP FUNCTION video_tag_search_postings()`.execute(db);
  await sql`DROP FUNCTION video_search_postings()`.execute(db);
  await sql`DROP TABLE video_tag_ranks`.execute(db);
  await sql`DROP TABLE video_title_terms`.execute(db);
  await sql`DROP FUNCTION search_title_terms(text)`.execute(db);
  await sql`DROP FUNCTION search_bucket(bigint)`.execute(db);
}
