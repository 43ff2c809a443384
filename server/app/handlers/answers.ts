/**
 * Answers that speak HTTP themselves (decision 0028): the handler stays one expression calling its
 * service, and what the answer needs of HTTP (a conditional GET, a stream, a file) is said here once.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { encodedAnswer, type CachedList } from '#server/services/danmaku.ts';
import { preferredEncoding } from '#server/http/content-encoding.ts';
import type { HandlerContext } from '../mount-routes.ts';
import { DomainError, Invalid } from '#server/domain/errors.ts';
import { answerFor } from './looker.ts';

/**
 * An answer serialized once for everyone (the danmaku pool): its ETag answers a revalidation with
 * 304, its body goes compressed as the caller accepts, and shared caches keep it as `cacheControl` says.
 */
export async function sharedBody(c: Context<AppEnv>, answer: CachedList, cacheControl: string): Promise<Response> {
  c.header('Cache-Control', cacheControl);
  c.header('Vary', 'Cookie, Accept-Encoding');
  c.header('ETag', answer.etag);
  if (
    c.req
      .header('If-None-Match')
      ?.split(',')
      .some((tag) => tag.trim() === answer.etag)
  )
    return c.body(null, 304);
  c.header('Content-Type', 'application/json');
  const encoding = preferredEncoding(c.req.header('Accept-Encoding'));
  if (!encoding) return c.body(answer.body);
  c.header('Content-Encoding', encoding);
  return c.body(await encodedAnswer(answer, encoding));
}

/**
 * The danmaku pool's answer: one built for the viewer (never kept in a shared cache), or the one
 * serialized for everyone, which shared caches may keep a few seconds once the target is public.
 */
export const poolAnswer = async <T extends object>(
  ctx: Pick<HandlerContext, 'c' | 'cache'>,
  isPublic: boolean,
  found: { personal: T } | { shared: CachedList },
) =>
  'shared' in found
    ? sharedBody(ctx.c, found.shared, isPublic ? 'public, max-age=5' : 'private, no-store')
    : answerFor(ctx, Promise.resolve({ answer: found.personal, personal: true }));

/** A stream of events; for HEAD, the headers a stream would have, without opening one nobody reads (or counting a viewer). */
export const eventStream = (
  c: Context<AppEnv>,
  headers: Record<string, string>,
  open: () => Promise<Response>,
): Promise<Response> => (c.req.method === 'HEAD' ? Promise.resolve(new Response(null, { headers })) : open());

/** Cuts a stream's client off at the socket (one who falls behind): its queue goes at once, nothing is logged. */
export const cutOff = (c: Context<AppEnv>): (() => void) | undefined => {
  const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
  return outgoing && (() => outgoing.destroy());
};

/** The bytes of a multipart form's `file`: refused when there is none (400) or it is larger than `maxBytes` (413). */
export async function formFile(c: Context<AppEnv>, maxBytes: number): Promise<Uint8Array> {
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const file = form.file;
  if (!(file instanceof File)) throw new Invalid([{ path: 'file', message: 'a file is required' }]);
  if (file.size > maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE');
  return new Uint8Array(await file.arrayBuffer());
}

/** A file to download: its type, its name and its text. */
export const attachment = (
  c: Context<AppEnv>,
  { contentType, filename, body }: { contentType: string; filename: string; body: string },
): Response =>
  c.body(body, 200, { 'Content-Type': contentType, 'Content-Disposition': `attachment; filename="${filename}"` });
