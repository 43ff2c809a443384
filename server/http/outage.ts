import { DomainError } from '../domain/errors.ts';

/** How long a client is told to wait while the database is away (it reconnects by itself). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes of a database that is gone or not yet back (admin shutdown, starting up, connection lost). */
const DATABASE_GONE_STATES = /^(08...|57P0[1-3]|53300)$/;
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)/i;
/** A full disk as the operating system says it, and as the database does (SQLSTATE 53100 disk_full). */
const STORAGE_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', '53100']);

/**
 * Trouble outside the request's control, told as such rather than as a 500: the database away
 * (SERVICE_UNAVAILABLE, 503 with Retry-After) or a full or read-only disk (STORAGE_FULL, 507).
 * Null for anything else.
 */
export function outageOf(error: unknown): DomainError | null {
  for (let cause = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; cause && depth < 5; cause = cause.cause as typeof cause, depth++) {
    const code = typeof cause.code === 'string' ? cause.code : '';
    if (STORAGE_ERRNOS.has(code)) return new DomainError('STORAGE_FULL', { cause: error });
    if (DATABASE_GONE_STATES.test(code) || CONNECTION_ERRNOS.has(code) || CONNECTION_MESSAGES.test(String(cause.message ?? ''))) {
      return new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS, cause: error });
    }
  }
  return null;
}
