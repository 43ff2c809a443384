/**
 * The API's errors, shared by the server and the browser: stable codes, the HTTP status of each
 * and the catalog key (api.*) of its message, which the server answers in the caller's language.
 */
/** Stable machine-readable error codes; the message beside them is in the caller's language. */
export const ERROR_CODES = [
  'VALIDATION_FAILED', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'ROUTE_NOT_FOUND', 'CONFLICT',
  'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'ORIGIN_REFUSED', 'INTERNAL',
  'EMAIL_TAKEN', 'USERNAME_TAKEN', 'VERIFICATION_CODE_INVALID', 'INVITATION_CODE_INVALID', 'WEAK_PASSWORD',
  'INVALID_CREDENTIALS', 'COOLING_DOWN', 'DAILY_LIMIT', 'ACCOUNT_TOO_NEW', 'USER_BLOCKED', 'LAST_ROOT',
  'SECOND_FACTOR_REQUIRED', 'SECOND_FACTOR_INVALID', 'SECOND_FACTOR_LOCKED', 'NOT_AN_IMAGE', 'UPLOAD_EXPIRED',
  'MEDIA_NOT_READY', 'MEDIA_REJECTED', 'TAG_EXISTS',
  'BLOCK_LIST_FULL', 'BLOCK_SELF', 'UNSAFE_REGEX', 'INVALID_REGEX', 'BLOCKED_BY_UPLOADER', 'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_EXTENSION', 'PASSWORD_OR_CODE_INVALID', 'FOLLOW_SELF', 'FOLLOW_BLOCKED',
  'METHOD_NOT_ALLOWED', 'HEADERS_TOO_LARGE',
  'COLLECTIONS_LIMIT', 'COLLECTION_FULL', 'VIDEO_UNAVAILABLE', 'NOT_IN_COLLECTION',
  'SERVICE_UNAVAILABLE', 'STORAGE_FULL',
  'UNSUPPORTED_IMAGE_FORMAT', 'IMAGE_TOO_LARGE', 'TOO_MANY_PIXELS', 'TOO_MANY_UPLOADS',
  'SUBTITLE_MALFORMED', 'SUBTITLES_LIMIT', 'DANMAKU_XML_MALFORMED',
  'FIRST_RUN_TOKEN_INVALID',
  'OEMBED_FORMAT_UNSUPPORTED',
  'ALREADY_REPORTED', 'CANNOT_REPORT_OWN', 'ALREADY_RESOLVED', 'ACTION_NOT_APPLICABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  requestId?: string;
  /** For VALIDATION_FAILED: which fields failed and why. */
  issues?: Array<{ path: string; message: string }>;
  /** For a refusal that can be tried again (429, 503): after how many seconds, as Retry-After says. */
  retryAfterSeconds?: number;
}

/** The HTTP status each code answers with. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, ROUTE_NOT_FOUND: 404,
  CONFLICT: 409, PAYLOAD_TOO_LARGE: 413, RATE_LIMITED: 429, ORIGIN_REFUSED: 403, INTERNAL: 500,
  EMAIL_TAKEN: 409, USERNAME_TAKEN: 409, VERIFICATION_CODE_INVALID: 400, INVITATION_CODE_INVALID: 400,
  WEAK_PASSWORD: 400, INVALID_CREDENTIALS: 401, COOLING_DOWN: 429, DAILY_LIMIT: 429, ACCOUNT_TOO_NEW: 403,
  USER_BLOCKED: 403, LAST_ROOT: 409, SECOND_FACTOR_REQUIRED: 401, SECOND_FACTOR_INVALID: 401, SECOND_FACTOR_LOCKED: 429,
  NOT_AN_IMAGE: 415, UPLOAD_EXPIRED: 403, MEDIA_NOT_READY: 409, MEDIA_REJECTED: 422, TAG_EXISTS: 409,
  BLOCK_LIST_FULL: 409, BLOCK_SELF: 400, UNSAFE_REGEX: 400, INVALID_REGEX: 400, BLOCKED_BY_UPLOADER: 403,
  UNSUPPORTED_MEDIA_TYPE: 415, UNSUPPORTED_EXTENSION: 501, PASSWORD_OR_CODE_INVALID: 401, FOLLOW_SELF: 400, FOLLOW_BLOCKED: 403,
  METHOD_NOT_ALLOWED: 405, HEADERS_TOO_LARGE: 431,
  COLLECTIONS_LIMIT: 409, COLLECTION_FULL: 409, VIDEO_UNAVAILABLE: 404, NOT_IN_COLLECTION: 400,
  SERVICE_UNAVAILABLE: 503, STORAGE_FULL: 507,
  UNSUPPORTED_IMAGE_FORMAT: 415, IMAGE_TOO_LARGE: 413, TOO_MANY_PIXELS: 422, TOO_MANY_UPLOADS: 429,
  SUBTITLE_MALFORMED: 400, SUBTITLES_LIMIT: 409, DANMAKU_XML_MALFORMED: 400,
  FIRST_RUN_TOKEN_INVALID: 403,
  OEMBED_FORMAT_UNSUPPORTED: 501,
  ALREADY_REPORTED: 409, CANNOT_REPORT_OWN: 400, ALREADY_RESOLVED: 409, ACTION_NOT_APPLICABLE: 400,
};

/** The catalog key (api.*) of each code's message. */
export const ERROR_MESSAGE_KEY: Record<ErrorCode, string> = {
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
  BLOCKED_BY_UPLOADER: 'api.blockedByUploader', UNSUPPORTED_MEDIA_TYPE: 'api.unsupportedMediaType',
  UNSUPPORTED_EXTENSION: 'api.unsupportedExtension', PASSWORD_OR_CODE_INVALID: 'api.passwordOrCodeInvalid',
  FOLLOW_SELF: 'api.followSelf', FOLLOW_BLOCKED: 'api.followBlocked',
  METHOD_NOT_ALLOWED: 'api.methodNotAllowed', HEADERS_TOO_LARGE: 'api.headersTooLarge',
  COLLECTIONS_LIMIT: 'collections.limitReached', COLLECTION_FULL: 'collections.collectionFull',
  VIDEO_UNAVAILABLE: 'collections.videoUnavailable', NOT_IN_COLLECTION: 'collections.notInCollection',
  SERVICE_UNAVAILABLE: 'api.serviceUnavailable', STORAGE_FULL: 'api.storageFull',
  UNSUPPORTED_IMAGE_FORMAT: 'api.unsupportedImageFormat', IMAGE_TOO_LARGE: 'api.imageTooLarge', TOO_MANY_PIXELS: 'api.tooManyPixels',
  TOO_MANY_UPLOADS: 'api.tooManyUploads',
  SUBTITLE_MALFORMED: 'subtitles.malformed', SUBTITLES_LIMIT: 'subtitles.limitReached', DANMAKU_XML_MALFORMED: 'subtitles.danmakuXmlMalformed',
  FIRST_RUN_TOKEN_INVALID: 'firstRun.tokenInvalid',
  OEMBED_FORMAT_UNSUPPORTED: 'share.oembedFormat',
  ALREADY_REPORTED: 'moderation.errors.alreadyReported', CANNOT_REPORT_OWN: 'moderation.errors.cannotReportOwn',
  ALREADY_RESOLVED: 'moderation.errors.alreadyResolved', ACTION_NOT_APPLICABLE: 'moderation.errors.actionNotApplicable',
};
