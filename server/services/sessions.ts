import { createHash } from 'node:crypto';
import { parse as parseCookieHeader } from 'hono/utils/cookie';
import type { Repositories } from '../repositories/index.ts';

export const SESSION_COOKIE_UID = 'uid';
export const SESSION_COOKIE_TOKEN = 'token';

export interface Viewer {
  uid: number;
  roles: string[];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The request's cookies by name (Hono's parser: quoted values, decoding, first of a name wins). */
export const parseCookies = (header: string | null | undefined): Record<string, string> =>
  parseCookieHeader(header ?? '');

/** The user behind the uid + token cookies, when the session exists, matches and has not expired. */
export async function viewerFromCookies(
  repositories: Pick<Repositories, 'sessions'>,
  cookieHeader: string | null | undefined,
): Promise<Viewer | null> {
  const cookies = parseCookies(cookieHeader);
  const uid = Number(cookies[SESSION_COOKIE_UID]);
  const token = cookies[SESSION_COOKIE_TOKEN];
  if (!Number.isSafeInteger(uid) || uid <= 0 || !token || token.length > 200) return null;
  const row = await repositories.sessions.userOfLiveSession(uid, hashToken(token));
  return row ? { uid: row.uid, roles: row.roles } : null;
}
