import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { compressBody, mergeVary, preferredEncoding } from '../http/content-encoding.ts';

/** Below this a compressed page saves less than its headers cost. */
const MIN_COMPRESSED_BYTES = 1024;
const COMPRESSIBLE_TYPE = /^(text\/|application\/(json|xml|javascript))/;

/**
 * Pages rendered on demand (home, video, user…) are compressed as the prerendered ones are:
 * the response is collected (pages are tens of kilobytes) and sent once, brotli or gzip as the
 * browser accepts, with its length. Responses that are not text, or are small, go out as written.
 */
export function compressRenderedResponse(req: IncomingMessage, res: ServerResponse): void {
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  if (!encoding || req.method === 'HEAD') return;
  const chunks: Buffer[] = [];
  let head: { status: number; headers?: OutgoingHttpHeaders } | null = null;
  const original = { writeHead: res.writeHead.bind(res), write: res.write.bind(res), end: res.end.bind(res) };
  const toBuffer = (chunk: unknown, enc?: unknown) =>
    Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(String(chunk), typeof enc === 'string' ? (enc as BufferEncoding) : 'utf8');

  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((arg) => arg && typeof arg === 'object') as OutgoingHttpHeaders | undefined;
    head = { status, headers };
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, enc?: unknown, callback?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, enc));
    const done = [enc, callback].find((arg) => typeof arg === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, enc?: unknown, callback?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, enc));
    const done = [chunk, enc, callback].find((arg) => typeof arg === 'function') as (() => void) | undefined;
    void finish().then(done);
    return res;
  }) as typeof res.end;

  async function finish(): Promise<void> {
    res.writeHead = original.writeHead;
    res.write = original.write;
    res.end = original.end;
    const body = Buffer.concat(chunks);
    const headers: OutgoingHttpHeaders = { ...head?.headers };
    const status = head?.status ?? res.statusCode;
    const type = String(headers['content-type'] ?? headers['Content-Type'] ?? res.getHeader('content-type') ?? '');
    const already = headers['content-encoding'] ?? headers['Content-Encoding'] ?? res.getHeader('content-encoding');
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-length') delete headers[name];
    res.removeHeader('content-length');
    if (
      already ||
      body.length < MIN_COMPRESSED_BYTES ||
      !COMPRESSIBLE_TYPE.test(type) ||
      status === 204 ||
      status === 304
    ) {
      original.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
      original.end(body);
      return;
    }
    const compressed = await compressBody(body, encoding!, 'fast');
    const vary = String(res.getHeader('vary') ?? headers.Vary ?? headers.vary ?? '') || undefined;
    res.removeHeader('vary');
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'vary') delete headers[name];
    original.writeHead(status, {
      ...headers,
      'Content-Encoding': encoding!,
      'Content-Length': String(compressed.length),
      Vary: mergeVary(vary, 'Accept-Encoding'),
    });
    original.end(compressed);
  }
}
