import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';

export interface Limit { limit: number; windowMs: number }

/** Named limits (per IP and per account), in one place. */
export const LIMITS = {
  loginPerIp: { limit: 30, windowMs: 15 * 60_000 },
  loginPerAccount: { limit: 10, windowMs: 15 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  codePerIp: { limit: 20, windowMs: 60 * 60_000 },
  lookupPerIp: { limit: 120, windowMs: 60_000 },
  // One danmaku per 3 s, and no more than 20 a minute even when spaced.
  danmakuPerUser: { limit: 1, windowMs: 3_000 },
  danmakuBurstPerUser: { limit: 20, windowMs: 60_000 },
  commentPerUser: { limit: 10, windowMs: 60_000 },
} satisfies Record<string, Limit>;

/**
 * Counts one hit in a fixed window, atomically in the database (so every server instance
 * shares it), and refuses with 429 and Retry-After once the window's limit is passed.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, { limit, windowMs }: Limit): Promise<void> {
  const now = new Date();
  const windowFloor = new Date(now.getTime() - windowMs);
  const { rows } = await sql<{ count: number; window_start: Date }>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${now}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start <= ${windowFloor} THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN rate_limits.window_start <= ${windowFloor} THEN ${now} ELSE rate_limits.window_start END
    RETURNING count, window_start`.execute(db);
  const { count, window_start } = rows[0];
  if (count > limit) {
    const retryAfter = Math.max(1, Math.ceil((new Date(window_start).getTime() + windowMs - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', { headers: { 'Retry-After': String(retryAfter) }, extra: { retryAfterSeconds: retryAfter } });
  }
}
