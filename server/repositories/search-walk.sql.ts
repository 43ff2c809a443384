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
 * Several words (walkWords) walk the rarest word's rankings the same way and score the other words
 * on each row read. A word of one or two Latin letters has no piece: alone, or with only such
 * words, it goes the way of the candidate union (searchCandidates).
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { likePattern } from '../services/search-text.ts';
import { videoVisibleToViewer } from './block-lists.sql.ts';
import { CJK, matchOf, tagNameHolds } from './search.sql.ts';
import { PREPARED } from '../db/prepared.ts';

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

/** Runs of the scripts `search_grams` cuts (the `CJK` ranges). */
const CJK_RUNS = new RegExp(`${CJK.source}+`, 'g');

/**
 * The pieces a title line (search_text's first) is kept under in `video_title_terms`, as the
 * database's `search_title_terms` cuts them (migration 0033): the one- and two-character pieces of
 * its CJK runs, and the three-character pieces of its space-separated words that hold no CJK.
 * For writers that skip the triggers (the scale seeder's COPY); tests/api/scale-seed.test.ts
 * checks both give the same rows.
 */
export function titleTermsOf(line: string): string[] {
  const terms = new Set<string>();
  for (const [run] of line.matchAll(CJK_RUNS)) {
    const chars = [...run];
    for (let at = 0; at < chars.length; at += 1) {
      terms.add(chars[at]);
      if (at + 1 < chars.length) terms.add(chars[at] + chars[at + 1]);
    }
  }
  for (const word of line.split(' ')) {
    const chars = [...word];
    for (let at = 0; at + 3 <= chars.length; at += 1) {
      const piece = chars[at] + chars[at + 1] + chars[at + 2];
      if (!CJK.test(piece)) terms.add(piece);
    }
  }
  return [...terms];
}

/** How many of a piece's rows are counted to choose the rarest piece of a word. */
const RARITY_PROBE = 2000;
/** At most how many of the driver's title rows are counted for an estimated count. */
const ESTIMATE_PROBE = 50_000;

/**
 * The approved videos (visible to `viewerUid`) that match `word`, best first: at least the first
 * `pageEnd` of them (all of them up to `limit`, unless the page ends before the descriptions'
 * matches), and how many match, at most `limit`. Null when the word has no title piece.
 */
