import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import { errorAnswer, outageOf } from '../app/errors.ts';
import { DomainError } from '../domain/errors.ts';
import type { ErrorCode } from '../../src/lib/api/errors.ts';
import type { Logger } from '../logger.ts';

/**
 * A page or media file that could not be served: 503 with Retry-After while the database is
 * away (the pool reconnects by itself), else 500 and logged as our fault.
 */
export function createOutsideApiFailure(logger: Logger) {
  return (res: ServerResponse, error: unknown, what: string, path: string) => {
    const outage = outageOf(error);
    if (outage) logger.warn(`${what}: service trouble`, { code: outage.code, path, err: error });
    else logger.error(what, { err: error, path });
    // Half an answer already sent: cut the connection, so the client knows it is not whole.
    if (res.headersSent) return void res.destroy();
    const status = outage?.code === 'SERVICE_UNAVAILABLE' ? 503 : 500;
    res.writeHead(status, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...(outage?.retryAfterSeconds ? { 'Retry-After': String(outage.retryAfterSeconds) } : {}),
    });
    res.end(STATUS_CODES[status]);
  };
}

/**
 * A request Node refuses before any handler sees it (headers or URL over 16 KB, a malformed
 * request line) gets the API's error shape instead of an empty answer and a reset connection.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) return socket.destroy();
    const answer = errorAnswer(new DomainError(clientErrorCode(error.code)), new Headers());
    const body = JSON.stringify(answer.body);
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/**
 * A request that did not arrive in time (Node's headersTimeout or requestTimeout, as a saturated
 * server meets them) is not bad input: it is answered 408, so a client knows to send it again.
 */
function clientErrorCode(nodeCode: string | undefined): ErrorCode {
  if (nodeCode === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'VALIDATION_FAILED';
}
