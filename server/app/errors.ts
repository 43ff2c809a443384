import type { ErrorCode } from '../../src/lib/api/contract.ts';

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, ROUTE_NOT_FOUND: 404,
  CONFLICT: 409, PAYLOAD_TOO_LARGE: 413, RATE_LIMITED: 429, ORIGIN_REFUSED: 403, INTERNAL: 500,
  EMAIL_TAKEN: 409, USERNAME_TAKEN: 409, VERIFICATION_CODE_INVALID: 400, INVITATION_CODE_INVALID: 400,
  WEAK_PASSWORD: 400, INVALID_CREDENTIALS: 401, COOLING_DOWN: 429, DAILY_LIMIT: 429, ACCOUNT_TOO_NEW: 403,
  USER_BLOCKED: 403, LAST_ROOT: 409, SECOND_FACTOR_REQUIRED: 401, SECOND_FACTOR_INVALID: 401, SECOND_FACTOR_LOCKED: 429,
  NOT_AN_IMAGE: 415, UPLOAD_EXPIRED: 403, MEDIA_NOT_READY: 409, MEDIA_REJECTED: 422, TAG_EXISTS: 409,
  BLOCK_LIST_FULL: 409, BLOCK_SELF: 400, UNSAFE_REGEX: 400, INVALID_REGEX: 400, BLOCKED_BY_UPLOADER: 403,
};

/** The catalog key (api.*) of each code's message. */
export const MESSAGE_KEY: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'api.validation', UNAUTHORIZED: 'api.unauthorized', FORBIDDEN: 'api.forbidden',
  NOT_FOUND: 'api.notFound', ROUTE_NOT_FOUND: 'api.routeNotFound', CONFLICT: 'api.conflict',
  RATE_LIMITED: 'api.rateLimited', PAYLOAD_TOO_LARGE: 'api.payloadTooLarge', ORIGIN_REFUSED: 'api.originRefused', INTERNAL: 'api.internal',
  EMAIL_TAKEN: 'api.emailTaken', USERNAME_TAKEN: 'api.usernameTaken', VERIFICATION_CODE_INVALID: 'api.verificationCodeInvalid',
  INVITATION_CODE_INVALID: 'api.invitationCodeInvalid', WEAK_PASSWORD: 'api.weakPassword', INVALID_CREDENTIALS: 'api.invalidCredentials',
  COOLING_DOWN: 'api.coolingDown', DAILY_LIMIT: 'api.dailyLimit', ACCOUNT_TOO_NEW: 'api.accountTooNew', USER_BLOCKED: 'api.userBlocked',
  LAST_ROOT: 'api.lastRoot', SECOND_FACTOR_REQUIRED: 'api.secondFactorRequired', SECOND_FACTOR_INVALID: 'api.secondFactorInvalid',
  SECOND_FACTOR_LOCKED: 'api.secondFactorLocked', NOT_AN_IMAGE: 'api.notAnImage', UPLOAD_EXPIRED: 'api.uploadExpired',
  MEDIA_NOT_READY: 'api.mediaNotReady', MEDIA_REJECTED: 'api.mediaRejected', TAG_EXISTS: 'api.tagExists',
  BLOCK_LIST_FULL: 'api.blockListFull', BLOCK_SELF: 'api.blockSelf', UNSAFE_REGEX: 'api.unsafeRegex', INVALID_REGEX: 'api.invalidRegex',
  BLOCKED_BY_UPLOADER: 'api.blockedByUploader',
};

/** A failure the client should see: a real HTTP status, a stable code, a localised message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: Array<{ path: string; message: string }>;
  readonly headers?: Record<string, string>;
  /** Extra response fields (e.g. isCoolingDown) a client reads beside the code. */
  readonly extra?: Record<string, unknown>;

  constructor(code: ErrorCode, options: { issues?: AppError['issues']; headers?: Record<string, string>; extra?: Record<string, unknown>; cause?: unknown } = {}) {
    super(code, { cause: options.cause });
    this.code = code;
    this.status = STATUS[code];
    this.issues = options.issues;
    this.headers = options.headers;
    this.extra = options.extra;
  }
}
