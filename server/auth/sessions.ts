import { randomBytes } from 'node:crypto';
import type { Repositories } from '../repositories/index.ts';
import { hashToken, SESSION_COOKIE_TOKEN, SESSION_COOKIE_UID } from '../services/sessions.ts';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** A new random session: the token goes to the browser once, only its hash is stored. */
export async function createSession(repositories: Pick<Repositories, 'sessions'>, uid: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await repositories.sessions.insert({
    token_hash: hashToken(token),
    uid,
    expires_at: new Date(Date.now() + SESSION_LIFETIME_MS),
  });
  return token;
}

export async function revokeSession(
  repositories: Pick<Repositories, 'sessions'>,
  token: string | undefined,
): Promise<void> {
  if (token) await repositories.sessions.deleteByTokenHash(hashToken(token));
}

/** Every session of a user, optionally except the one in use (password change keeps it). */
export async function revokeAllSessions(
  repositories: Pick<Repositories, 'sessions'>,
  uid: number,
  exceptToken?: string,
): Promise<void> {
  await repositories.sessions.deleteAllOfUser(uid, exceptToken ? hashToken(exceptToken) : undefined);
}

/**
 * Session cookies; SameSite=Lax keeps them off cross-site requests, Secure on https. The token
 * is httpOnly; the uid is public anyway and stays readable, so a page knows without a request
 * whether to ask who is logged in.
 */
export function sessionCookies(uid: number, token: string, secure: boolean): string[] {
  const attributes = `Path=/; SameSite=Lax; Max-Age=${SESSION_LIFETIME_MS / 1000}${secure ? '; Secure' : ''}`;
  return [`${SESSION_COOKIE_UID}=${uid}; ${attributes}`, `${SESSION_COOKIE_TOKEN}=${token}; HttpOnly; ${attributes}`];
}

export function clearedSessionCookies(secure: boolean): string[] {
  const attributes = `Path=/; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
  return [`${SESSION_COOKIE_UID}=; ${attributes}`, `${SESSION_COOKIE_TOKEN}=; HttpOnly; ${attributes}`];
}
