/**
 * SQL: what is related to one video or track (issue 28), as a derived table `(item_id, score)`:
 * items sharing its tags (the newest 200 of each tag) score 2 per tag, its uploader's (their
 * newest 50 approved) 1, and those its latest 200 viewers or listeners also had in their history
 * (their 30 latest each) 3 per person; never the item itself. Each source reads a bounded slice
 * through an index (index-only since migration 0028), so the cost does not grow with the
 * catalogue; and only the RELATED_CANDIDATES best scores go on to be checked against the items'
 * rows (a popular video has thousands of candidates: 4 490 at 100 000 videos in bench/scale.ts).
 * A list is 50 at most, so that cut changes it only when hundreds of the best are hidden from the
 * viewer, or when scores tie across the cut (then the views that break the tie are not compared).
 */
import { sql, type RawBuilder } from 'kysely';

const RELATED_CANDIDATES = 500;

/** The tables of each kind (fixed names, never input). */
const KINDS = {
  video: { tags: 'video_tags', items: 'videos', key: 'video_id' },
  audio: { tags: 'audio_tags', items: 'audio_tracks', key: 'audio_id' },
} as const;

export function relatedCandidates(kind: keyof typeof KINDS, id: number): RawBuilder<unknown> {
  const { tags, items, key } = KINDS[kind];
  const tagsTable = sql.table(tags);
  const itemsTable = sql.table(items);
  const col = (alias: string) => sql.ref(`${alias}.${key}`);
  return sql`(
    SELECT c.item_id, sum(c.score) AS score FROM (
      SELECT ${col('other')} AS item_id, 2 AS score FROM ${tagsTable} mine
        CROSS JOIN LATERAL (SELECT ${col('t')} FROM ${tagsTable} t WHERE t.tag_id = mine.tag_id AND ${col('t')} <> ${id}
          ORDER BY ${col('t')} DESC LIMIT 200) other
        WHERE ${col('mine')} = ${id}
      UNION ALL
      SELECT ${col('w')}, 1 FROM ${itemsTable} self CROSS JOIN LATERAL (SELECT ${col('w')} FROM ${itemsTable} w
          WHERE w.uploader_uid = self.uploader_uid AND w.status = 'approved' AND ${col('w')} <> ${id}
          ORDER BY w.created_at DESC LIMIT 50) w
        WHERE ${col('self')} = ${id}
      UNION ALL
      SELECT also.video_id, 3 FROM (SELECT h.uid FROM watch_history h WHERE h.video_id = ${id} AND h.target_type = ${kind}
          ORDER BY h.updated_at DESC LIMIT 200) people
        CROSS JOIN LATERAL (SELECT h2.video_id FROM watch_history h2 WHERE h2.uid = people.uid AND h2.target_type = ${kind}
          AND h2.video_id <> ${id} ORDER BY h2.updated_at DESC LIMIT 30) also
    ) c GROUP BY c.item_id ORDER BY score DESC LIMIT ${sql.lit(RELATED_CANDIDATES)})`;
}
