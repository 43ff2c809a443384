import type { Context } from 'hono';
import type { AppEnv } from './create-app.ts';
import { AppError } from './errors.ts';
import { viewerFromCookies, parseCookies, SESSION_COOKIE_TOKEN, type Viewer } from '../services/sessions.ts';
import { isBlocked, isStaff } from '../auth/roles.ts';

/** The logged-in user of this request (looked up once), or null. */
export async function getViewer(c: Context<AppEnv>): Promise<Viewer | null> {
  if (c.get('viewer') === undefined) c.set('viewer', await viewerFromCookies(c.get('deps').db, c.req.header('cookie')));
  return c.get('viewer') ?? null;
}

export async function requireViewer(c: Context<AppEnv>): Promise<Viewer> {
  const viewer = await getViewer(c);
  if (!viewer) throw new AppError('UNAUTHORIZED');
  return viewer;
}

/** A member who may post: logged in and not blocked (a blocked user can still log in and read). */
export async function requireMember(c: Context<AppEnv>): Promise<Viewer> {
  const viewer = await requireViewer(c);
  if (isBlocked(viewer.roles)) throw new AppError('USER_BLOCKED');
  return viewer;
}

/** root or administrator. */
export async function requireStaff(c: Context<AppEnv>): Promise<Viewer> {
  const viewer = await requireViewer(c);
  if (!isStaff(viewer.roles)) throw new AppError('FORBIDDEN');
  return viewer;
}

export function sessionToken(c: Context<AppEnv>): string | undefined {
  return parseCookies(c.req.header('cookie'))[SESSION_COOKIE_TOKEN];
}

export function isSecureRequest(c: Context<AppEnv>): boolean {
  const { trustProxy } = c.get('deps').config;
  if (trustProxy && c.req.header('x-forwarded-proto') === 'https') return true;
  return new URL(c.req.url).protocol === 'https:';
}

/** The client's address, for per-IP limits (the proxy's header only when it is trusted). */
export function clientIp(c: Context<AppEnv>): string {
  const { trustProxy } = c.get('deps').config;
  const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
  return forwarded || (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress || 'unknown';
}

/** The public origin of this request (the proxy's forwarded host and scheme only when trusted). */
export function publicOrigin(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  if (!c.get('deps').config.trustProxy) return url.origin;
  const host = c.req.header('x-forwarded-host') ?? url.host;
  const proto = c.req.header('x-forwarded-proto') ?? url.protocol.replace(':', '');
  return `${proto}://${host}`;
}
