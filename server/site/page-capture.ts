/**
 * The response side of the page cache (page-cache.ts): copying a rendered page as it goes out,
 * and sending a kept one.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { KEPT_STATUS, sharedLifetime, type CapturedPage } from './page-cache.ts';

/** Headers that belong to one answer, never to a kept page. */
const PER_ANSWER = new Set(['set-cookie', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'age', 'x-cache']);

/** Node's writeHead takes headers as an object or as a flat [name, value, …] list. */
function headersArgument(rest: unknown[]): OutgoingHttpHeaders {
  const given = rest.find((arg) => arg && typeof arg === 'object');
  if (!Array.isArray(given)) return (given as OutgoingHttpHeaders | undefined) ?? {};
  const headers: OutgoingHttpHeaders = {};
  for (let i = 0; i + 1 < given.length; i += 2) headers[String(given[i]).toLowerCase()] = given[i + 1] as string;
  return headers;
}

/**
 * Copies what `res` sends, as sent (compressed, with its final headers), and hands it to `done`
 * once it is all out: or null at once when the page may not be shared (private, not a 200, a
 * cookie of its own), and null when the answer is cut short.
 * Installed before the compression and policy wrappers, so it sees the bytes on the wire.
 */
export function capturePage(res: ServerResponse, done: (page: CapturedPage | null) => void): void {
  const original = { writeHead: res.writeHead.bind(res), write: res.write.bind(res), end: res.end.bind(res) };
  const cookieBefore = JSON.stringify(res.getHeader('set-cookie') ?? null);
  let settled = false;
  const settle = (page: CapturedPage | null) => {
    if (settled) return;
    settled = true;
    done(page);
  };
  let head: { status: number; headers: OutgoingHttpHeaders } | null = null;
  const chunks: Buffer[] = [];
  res.setHeader('X-Cache', 'MISS');

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const result = (original.writeHead as (...args: unknown[]) => ServerResponse)(status, ...rest);
    // What went out: the headers set before, with those given here over them.
    const sent: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries({ ...res.getHeaders(), ...headersArgument(rest) }))
      sent[name.toLowerCase()] = value;
    const shareable =
      KEPT_STATUS.has(status) &&
      sharedLifetime(sent['cache-control'] === undefined ? undefined : String(sent['cache-control'])) &&
      JSON.stringify(sent['set-cookie'] ?? null) === cookieBefore;
    if (!shareable) settle(null);
    else head = { status, headers: Object.fromEntries(Object.entries(sent).filter(([name]) => !PER_ANSWER.has(name))) };
    return result;
  }) as typeof res.writeHead;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (!head || settled || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
    );
  };
  res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    keep(chunk, encoding);
    return (original.write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    keep(chunk, encoding);
    return (original.end as (...args: unknown[]) => ServerResponse)(chunk, encoding, callback);
  }) as typeof res.end;
  res.on('finish', () => settle(head ? { ...head, body: Buffer.concat(chunks) } : null));
  res.on('close', () => settle(null));
}

/** Sends a kept page: as it was sent first, with its age. */
export function answerFromCache(
  res: ServerResponse,
  answer: { page: CapturedPage; ageS: number; stale: boolean },
): void {
  res.writeHead(answer.page.status, {
    ...answer.page.headers,
    Age: String(answer.ageS),
    'X-Cache': answer.stale ? 'STALE' : 'HIT',
  });
  res.end(answer.page.body);
}
