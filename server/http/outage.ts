import { DomainError } from '../domain/errors.ts';
import type { Logger } from '../logger.ts';

/** How long a client is told to wait while the database is away (it reconnects by itself). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATE classes and codes of a database that is gone or not yet back (admin shutdown, starting up, connection lost). */
const DATABASE_GONE_STATES = /^(08...|57P0[1-3]|53300)$/;
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down)/i;
/** A full disk as the operating system says it, and as the database does (SQLSTATE 53100 disk_full). */
const STORAGE_ERRNOS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', '53100']);

/**
 * Trouble outside the request's control, told as such rather than as a 500: the database away
 * (SERVICE_UNAVAILABLE, 503 with Retry-After) or a full or read-only disk (STORAGE_FULL, 507).
 * Null for anything else.
 */
export function outageOf(error: unknown): DomainError | null {
  for (
    let cause = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    cause && depth < 5;
    cause = cause.cause as typeof cause, depth++
  ) {
    const code = typeof cause.code === 'string' ? cause.code : '';
    if (STORAGE_ERRNOS.has(code)) return new DomainError('STORAGE_FULL', { cause: error });
    if (
      DATABASE_GONE_STATES.test(code) ||
      CONNECTION_ERRNOS.has(code) ||
      CONNECTION_MESSAGES.test(String(cause.message ?? ''))
    ) {
      return new DomainError('SERVICE_UNAVAILABLE', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS, cause: error });
    }
  }
  return null;
}

/**
 * Pages that could not be rendered because the database is away: answered 503 with Retry-After
 * as the API is, and logged once per outage rather than once per page: the first page refused,
 * then, when a page renders again, how many were refused and for how long.
 */
export function createPageOutages(logger: Logger) {
  let refused = 0;
  let since = 0;
  return {
    /** The seconds to wait when `error` is the database being away, else null (a 500 of ours). */
    refuse(error: unknown, path: string): number | null {
      const outage = outageOf(error);
      if (outage?.code !== 'SERVICE_UNAVAILABLE') return null;
      if (refused++ === 0) {
        since = Date.now();
        logger.warn('pages refused: the database is away', {
          path,
          retryAfterSeconds: outage.retryAfterSeconds,
          err: error,
        });
      }
      return outage.retryAfterSeconds ?? DATABASE_RETRY_AFTER_SECONDS;
    },
    /** A page rendered: the outage, if there was one, is over. */
    served() {
      if (!refused) return;
      logger.info('pages served again', { refused, ms: Date.now() - since });
      refused = 0;
    },
  };
}