export async function walkOneWord(
  db: Kysely<Database>,
  word: string,
  viewerUid: number | null | undefined,
  limit: number,
  pageEnd: number,
): Promise<{ ids: number[]; count: number } | null> {
  const found = titlePiecesOf(word);
  if (!found) return null;
  const pattern = likePattern(word, 'contains');
  const visible = viewerUid ? videoVisibleToViewer(viewerUid) : sql<SqlBool>`true`;
  let piece = found.pieces[0];
  if (found.pieces.length > 1) {
    const pieces = sql.join([...new Set(found.pieces)].map((p) => sql`(${p})`));
    piece = (
      await sql<{ piece: string }>`SELECT u.piece FROM (VALUES ${pieces}) AS u (piece)
      ORDER BY (SELECT count(*) FROM (SELECT 1 FROM video_title_terms p WHERE p.term = u.piece LIMIT ${RARITY_PROBE}) s), u.piece LIMIT 1`.execute(
        db,
      )
    ).rows[0]!.piece;
  }
  const ids: number[] = [];
  // The video of each row is read in the walk's order (a lateral subquery the planner keeps as
  // such), so the walk stops at `limit`: joined, the planner read every video to check the titles.
  const checked =
    viewerUid || !found.exact
      ? sql`AND EXISTS (SELECT 1 FROM videos v WHERE v.video_id = p.video_id
        ${found.exact ? sql`` : sql`AND split_part(v.search_text, chr(10), 1) LIKE ${pattern}`} AND ${visible} OFFSET 0)`
      : sql``;
  const byTitle = sql<{
    video_id: number;
  }>`SELECT p.video_id FROM video_title_terms p WHERE p.term = ${piece} ${checked}
    ORDER BY p.bucket DESC, p.video_id DESC LIMIT ${limit}`;
  for (const row of (await byTitle.execute(db)).rows) ids.push(row.video_id);
  if (ids.length >= limit) return { ids, count: limit };

  const byTag = (
    await sql<{ video_id: number; bucket: number }>`SELECT r.video_id, r.bucket
    FROM (SELECT DISTINCT tn.tag_id FROM tag_names tn WHERE ${tagNameHolds(word)}) t
    CROSS JOIN LATERAL (SELECT r.video_id, r.bucket FROM video_tag_ranks r
      WHERE r.tag_id = t.tag_id AND r.video_id NOT IN ${idList(ids)}
        ${viewerUid ? sql`AND EXISTS (SELECT 1 FROM videos v WHERE v.video_id = r.video_id AND ${visible} OFFSET 0)` : sql``}
      ORDER BY r.bucket DESC, r.video_id DESC LIMIT ${limit - ids.length}) r`.execute(db)
  ).rows;
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
    const { n } = (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM (SELECT 1 ${described} LIMIT ${limit - ids.length}) s`.execute(db)
    ).rows[0]!;
    return { ids, count: ids.length + Number(n) };
  }
  const rows = (
    await sql<{ video_id: number }>`SELECT d.video_id ${described}
    ORDER BY search_bucket(d.watched_count) DESC, d.video_id DESC LIMIT ${limit - ids.length}`.execute(db)
  ).rows;
  for (const row of rows) ids.push(row.video_id);
  return { ids, count: ids.length };
}

/** What a row of the rarest word's walk scores for that word: its title, one of its tags, its description. */
const LEVELS = [3, 2, 1] as const;
/** Rows of the rarest word read per statement: `limit` first, doubled up to this many times `limit`. */
const LAST_BATCH_TIMES = 8;
/** Above every (bucket, video_id) of the rankings: where a walk starts. */
const TOP = { bucket: 32767, id: 2147483647 };

/**
 * Several words (all must match), ranked as one word is: each scores 3 in the title, else 2 in one
 * of its tags' names, else 1 in the description, summed; then popularity, then the newest. The
 * rarest word (its rarest title piece, by a bounded count) is read in its ranking's order, level
 * by level (its title matches, its tag matches, its description matches), and every row is scored
 * on all the words; a row missing a word is skipped. Rows not yet read score at most
 * `level + 3 (n - 1)` and come later in popularity and age than those read at that level, so the
 * walk stops once `limit` matches are found (the count, "at most limit") and the `pageEnd`-th best
 * found outranks them (a higher score, or the same and not after the walk's position): the page
 * is the full ranking's. The description level is one statement ranked by the whole score. Two
 * common words that rarely share a title find no row of the top score, so they read the driver's
 * whole title level (decision 0020, third addendum). Null when no word has a title piece.
 * With `exactBelow` under `cap`, the walk reads only until max(pageEnd, exactBelow) matches: the
 * count is exact below that and estimated past it, at most `cap` (fifth addendum).
 */
export async function walkWords(
  db: Kysely<Database>,
  words: readonly string[],
  viewerUid: number | null | undefined,
  cap: number,
  pageEnd: number,
  exactBelow = cap,
): Promise<{ ids: number[]; count: number; estimated: boolean } | null> {
  // The matches the walk must find: the page's, and `exactBelow` for an exact count below it.
  const limit = Math.min(cap, Math.max(pageEnd, exactBelow));
  const pieces = words.flatMap((word, index) =>
    (titlePiecesOf(word)?.pieces ?? []).map((piece) => sql`(${index}, ${piece})`),
  );
  if (!pieces.length) return null;
  // Each word's tags, found once: looked up per row, the planner read tag_names again for every row.
  const tagged = sql.join(
    words.map((word, i) => sql`SELECT ${i}::int AS word, tn.tag_id FROM tag_names tn WHERE ${tagNameHolds(word)}`),
    sql` UNION `,
  );
  // Every piece by rarity (how many title rows, counted up to RARITY_PROBE): the rarest drives
  // the walk, each other word's rarest bounds its title below. Asked beside the tags: two
  // statements that wait for each other on a busy machine cost two turns.
  const [rarity, tagRows] = await Promise.all([
    sql<{
      word: number;
      piece: string;
      n: number;
    }>`SELECT u.word, u.piece, r.n FROM (VALUES ${sql.join(pieces)}) AS u (word, piece)
    CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM (SELECT 1 FROM video_title_terms p WHERE p.term = u.piece LIMIT ${RARITY_PROBE}) s) r
    ORDER BY r.n, u.word, u.piece`.execute(db),
    sql<{ word: number; tag_id: number }>`${tagged}`.execute(db),
  ]);
  const byRarity = rarity.rows.map((row) => ({ word: Number(row.word), piece: row.piece, n: Number(row.n) })); // a VALUES parameter comes back as text
  const rarest = byRarity[0]!;
  const driverAt = rarest.word;
  const driver = words[driverAt]!;
  const tagsOf = words.map(() => [] as number[]);
  for (const row of tagRows.rows) tagsOf[row.word]!.push(Number(row.tag_id));
  // One array parameter, not a list: 猫 is in ~1 000 tag names at a million videos, and a list of
  // that many values in each score's subquery cost the planner 30-75 ms a statement under load.
  const inTags = (i: number) => sql`ANY(${tagsOf[i]!}::bigint[])`;
  const scoreOf = (i: number) => {
    const pattern = likePattern(words[i]!, 'contains');
    return sql`CASE WHEN split_part(v.search_text, chr(10), 1) LIKE ${pattern} THEN 3
      WHEN EXISTS (SELECT 1 FROM video_tags vt WHERE vt.video_id = v.video_id AND vt.tag_id = ${inTags(i)}) THEN 2
      WHEN v.search_text LIKE ${pattern} THEN 1 ELSE 0 END`;
  };
  const others = words.flatMap((_, i) => (i === driverAt ? [] : [scoreOf(i)]));
  const visible = viewerUid ? videoVisibleToViewer(viewerUid) : sql<SqlBool>`true`;
  /** The row's whole score when the driver scores `level` on it and every other word is there and it may be shown, else 0. */
  const totalAt = (level: number) => sql<number>`CASE WHEN (${scoreOf(driverAt)}) = ${level} ${sql.join(
    others.map((s) => sql`AND (${s}) > 0`),
    sql` `,
  )} AND ${visible}
    THEN ${level} ${sql.join(
      others.map((s) => sql`+ (${s})`),
      sql` `,
    )} ELSE 0 END`;
  /** The row's whole score when every word is there and it may be shown, else 0 (whatever the driver scores). */
  const totalOf = sql<number>`CASE WHEN (${scoreOf(driverAt)}) > 0 ${sql.join(
    others.map((s) => sql`AND (${s}) > 0`),
    sql` `,
  )} AND ${visible}
    THEN (${scoreOf(driverAt)}) ${sql.join(
      others.map((s) => sql`+ (${s})`),
      sql` `,
    )} ELSE 0 END`;
  /** The row `w` of a walk, scored (the video read by its key, once per row: OFFSET 0 keeps the subquery as it is). */
  const scored = (level: number | null) =>
    sql`CROSS JOIN LATERAL (SELECT ${level === null ? totalOf : totalAt(level)} AS total FROM videos v WHERE v.video_id = w.video_id OFFSET 0) s`;
  const step = (level: number, after: typeof TOP, batch: number) =>
    level === 3
      ? sql<Found>`${PREPARED} SELECT w.video_id, w.bucket, s.total FROM (SELECT p.video_id, p.bucket FROM video_title_terms p
        WHERE p.term = ${rarest.piece} AND (p.bucket, p.video_id) < (${after.bucket}, ${after.id})
        ORDER BY p.bucket DESC, p.video_id DESC LIMIT ${batch}) w ${scored(level)}`
      : sql<Found>`${PREPARED} SELECT w.video_id, w.bucket, s.total FROM (SELECT DISTINCT r.bucket, r.video_id
        FROM (SELECT t.tag_id FROM tags t WHERE t.tag_id = ${inTags(driverAt)}) t
        CROSS JOIN LATERAL (SELECT r.video_id, r.bucket FROM video_tag_ranks r WHERE r.tag_id = t.tag_id AND (r.bucket, r.video_id) < (${after.bucket}, ${after.id})
          ORDER BY r.bucket DESC, r.video_id DESC LIMIT ${batch}) r
        ORDER BY r.bucket DESC, r.video_id DESC LIMIT ${batch}) w ${scored(level)}`;

  const found: Found[] = [];
  const seen = new Set<number>();
  const keep = (rows: Found[]) => {
    for (const row of rows)
      if (Number(row.total) > 0 && !seen.has(row.video_id)) {
        seen.add(row.video_id);
        found.push({ video_id: row.video_id, bucket: Number(row.bucket), total: Number(row.total) });
      }
  };
  /** Rows of the driver's title (3) and tags (2) read in the walk's order, and how many matched at that level: samples for the estimate. */
  const sample: Record<number, { read: number; matched: number }> = {
    3: { read: 0, matched: 0 },
    2: { read: 0, matched: 0 },
  };
  const sampled = (level: number, rows: Found[]) => {
    sample[level]!.read += rows.length;
    sample[level]!.matched += rows.filter((row) => Number(row.total) > 0).length;
  };
  /** A level's rows (counted, at most as many as could lift its share to `cap`) times the share of its sample that matched. */
  const extrapolated = async (level: number, rowsOf: (enough: number) => Promise<number>) => {
    const { read, matched } = sample[level]!;
    return matched ? ((await rowsOf(Math.min(ESTIMATE_PROBE, Math.ceil((cap * read) / matched)))) * matched) / read : 0;
  };
  const countUpTo = async (rows: RawBuilder<unknown>, enough: number) =>
    Number(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${rows} LIMIT ${enough}) s`.execute(db)).rows[0]!.n,
    );
  /**
   * The driver's title rows, for the estimate, when there are too many for the rarity's count to
   * tell: counted (up to ESTIMATE_PROBE) beside the walk's first reads rather than after them.
   */
  const titleRows =
    limit < cap && rarest.n >= RARITY_PROBE
      ? countUpTo(sql`SELECT 1 FROM video_title_terms p WHERE p.term = ${rarest.piece}`, ESTIMATE_PROBE)
      : null;
  titleRows?.catch(() => {}); // awaited by the estimate, if it is needed
  /**
   * How many match in all, once the walk has found `limit` of them: `cap` when that is what it
   * read to; else an estimate (decision 0020, fifth addendum), never less than what was found:
   * the driver's title rows times the share of them that matched in the walk's first batch, plus
   * its tags' rows (where it is not in the title) times the share of a first batch of those.
   * Matches only through the driver's description are not estimated.
   */
  const estimate = async (): Promise<{ count: number; estimated: boolean }> => {
    if (limit >= cap) return { count: Math.min(cap, found.length), estimated: false };
    return { count: await estimatedCount(), estimated: true };
  };
  const estimatedCount = async (): Promise<number> => {
    let total = await extrapolated(3, async (enough) =>
      rarest.n < RARITY_PROBE || enough <= RARITY_PROBE ? rarest.n : await titleRows!,
    );
    if (total < cap && tagsOf[driverAt]!.length) {
      if (!sample[2]!.read) sampled(2, (await step(2, TOP, limit).execute(db)).rows);
      total += await extrapolated(2, (enough) =>
        countUpTo(sql`SELECT 1 FROM video_tag_ranks r WHERE r.tag_id = ${inTags(driverAt)}`, enough),
      );
    }
    return Math.min(cap, Math.max(found.length, Math.round(total)));
  };
  const best = () => found.sort((a, b) => b.total - a.total || b.bucket - a.bucket || b.video_id - a.video_id);
  const wanted = Math.min(pageEnd, limit);
  /**
   * Whether the `wanted`-th best found outranks every row not read: those score at most `ceiling`,
   * and, when `after` is given, come after it in popularity and age (else in any order).
   */
  const settled = (ceiling: number, after: typeof TOP | null) => {
    const last = best()[wanted - 1];
    return (
      last !== undefined &&
      (last.total > ceiling ||
        (last.total === ceiling &&
          after !== null &&
          (last.bucket > after.bucket || (last.bucket === after.bucket && last.video_id >= after.id))))
    );
  };
  const k = others.length;
  /**
   * Another word scores 3 on a row only if the row is in the rankings of that word's title pieces.
   * The rows where one may (the driver's title rows in another word's rarest piece, and that
   * piece's rows under one of the driver's tags) are read once the first batch has settled neither
   * the page nor the count: at most the page's rows of the first and `limit` of the second (it
   * finds matches for the count more cheaply) in the walk's order, found through the
   * rankings' keys (a merge of two pieces' rows; a probe of each piece row's tags), then scored.
   * Every other row of the driver's title then scores at most 3 + 2 per other word, and one under
   * a driver's tag 2 + 2 per other word, so two common words that rarely share a title stop once
   * the page and the count are found, instead of reading the driver's whole title to rule out a
   * row of the top score (decision 0020, fourth addendum). Only when every other word has a title
   * piece (one or two Latin letters have none).
   */
  const otherPieces = words.flatMap((_, i) => {
    if (i === driverAt) return [];
    const piece = byRarity.find((row) => row.word === i)?.piece;
    return piece === undefined ? [null] : [piece];
  });
  const bounded = otherPieces.every((piece) => piece !== null);
  /** What the first reads left unread, as (ceiling, after), until the walk of `level` has read it all. */
  const pending: Array<{ ceiling: number; after: typeof TOP; level: number }> = [];
  /** Keeps a first read's rows; a full batch (of `read`) leaves rows past its last, scoring at most `ceiling`, for `level`'s walk. */
  const keepFirstRead = (rows: Found[], read: number, ceiling: number, level: number) => {
    keep(rows);
    if (rows.length < read) return;
    const last = rows[rows.length - 1]!;
    pending.push({ ceiling, after: { bucket: Number(last.bucket), id: last.video_id }, level });
  };
  let sharedRead = false;
  let crossedRead = false;
  /** The driver's title rows in another word's rarest piece: a merge of two rankings. */
  const readShared = async () => {
    sharedRead = true;
    const inOthers = sql.join(
      (otherPieces as string[]).map(
        (piece) =>
          sql`EXISTS (SELECT 1 FROM video_title_terms b WHERE b.term = ${piece} AND b.bucket = a.bucket AND b.video_id = a.video_id)`,
      ),
      sql` OR `,
    );
    const shared = (
      await sql<Found>`${PREPARED} SELECT w.video_id, w.bucket, s.total FROM (SELECT a.video_id, a.bucket FROM video_title_terms a
        WHERE a.term = ${rarest.piece} AND (${inOthers})
        ORDER BY a.bucket DESC, a.video_id DESC LIMIT ${wanted}) w ${scored(null)}`.execute(db)
    ).rows;
    keepFirstRead(shared, wanted, 3 + 3 * k, 3);
  };
  /**
   * Another word's rarest piece's rows under one of the driver's tags: each piece row's own tags
   * probed by its key (OFFSET 0 keeps the probe per row; as a join, the planner hashed every video
   * of the driver's tags, 188 000 for 星空 at a million).
   */
  const readCrossed = async () => {
    crossedRead = true;
    if (!tagsOf[driverAt]!.length) return;
    const pieces = [...new Set(otherPieces as string[])];
    const crossed = (
      await sql<Found>`${PREPARED} SELECT w.video_id, w.bucket, s.total FROM (SELECT ${pieces.length > 1 ? sql`DISTINCT` : sql``} b.video_id, b.bucket
        FROM video_title_terms b WHERE b.term IN (${sql.join(pieces)})
          AND EXISTS (SELECT 1 FROM video_tags vt WHERE vt.video_id = b.video_id AND vt.tag_id = ${inTags(driverAt)} OFFSET 0)
        ORDER BY b.bucket DESC, b.video_id DESC LIMIT ${limit}) w ${scored(null)}`.execute(db)
    ).rows;
    keepFirstRead(crossed, limit, 2 + 3 * k, 2);
  };
  /** The most a row not read may score, per kind of row (after: null = in any order), while the walk is at `level` (done: past it). */
  const ceilings = (level: number, after: typeof TOP, done: boolean) => {
    if (!sharedRead) return [done ? { ceiling: level - 1 + 3 * k, after: null } : { ceiling: level + 3 * k, after }];
    // Under a driver's tag: another word in its title only among the crossed rows, once read.
    const tagged = crossedRead ? 2 + 2 * k : 2 + 3 * k;
    const rest: Array<{ ceiling: number; after: typeof TOP | null }> = [
      ...pending.filter((unread) => unread.level < level || (unread.level === level && !done)),
      { ceiling: 1 + 3 * k, after: null },
    ];
    if (level === 3 && !done) rest.push({ ceiling: 3 + 2 * k, after }, { ceiling: tagged, after: null });
    if (level === 3 && done) rest.push({ ceiling: tagged, after: null });
    if (level === 2 && !done) rest.push({ ceiling: tagged, after });
    return rest;
  };
  const settledAll = (bounds: Array<{ ceiling: number; after: typeof TOP | null }>) =>
    bounds.every((bound) => settled(bound.ceiling, bound.after));
  for (const level of LEVELS.slice(0, 2)) {
    if (level === 2 && !tagsOf[driverAt]!.length) continue;
    let after = TOP;
    for (let batch = limit; ; batch = Math.min(batch * 2, limit * LAST_BATCH_TIMES)) {
      const rows = (await step(level, after, batch).execute(db)).rows;
      keep(rows);
      sampled(level, rows);
      const done = rows.length < batch;
      if (!done) after = { bucket: Number(rows[rows.length - 1]!.bucket), id: rows[rows.length - 1]!.video_id };
      // A title phrase ("starry sky") settles in its first batch; the others read the rows that
      // bound the rest, and the crossed rows (every one a match, for the count), once.
      if (
        level === 3 &&
        bounded &&
        !sharedRead &&
        !(found.length >= limit && settledAll(ceilings(level, after, done)))
      ) {
        await Promise.all([readShared(), readCrossed()]);
      }
      // Not read yet: the rest of this level (the driver's level, and 3 for every other word),
      // or once it is done, the next level's rows in any order.
      if (found.length >= limit && settledAll(ceilings(level, after, done))) {
        return {
          ids: best()
            .slice(0, limit)
            .map((row) => row.video_id),
          ...(await estimate()),
        };
      }
      if (done) break;
    }
  }
  // The driver in the description only: ranked by the whole score in one statement, or only
  // counted when what was found already fills the page with more than such a row can score.
  const described = sql`FROM videos d CROSS JOIN LATERAL (SELECT ${totalAt(1)} AS total FROM (SELECT d.video_id, d.uploader_uid, d.search_text) v) s
    WHERE ${matchOf(driver).inText} AND d.status = 'approved' AND s.total > 0`;
  if (settled(1 + 3 * k, null)) {
    const n =
      found.length >= limit
        ? 0
        : (
            await sql<{
              n: number;
            }>`SELECT count(*)::int AS n FROM (SELECT 1 ${described} LIMIT ${limit - found.length}) c`.execute(db)
          ).rows[0]!.n;
    const count = Math.min(limit, found.length + Number(n));
    return {
      ids: best()
        .slice(0, limit)
        .map((row) => row.video_id),
      ...(count < limit ? { count, estimated: false } : await estimate()),
    };
  }
  const rows = (
    await sql<Found>`SELECT d.video_id, search_bucket(d.watched_count) AS bucket, s.total ${described}
    ORDER BY s.total DESC, 2 DESC, d.video_id DESC LIMIT ${limit}`.execute(db)
  ).rows;
  keep(rows);
  const ids = best()
    .slice(0, limit)
    .map((row) => row.video_id);
  return { ids, ...(ids.length < limit ? { count: ids.length, estimated: false } : await estimate()) };
}
interface Found {
  video_id: number;
  bucket: number;
  total: number;
}

/** `(id, …)` for NOT IN, never empty. */
const idList = (ids: readonly number[]) => sql`(${sql.join(ids.length ? ids : [0])})`;
