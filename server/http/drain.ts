import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { errorAnswer } from '../app/errors.ts';
import { DomainError } from '../domain/errors.ts';

/** How long a request refused while draining is told to wait (another process, or this one restarted, takes it). */
const DRAIN_RETRY_AFTER_SECONDS = 1;

/**
 * The connections' side of a graceful shutdown. Once draining, no answer invites the client to
 * reuse its connection: answers still to be written carry `Connection: close` (Node then closes
 * the socket after them), a connection whose answer had already gone out with keep-alive is
 * closed the moment that answer ends, and idle kept connections are closed at once. A request
 * that still comes on a kept connection (sent before the client saw it close) is not run: it is
 * answered 503 with Retry-After and `Connection: close`, so the client knows it did not happen
 * and may send it again, rather than finding the socket reset and not knowing.
 */
export function createDrain(server: Server, inFlight: Iterable<ServerResponse>) {
  let draining = false;
  const closeWhenDone = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
  };
  return {
    get draining() {
      return draining;
    },
    /** From now on: no keep-alive, idle connections closed (server.close() already stops accepting). */
    begin() {
      draining = true;
      for (const res of inFlight) closeWhenDone(res);
      server.closeIdleConnections();
    },
    /** While draining, answers a new request 503 and returns true (the caller does nothing more). */
    refused(req: IncomingMessage, res: ServerResponse, isApi: boolean): boolean {
      if (!draining) return false;
      const headers = new Headers();
      for (const name of ['accept-language', 'cookie', 'x-client-language']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const answer = errorAnswer(
        new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: DRAIN_RETRY_AFTER_SECONDS }),
        headers,
      );
      const body = isApi ? JSON.stringify(answer.body) : answer.body.message;
      res.writeHead(answer.status, {
        ...answer.headers,
        Connection: 'close',
        'Content-Type': isApi ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(body);
      return true;
    },
  };
}
