/**
 * The failures of a CRM call that callers tell apart. Every message is safe
 * to store and show: never a token, never a request's headers.
 */
export abstract class CrmError extends Error {
  /** True when the same call may succeed later unchanged (a job retries it with back-off). */
  abstract readonly retryable: boolean;
}

/** The CRM refused the credentials (revoked, wrong, or missing a scope). `reason` is the CRM's own words, cleaned. */
export class CrmCredentialsError extends CrmError {
  readonly retryable = false;
  constructor(
    readonly reason: string,
    /** HTTP status of the refusal, when the CRM answered one. */
    readonly status?: number,
  ) {
    super(`The CRM refused the credentials: ${reason}`);
    this.name = 'CrmCredentialsError';
  }
}

/** The CRM asked to slow down, for longer than the adapter waits by itself. */
export class CrmRateLimitedError extends CrmError {
  readonly retryable = true;
  constructor(
    /** Seconds the CRM asked to wait (its `Retry-After`), or the adapter's estimate when none was given. */
    readonly retryAfterSeconds: number,
  ) {
    super(`The CRM is rate limiting requests; retry after ${retryAfterSeconds} s.`);
    this.name = 'CrmRateLimitedError';
  }
}

/** The CRM did not answer usably: a 5xx, a timeout, a dropped connection or a malformed answer. */
export class CrmUnavailableError extends CrmError {
  readonly retryable = true;
  constructor(
    reason: string,
    /** HTTP status, when an answer came. */
    readonly status?: number,
  ) {
    super(`The CRM is unavailable: ${reason}`);
    this.name = 'CrmUnavailableError';
  }
}

/**
 * The CRM refused this request itself (a 4xx other than the credentials' and
 * the rate limit's: an unknown list or contact, a lead status value it does
 * not have): sending it again will not help.
 */
export class CrmRejectedError extends CrmError {
  readonly retryable = false;
  constructor(
    readonly reason: string,
    readonly status: number,
  ) {
    super(`The CRM refused the request (${status}): ${reason}`);
    this.name = 'CrmRejectedError';
  }
}
