/**
 * The one error hierarchy of Switchboard. Every failure the service reports
 * carries a stable `code`; the HTTP status of each code is decided here and
 * nowhere else.
 */

/** Codes answered with 400: the request is wrong and retrying it will not help. */
const BAD_REQUEST_CODES = [
  'INVALID_REQUEST',
  'INVALID_INPUT',
  'INVALID_PHONE_NUMBER',
  'INVALID_FOLLOW_UP_TYPE',
  'VALIDATION_ERROR',
  'MISSING_QUERY',
  'INVALID_OPERATION',
  'NO_CHANNELS_CONFIGURED',
  'NO_VALID_CHANNELS_FOR_LEAD',
  'NO_VALID_CHANNELS',
] as const;

const NOT_FOUND_CODES = [
  'SITE_NOT_FOUND',
  'LEAD_NOT_FOUND',
  'USER_NOT_FOUND',
  'AGENT_NOT_FOUND',
  'COMMAND_NOT_FOUND',
  'NOT_FOUND',
] as const;

/** Codes answered with 500: worth retrying, per the existing clients' contract. */
const SERVER_CODES = ['SALES_COMMAND_FAILED', 'NO_CONTENT_GENERATED', 'SEARCH_FAILED', 'SYSTEM_ERROR'] as const;

export type ErrorCode =
  | (typeof BAD_REQUEST_CODES)[number]
  | (typeof NOT_FOUND_CODES)[number]
  | (typeof SERVER_CODES)[number]
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'METHOD_NOT_ALLOWED'
  | 'IDEMPOTENCY_CONFLICT'
  | 'INVALID_TRANSITION'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'HEADERS_TOO_LARGE'
  | 'RATE_LIMITED';

/** The HTTP status of every error code: the table of docs/api.md "Errors". */
export const HTTP_STATUS_OF: Readonly<Record<ErrorCode, number>> = Object.freeze({
  ...Object.fromEntries(BAD_REQUEST_CODES.map((code) => [code, 400])),
  ...Object.fromEntries(NOT_FOUND_CODES.map((code) => [code, 404])),
  ...Object.fromEntries(SERVER_CODES.map((code) => [code, 500])),
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
} as Record<ErrorCode, number>);

/** One problem found in an input, in the shape zod reports it. */
export interface IssueDetail {
  code: string;
  message?: string;
  expected?: string;
  received?: string;
  path: string[];
}

/** `details` of an error: zod-style issues, or the one object-shaped exception. */
export type ErrorDetails = IssueDetail[] | Record<string, unknown>;

/** What a failed command or response carries: safe to show to the caller. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

/**
 * An error whose code and message are meant for the caller. Anything that is
 * not an AppError is reported as SYSTEM_ERROR with a generic message.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetails;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }

  get statusCode(): number {
    return HTTP_STATUS_OF[this.code];
  }

  toInfo(): ErrorInfo {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export const GENERIC_SYSTEM_ERROR: ErrorInfo = Object.freeze({
  code: 'SYSTEM_ERROR',
  message: 'An internal error occurred. The request can be retried.',
});

/** The caller-safe description of any thrown value. */
export function toErrorInfo(error: unknown): ErrorInfo {
  return error instanceof AppError ? error.toInfo() : { ...GENERIC_SYSTEM_ERROR };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(HTTP_STATUS_OF, value);
}
