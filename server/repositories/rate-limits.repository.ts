/** The rate_limits table: one fixed-window counter per key, shared by every server instance. */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface RateWindow {
  count: number;
  windowStart: Date;
}

export function createRateLimitsRepository(db: Kysely<Database>) {
  return {
    /**
     * Counts one hit atomically: a window opened before `windowFloor` starts again at `now`.
     * Answers the window's count so far and when it opened.
     */
    async countHit(key: string, now: Date, windowFloor: Date): Promise<RateWindow> {
      const { rows } = await sql<{ count: number; window_start: Date }>`
        INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${now}, 1)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.window_start <= ${windowFloor} THEN 1 ELSE rate_limits.count + 1 END,
          window_start = CASE WHEN rate_limits.window_start <= ${windowFloor} THEN ${now} ELSE rate_limits.window_start END
        RETURNING count, window_start`.execute(db);
      return { count: rows[0].count, windowStart: new Date(rows[0].window_start) };
    },

    /** The key's counter, counting nothing. */
    async window(key: string): Promise<RateWindow | null> {
      const row = await db
        .selectFrom('rate_limits')
        .select(['count', 'window_start'])
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? { count: row.count, windowStart: new Date(row.window_start) } : null;
    },

    async deleteWindowsOpenedBefore(time: Date): Promise<void> {
      await db.deleteFrom('rate_limits').where('window_start', '<', time).execute();
    },
  };
}

export type RateLimitsRepository = ReturnType<typeof createRateLimitsRepository>;
