import type { Repositories } from '../repositories/index.ts';
import { DomainError } from '../domain/errors.ts';

export { LIMITS, type Limit } from '../../src/lib/api/limits.ts';
import { LIMITS, LIMIT_KEY_PREFIX, type Limit, type RateLimitName } from '../../src/lib/api/limits.ts';

type RateLimitRepositories = Pick<Repositories, 'rateLimits'>;

/**
 * Counts one hit in a fixed window, atomically in the database (so every server instance
 * shares it); answers the window's count so far and when it opened.
 */
export async function countHit(
  repositories: RateLimitRepositories,
  key: string,
  { windowMs }: Limit,
): Promise<{ count: number; windowStart: Date }> {
  const now = new Date();
  return repositories.rateLimits.countHit(key, now, new Date(now.getTime() - windowMs));
}

/** Counts one hit and refuses with 429 and Retry-After once the window's limit is passed. */
export async function hitRateLimit(repositories: RateLimitRepositories, key: string, limit: Limit): Promise<void> {
  const { count, windowStart } = await countHit(repositories, key, limit);
  if (count > limit.limit) {
    const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + limit.windowMs - Date.now()) / 1000));
    throw new DomainError('RATE_LIMITED', { retryAfterSeconds: retryAfter, extra: { retryAfterSeconds: retryAfter } });
  }
}

/** Whether the key's current window has reached its limit, counting nothing (see countHit). */
export async function limitReached(
  repositories: RateLimitRepositories,
  key: string,
  { limit, windowMs }: Limit,
): Promise<boolean> {
  const window = await repositories.rateLimits.window(key);
  return !!window && window.windowStart.getTime() > Date.now() - windowMs && window.count >= limit;
}

/** Counters whose window closed before the longest limit's began: nothing reads them again. */
export async function pruneRateLimits(repositories: RateLimitRepositories): Promise<void> {
  const longest = Math.max(...Object.values(LIMITS).map((l) => l.windowMs));
  await repositories.rateLimits.deleteWindowsOpenedBefore(new Date(Date.now() - longest));
}

/** The named limits of src/lib/api/limits.ts, counted per subject (an address, a uid, an account). */
export function createRateLimitService(repositories: RateLimitRepositories) {
  return {
    /** Counts one hit of a named limit for this subject, refusing once it is passed. */
    hit: (name: RateLimitName, subject: string | number) =>
      hitRateLimit(repositories, `${LIMIT_KEY_PREFIX[name]}:${subject}`, LIMITS[name]),
    prune: () => pruneRateLimits(repositories),
  };
}
