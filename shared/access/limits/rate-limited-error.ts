import { AppError } from '../../platform/errors';

/** 429 RATE_LIMITED with the headers that say when to come back (`Retry-After`, and the RateLimit fields). */
export class RateLimitedError extends AppError {
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, details: Record<string, unknown>, headers: Readonly<Record<string, string>>) {
    super('RATE_LIMITED', message, details);
    this.name = 'RateLimitedError';
    this.headers = headers;
  }
}
