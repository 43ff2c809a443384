/**
 * A one-word video search in its ranked order, read as far as needed (issue 30, decision 0020's
 * second addendum). The ranking is title over tags over description, then popularity
 * (`search_bucket` of the views: doubling steps), then the newest. Titles and tags are kept in
 * that order by piece and by tag (`video_title_terms`, `video_tag_ranks`, migration 0033), so:
 * 1. title matches: one walk of the word's title piece in order, stopped at the wanted rows (for a
 *    word that is not a piece itself, the walk takes its rarest piece and checks the title);
 * 2. tag matches, when the titles gave fewer: one walk per matching tag, each stopped the same way;
 * 3. description matches, when both gave fewer: through the GIN and trigram indexes of
 *    `search_text` (decision 0020), ordered, or only counted when the page is already full.
 * A word of one or two Latin letters has no piece: it goes the way of several words (searchCandidates).
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { likePattern } from '../services/search-text.ts';
import { videoVisibleToViewer } from './block-lists.sql.ts';
import { CJK, matchOf } from './search.sql.ts';

/** The title pieces a word can be found through, and whether the word is one of them (no title check needed). */
export function titlePiecesOf(word: string): { pieces: string[]; exact: boolean } | null {
  const chars = [...word];
  if (chars.every((c) => CJK.test(c))) {
    if (chars.length <= 2) return { pieces: [word], exact: true };
    return { pieces: chars.slice(1).map((c, i) => chars[i] + c), exact: false };
  }
  const cjk = chars.filter((c) => CJK.test(c));
  if (cjk.length) return { pieces: cjk, exact: false };
  if (chars.length < 3) return null;
  return { pieces: chars.slice(2).map((c, i) => chars[i] + chars[i + 1] + c), exact: false };
}

/** How many of a piece's rows are counted to choose the rarest piece of a word. */
const RARITY_PROBE = 2000;

/**
 * The approved videos (visible to `viewerUid`) that match `word`, best first: at least the first
 * `pageEnd` of them (all of them up to `limit`, unless the page ends before the descriptions'
 * matches), and how many match, at most `limit`. Null when the word has no title piece.
 */
export async function walkOneWord(db: Kysely<Database>, word: string, viewerUid: number | null | undefined, limit: number, pageEnd: number): Promise<{ ids: number[]; count: number } | null> {
  const found = titlePiecesOf(word);
  if (!found) return null;
  const pattern = likePattern(word, 'contains');
  const visible = viewerUid ? videoVisibleToViewer(viewerUid) : sql<SqlBool>`true`;
  let piece = found.pieces[0];
  if (found.pieces.length > 1) {
    const pieces = sql.join([...new Set(found.pieces)].map((p) => sql`(${p})`));
    piece = (await sql<{ piece: string }>`SELECT u.piece FROM (VALUES ${pieces}) AS u (piece)
      ORDER BY (SELECT count(*) FROM (SELECT 1 FROM video_title_terms p WHERE p.term = u.piece LIMIT ${RARITY_PROBE}) s), u.piece LIMIT 1`.execute(db)).rows[0]!.piece;
  }
  const ids: number[] = [];
  // The video of each row is read in the walk's order (a lateral subquery the planner keeps as
  // such), so the walk stops at `limit`: joined, the planner read every video to check the titles.
  const checked = viewerUid || !found.exact
    ? sql`AND EXISTS (SELECT 1 FROM videos v WHERE v.video_id = p.video_id
        ${found.exact ? sql`` : sql`AND split_part(v.search_text, chr(10), 1) LIKE ${pattern}`} AND ${visible} OFFSET 0)`
    : sql``;
  const byTitle = sql<{ video_id: number }>`SELECT p.video_id FROM video_title_terms p WHERE p.term = ${piece} ${checked}
    ORDER BY p.bucket DESC, p.video_id DESC LIMIT ${limit}`;
  for (const row of (await byTitle.execute(db)).rows) ids.push(row.video_id);
  if (ids.length >= limit) return { ids, count: limit };

  const byTag = (await sql<{ video_id: number; bucket: number }>`SELECT r.video_id, r.bucket
    FROM (SELECT DISTINCT tn.tag_id FROM tag_names tn WHERE tn.name_lower LIKE ${pattern}) t
    CROSS JOIN LATERAL (SELECT r.video_id, r.bucket FROM video_tag_ranks r
      WHERE r.tag_id = t.tag_id AND r.video_id NOT IN ${idList(ids)}
        ${viewerUid ? sql`AND EXISTS (SELECT 1 FROM videos v WHERE v.video_id = r.video_id AND ${visible} OFFSET 0)` : sql``}
      ORDER BY r.bucket DESC, r.video_id DESC LIMIT ${limit - ids.length}) r`.execute(db)).rows;
  byTag.sort((a, b) => b.bucket - a.bucket || b.video_id - a.video_id);
  for (const row of byTag) {
    if (ids.length >= limit) break;
    if (ids[ids.length - 1] !== row.video_id) ids.push(row.video_id); // one video under two matching tags comes twice, side by side
  }
  if (ids.length >= limit) return { ids, count: limit };

  // Descriptions: `v` is the row itself, for the block lists' test.
  const described = sql`FROM videos d CROSS JOIN LATERAL (SELECT d.video_id, d.uploader_uid) v
    WHERE ${matchOf(word).inText} AND d.status = 'approved' AND d.video_id NOT IN ${idList(ids)} AND ${visible}`;
  if (ids.length >= pageEnd) {
    // The page is full: how many more match is all that is needed.
    const { n } = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (SELECT 1 ${described} LIMIT ${limit - ids.length}) s`.execute(db)).rows[0]!;
    return { ids, count: ids.length + Number(n) };
  }
  const rows = (await sql<{ video_id: number }>`SELECT d.video_id ${described}
    ORDER BY search_bucket(d.watched_count) DESC, d.video_id DESC LIMIT ${limit - ids.length}`.execute(db)).rows;
  for (const row of rows) ids.push(row.video_id);
  return { ids, count: ids.length };
}

/** `(id, …)` for NOT IN, never empty. */
const idList = (ids: readonly number[]) => sql`(${sql.join(ids.length ? ids : [0])})`;
