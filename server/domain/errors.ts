import type { ErrorCode } from '../../src/lib/api/errors.ts';

export interface FieldIssue {
  path: string;
  message: string;
}

/** A schema's complaints (zod's issues) as the fields at fault: `tagId.0`, or `(body)` for the whole. */
export function issuesOf(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(body)', message: issue.message }));
}

/**
 * A refusal of the business rules, in the domain's words: a stable code, and for invalid input
 * the fields at fault. Services throw these; the HTTP layer alone maps them to statuses,
 * headers and messages in the caller's language (server/app/errors.ts).
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly issues?: FieldIssue[];
  /** When the same call may be tried again (rate limits, cool-downs, locks). */
  readonly retryAfterSeconds?: number;
  /** Extra answer fields a client reads beside the code (e.g. isCoolingDown). */
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    options: {
      issues?: FieldIssue[];
      retryAfterSeconds?: number;
      extra?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(code, { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.issues = options.issues;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extra = options.extra;
  }
}

export class NotFound extends DomainError {
  constructor(code: ErrorCode = 'NOT_FOUND') {
    super(code);
  }
}
export class Forbidden extends DomainError {
  constructor(code: ErrorCode = 'FORBIDDEN') {
    super(code);
  }
}
export class Conflict extends DomainError {
  constructor(code: ErrorCode = 'CONFLICT', extra?: Record<string, unknown>) {
    super(code, { extra });
  }
}
export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number, code: ErrorCode = 'RATE_LIMITED', extra?: Record<string, unknown>) {
    super(code, { retryAfterSeconds, extra: { retryAfterSeconds, ...extra } });
  }
}
/** Input the schema accepted but the rules refuse: which field, and why. */
export class Invalid extends DomainError {
  constructor(issues: FieldIssue[], code: ErrorCode = 'VALIDATION_FAILED') {
    super(code, { issues });
  }
}
