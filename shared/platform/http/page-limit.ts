import * as z from 'zod/mini';
import { AppError, type ErrorCode } from '../errors';

/** What every listing says of a `limit` it refuses. */
export function pageLimitProblem(max: number): string {
  return `must be a whole number from 1 to ${max}`;
}

/**
 * The `limit` of a listing, for its zod/mini query schema: a whole number
 * from 1 to `max`, `defaultSize` when absent. Every refusal reads
 * `limit: must be a whole number from 1 to <max>`, never zod's words for
 * the coercion ("expected number, received NaN").
 */
export function pageLimitSchema(defaultSize: number, max: number) {
  const error = pageLimitProblem(max);
  return z._default(z.coerce.number({ error }).check(z.int({ error }), z.minimum(1, { error }), z.maximum(max, { error })), defaultSize);
}

/**
 * The same rule for a listing that reads its query by hand: absent or empty
 * is `defaultSize`, digits from 1 to `max` are the limit, anything else is
 * refused with `code` and the message of {@link pageLimitSchema}.
 */
export function readPageLimit(text: string | undefined, sizes: { defaultSize: number; max: number }, code: ErrorCode): number {
  if (text === undefined || text === '') return sizes.defaultSize;
  const limit = Number(text);
  if (/^\d+$/.test(text) && limit >= 1 && limit <= sizes.max) return limit;
  const message = pageLimitProblem(sizes.max);
  throw new AppError(code, `limit: ${message}`, [{ code: 'invalid_value', message, path: ['limit'] }]);
}
