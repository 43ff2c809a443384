import { sql, type Kysely } from 'kysely';

/**
 * Tag names found by a word of one or two CJK characters (星空, 猫) through an index, as item
 * texts are (migration 0030, decision 0020): their trigram index has nothing to offer below three
 * characters, so every search with such a word read all of `tag_names` (60 000 rows at a million
 * videos, 5-45 ms of a search of two words under load). `search_grams(name_lower)` in a GIN index:
 * a word's pieces must all be there, then LIKE confirms they are in order (search.sql.ts,
 * `tagNameHolds`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX tag_names_search_grams ON tag_names USING gin (search_grams(name_lower))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX tag_names_search_grams`.execute(db);
}
