/**
 * SQL: which videos, tracks or photo posts a search word finds (issue 30, decision 0020). A word
 * matches an item's search text (title and description, normalized) or one of its tags' names,
 * as a substring. Each side is answered through an index, never by reading every item:
 * - words with CJK, kana or Hangul in them through `search_grams(search_text)`, every one- and
 *   two-character piece of the text's CJK runs, in a GIN index (migration 0030): the word's own
 *   pieces must all be there, then LIKE confirms they are in order. pg_trgm cannot serve these:
 *   one or two characters make no trigram, and it reads no CJK as part of a word;
 * - other words through the trigram index on `search_text` (`LIKE '%word%'`);
 * - tag names through their own trigram index, then the tag's items by `(tag_id, item)`.
 * The two sides are a UNION of ids, so the planner can use both indexes: an OR of the text test
 * and a per-item EXISTS over the tags could only be checked item by item.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { likePattern } from '../services/search-text.ts';

/**
 * The scripts `search_grams` cuts into pieces: kana, CJK ideographs (with extension A and the
 * compatibility block) and Hangul syllables. The same ranges as the function of migration 0030.
 */
export const CJK = /[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/** The tables of each kind of item (fixed names, never input). */
const SEARCHED = {
  video: { items: 'videos', key: 'video_id', tags: 'video_tags' },
  audio: { items: 'audio_tracks', key: 'audio_id', tags: 'audio_tags' },
  photo: { items: 'photos', key: 'photo_id', tags: 'photo_tags' },
} as const;

/** The word's LIKE pattern, and its test of an item's text `d.search_text` through the right index. */
export function matchOf(word: string) {
  const pattern = likePattern(word, 'contains');
  const inText = CJK.test(word)
    ? sql`search_grams(d.search_text) @> search_grams(${word}) AND d.search_text LIKE ${pattern}`
    : sql`d.search_text LIKE ${pattern}`;
  return { pattern, inText };
}

/**
 * The tag name `tn.name_lower` holds `word`: a word with CJK, kana or Hangul through the names'
 * pieces index (migration 0038), any other through their trigram index; LIKE decides.
 */
export function tagNameHolds(word: string): RawBuilder<SqlBool> {
  const pattern = likePattern(word, 'contains');
  return CJK.test(word)
    ? sql<SqlBool>`search_grams(tn.name_lower) @> search_grams(${word}) AND tn.name_lower LIKE ${pattern}`
    : sql<SqlBool>`tn.name_lower LIKE ${pattern}`;
}

/** `alias.key` is one of the items (of `kind`) whose text or tag names contain `word`. */
export function matchesSearchWord(kind: keyof typeof SEARCHED, alias: string, word: string): RawBuilder<SqlBool> {
  const { items, key, tags } = SEARCHED[kind];
  const { inText } = matchOf(word);
  return sql<SqlBool>`${sql.ref(`${alias}.${key}`)} IN (
    SELECT d.${sql.ref(key)} FROM ${sql.table(items)} d WHERE ${inText}
    UNION ALL
    SELECT t.${sql.ref(key)} FROM ${sql.table(tags)} t JOIN tag_names tn ON tn.tag_id = t.tag_id WHERE ${tagNameHolds(word)})`;
}

/**
 * The items that hold every search word, each with `tag0`, `tag1`, … (word i matched through a
 * tag name): the flags come from the same union that found the item, so ranking needs no second
 * look at the tags. At most `cap` of them, by what the ranking would favour that is known without
 * reading the items (more words in the text, then more through tags), then the newest: a very
 * common word (猫 in the tags of half the catalogue) would otherwise have every one of its items
 * read and scored to show 20.
 * Which items match is exact; only their number and which of a very common word's items are
 * ranked are bounded (decision 0020).
 */
export function searchCandidates(
  kind: keyof typeof SEARCHED,
  words: readonly string[],
  cap: number,
): RawBuilder<{ id: number }> {
  const { items, key, tags } = SEARCHED[kind];
  const perWord = words.map((word, i) => {
    const { inText } = matchOf(word);
    return sql`(SELECT id, bool_or(by_tag) AS by_tag, bool_or(NOT by_tag) AS by_text FROM (
      SELECT d.${sql.ref(key)} AS id, false AS by_tag FROM ${sql.table(items)} d WHERE ${inText}
      UNION ALL
      SELECT t.${sql.ref(key)}, true FROM ${sql.table(tags)} t JOIN tag_names tn ON tn.tag_id = t.tag_id WHERE ${tagNameHolds(word)}
    ) hits GROUP BY id) ${sql.id(`w${i}`)}`;
  });
  const joined = perWord.slice(1).reduce((from, word) => sql`${from} JOIN ${word} USING (id)`, perWord[0]);
  const flags = words.map((_, i) => sql`${sql.ref(`w${i}.by_tag`)} AS ${sql.id(`tag${i}`)}`);
  const hits = (flag: 'by_text' | 'by_tag') =>
    sql.join(
      words.map((_, i) => sql`${sql.ref(`w${i}.${flag}`)}::int`),
      sql` + `,
    );
  return sql`(SELECT id, ${sql.join(flags)} FROM ${joined} ORDER BY ${hits('by_text')} DESC, ${hits('by_tag')} DESC, id DESC LIMIT ${cap})`;
}
