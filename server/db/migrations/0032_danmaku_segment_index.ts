import { sql, type Kysely } from 'kysely';

/**
 * A danmaku segment at size (issue 30: 50 000 danmaku on one video, bench/scale.ts). The segment's
 * rows came from a bitmap scan of `danmaku_by_time` (video, kind, time), a visit to the heap for
 * each row, then a sort by (time, id) that spilled to disk: 42 ms of 50 000 rows before a byte
 * was sent, and at a real site, where one video's danmaku are spread over the table by the time
 * they were sent, one heap page per row. This index keeps the visible danmaku in the list's order
 * with every column the answer carries, so a segment is one index-only walk in order, with no
 * sort, and its count and newest id come from the same walk. It replaces `danmaku_by_time`: every
 * read by time also asks for visible danmaku only (hidden ones are rare and read by id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX danmaku_by_time`.execute(db);
  await sql`CREATE INDEX danmaku_segment ON danmaku (video_id, target_type, time, id)
    INCLUDE (text, color, font_size, mode, rainbow, created_at) WHERE hidden_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX danmaku_segment`.execute(db);
  await sql`CREATE INDEX danmaku_by_time ON danmaku (video_id, target_type, time)`.execute(db);
}
