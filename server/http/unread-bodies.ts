import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';

/**
 * Pages and media files take GET and HEAD without a body. Anything else is refused at once,
 * before a byte of the body is read (405 with Allow, or 413 for a GET or HEAD that carries a
 * body), and the connection is closed after the answer, so a client cannot make the server
 * read hundreds of megabytes it will throw away. The API bounds its own bodies per route.
 * True when the request was answered here.
 */
export function refuseUnreadBody(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? 'GET';
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const status = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' ? 405 : hasBody ? 413 : 0;
  if (!status) return false;
  const body = STATUS_CODES[status]!;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), 'Cache-Control': 'no-store',
    Connection: 'close', ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
  });
  res.end(body);
  return true;
}

/**
 * A client may send its request and then close its sending side (a half-close: `shutdown(SHUT_WR)`,
 * `curl` with some proxies, load-balancer health checks). Node's HTTP server then, by default,
 * aborts the request and closes the connection, so a page still rendering is never answered.
 * With this set, the answer still goes out and the connection closes after it.
 */
export function answerHalfClosedRequests(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}
