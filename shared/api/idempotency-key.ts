import { AppError, type ErrorCode } from '../platform/errors';

/** Longest Idempotency-Key accepted (the job envelope's limit). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The request's `Idempotency-Key` header (lower-cased header names), trimmed;
 * undefined when absent or blank. A key longer than the job envelope allows
 * is refused with the route's validation code.
 */
export function readIdempotencyKey(headers: Readonly<Record<string, string | undefined>>, errorCode: ErrorCode): string | undefined {
  const key = headers['idempotency-key']?.trim();
  if (key === undefined || key === '') return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError(errorCode, `The Idempotency-Key header is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, [
      { code: 'too_big', message: `At most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, path: ['Idempotency-Key'] },
    ]);
  }
  return key;
}
