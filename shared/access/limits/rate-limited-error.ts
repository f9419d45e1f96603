import { AppError } from '../../platform/errors';

/** `details` of a 429: the limit hit, and when to come back. */
export interface RateLimitDetails extends Record<string, unknown> {
  limit: string;
  remaining: number;
  retry_after_seconds: number;
  resets_at: string;
}

/** 429 RATE_LIMITED with the headers that say when to come back (`Retry-After`, and the RateLimit fields). */
export class RateLimitedError extends AppError {
  readonly headers: Readonly<Record<string, string>>;
  /** The limit hit (`requests_per_second`, `in_progress`, `monthly_tokens`, `monthly_searches`). */
  readonly limit: string;
  /** Seconds until the limit lets the request through again. */
  readonly retryAfterSeconds: number;

  constructor(message: string, details: RateLimitDetails, headers: Readonly<Record<string, string>>) {
    super('RATE_LIMITED', message, details);
    this.name = 'RateLimitedError';
    this.headers = headers;
    this.limit = details.limit;
    this.retryAfterSeconds = details.retry_after_seconds;
  }
}
