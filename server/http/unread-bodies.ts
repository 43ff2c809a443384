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
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...(status === 405 ? { Allow: 'GET, HEAD' } : {}),
  });
  res.end(body);
  return true;
}

/**
 * A client may send its request and then close its sending side (a half-close: `shutdown(SHUT_WR)`,
 * `curl` with some proxies, load-balancer health checks). Node's HTTP server then, by default,
 * aborts the request and closes the connection, so a page still rendering is never answered.
 * With this set, the answer still goes out and the connection closes after it.
 * A stream of events is the exception: it never ends by itself, and a client that stops sending
 * on it (an EventSource closed, a tab gone) has left, so its end ends the stream at once, as
 * Node's default did; otherwise the viewer would be counted and written to until a write failed.
 */
export function answerHalfClosedRequests(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!String(req.headers.accept ?? '').includes('text/event-stream')) return;
    const left = () => res.destroy();
    req.socket.once('end', left);
    res.once('close', () => req.socket.off('end', left));
  });
}
