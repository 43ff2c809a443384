/**
 * The first-run page's one power: making the site's first administrator from the browser, for a
 * self-hoster who has no shell beside the server. Open only while no administrator (or root)
 * exists, and only to whoever holds this process's one-time token, which the server prints in
 * its log at start: reading the log is the proof of being the operator. A new token is made at
 * each start; one right answer spends it (a second attempt with it is refused, also when the
 * first is still running).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Repositories } from '../repositories/index.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import { insertAccount } from './accounts.ts';
import { createSession } from '../auth/sessions.ts';

export interface FirstAdministrator {
  token: string;
  email: string;
  username: string;
  password: string;
  userNickname?: string;
  language?: import('../../src/lib/i18n/locales.ts').CatalogLocale;
}

export function createFirstRun(repositories: Repositories, token = randomBytes(18).toString('base64url')) {
  let spent = false;
  const open = async () => !spent && !(await repositories.users.hasStaff());
  const matches = (given: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  return {
    /** This process's token (printed in the log while the site has no administrator). */
    token,
    /** Whether the page is offered: no administrator yet, and the token not spent. */
    open,
    /** The page's answer while it is offered; NOT_FOUND once it is not. */
    async stillOpen(): Promise<true> {
      if (!(await open())) throw new NotFound();
      return true;
    },
    /** Makes the first administrator and logs them in; NOT_FOUND once one exists. */
    async createAdministrator(input: FirstAdministrator): Promise<{ uid: number; token: string }> {
      if (!(await open())) throw new NotFound();
      if (!matches(input.token)) throw new DomainError('FIRST_RUN_TOKEN_INVALID');
      // Another request with the token may have passed the same checks while this one awaited.
      if (spent) throw new NotFound();
      spent = true;
      try {
        const uid = await insertAccount(repositories, {
          email: input.email,
          username: input.username,
          password: input.password,
          userNickname: input.userNickname,
          roles: ['administrator'],
          language: input.language,
          reviewed: true,
        });
        return { uid, token: await createSession(repositories, uid) };
      } catch (error) {
        // A refused form (a weak password, a taken name) leaves the token usable for the next try.
        spent = false;
        throw error;
      }
    },
  };
}
export type FirstRun = ReturnType<typeof createFirstRun>;
