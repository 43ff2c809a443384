/** Test helper: an account's password guessed at from many addresses, as a distributed attack does. */
import { expect } from 'vitest';
import type { TestServer } from './harness.ts';
import { LIMITS } from '../../server/services/rate-limit.ts';

/**
 * Sends wrong passwords for `email` until the account is under attack (LIMITS.loginFailuresPerAccount),
 * from as many addresses (`{prefix}.{n}.1`) as the per-address limits need; each is refused as
 * any wrong password is, and none of these addresses is used again.
 */
export async function guessUntilUnderAttack(server: TestServer, email: string, prefix: string) {
  const perAddress = LIMITS.loginPerAccountIp.limit;
  const answers = await Promise.all(
    Array.from({ length: LIMITS.loginFailuresPerAccount.limit }, async (_, i) => {
      const response = await server.api('user/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `${prefix}.${Math.floor(i / perAddress)}.1` },
        body: JSON.stringify({ email, password: `guess number ${i}` }),
      });
      return ((await response.json()) as { code?: string }).code;
    }),
  );
  expect(new Set(answers)).toEqual(new Set(['INVALID_CREDENTIALS']));
}
