import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const SESSION_COOKIE_UID = 'uid';
export const SESSION_COOKIE_TOKEN = 'token';

export interface Viewer { uid: number; roles: string[] }

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function parseCookies(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (!(name in out)) {
      try {
        out[name] = decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        out[name] = part.slice(eq + 1).trim();
      }
    }
  }
  return out;
}

/** The user behind the uid + token cookies, when the session exists, matches and has not expired. */
export async function viewerFromCookies(db: Kysely<Database>, cookieHeader: string | null | undefined): Promise<Viewer | null> {
  const cookies = parseCookies(cookieHeader);
  const uid = Number(cookies[SESSION_COOKIE_UID]);
  const token = cookies[SESSION_COOKIE_TOKEN];
  if (!Number.isSafeInteger(uid) || uid <= 0 || !token || token.length > 200) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.uid', 'sessions.uid')
    .select(['users.uid', 'users.roles'])
    .where('sessions.token_hash', '=', hashToken(token))
    .where('sessions.uid', '=', uid)
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ? { uid: row.uid, roles: row.roles } : null;
}
