import { sql, type Kysely } from 'kysely';

/**
 * The related list (server/repositories/related.sql.ts) at size (issue 28's goal, bench/scale.ts):
 * with 100 000 videos and 1 000 000 history rows its co-viewing source visited the heap 6 000
 * times (200 viewers' latest 30 each) and its uploader source read every video of the uploader
 * to sort them. The same keys, now carrying what those reads need, so each is an index-only walk
 * that stops at its LIMIT:
 * - `watch_history_viewers` (video_id, target_type, updated_at DESC) carries uid;
 * - `watch_history_recent` (uid, updated_at DESC) carries target_type and video_id;
 * - `videos_uploader` (uploader_uid, created_at DESC) carries status and video_id.
 * Key columns and their order do not change, so every query that used them still can.
 */
const INDEXES = {
  watch_history_viewers: ['watch_history (video_id, target_type, updated_at DESC)', 'uid'],
  watch_history_recent: ['watch_history (uid, updated_at DESC)', 'target_type, video_id'],
  videos_uploader: ['videos (uploader_uid, created_at DESC)', 'status, video_id'],
} as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, [on, include]] of Object.entries(INDEXES)) {
    await sql`DROP INDEX ${sql.id(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.raw(on)} INCLUDE (${sql.raw(include)})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, [on]] of Object.entries(INDEXES)) {
    await sql`DROP INDEX ${sql.id(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.raw(on)}`.execute(db);
  }
}
