import { sql, type Kysely } from 'kysely';

/**
 * Search words of one or two CJK characters (猫, 星空), the ones people type most, through an
 * index (server/repositories/search.sql.ts, decision 0020). `search_grams(text)` is every
 * one- and two-character piece of the text's runs of kana, CJK ideographs and Hangul; a GIN
 * index over it for videos, tracks and photo posts finds the items holding all of a word's pieces.
 * An expression index: nothing is stored in the rows, and every way a row is written (the
 * services, the seeder's COPY) keeps it without knowing of it. The ranges are those of `CJK` in
 * search.sql.ts. IMMUTABLE and not inlinable (it reads a set), so the planner matches the
 * indexed expression as written.
 */
const TABLES = ['videos', 'audio_tracks', 'photos'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION search_grams(doc text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT coalesce(array_agg(DISTINCT gram), '{}')
      FROM regexp_matches(doc, '[ぁ-ヿ㐀-䶿一-鿿豈-﫿가-힯]+', 'g') AS run (pieces),
        LATERAL generate_series(1, char_length(pieces[1])) AS at,
        LATERAL unnest(ARRAY[substr(pieces[1], at, 1), CASE WHEN at < char_length(pieces[1]) THEN substr(pieces[1], at, 2) END]) AS gram
      WHERE gram IS NOT NULL
    $$`.execute(db);
  for (const table of TABLES) {
    await sql`CREATE INDEX ${sql.id(`${table}_search_grams`)} ON ${sql.table(table)} USING gin (search_grams(search_text))`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql`DROP INDEX ${sql.id(`${table}_search_grams`)}`.execute(db);
  await sql`DROP FUNCTION search_grams(text)`.execute(db);
}
