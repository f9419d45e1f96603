import { createHash } from 'node:crypto';
import { AppError } from '../platform/errors';
import { isUuid } from '../platform/ids';

/**
 * The opaque `next_cursor` of GET /api/commands: where the page ended, and a
 * digest of whose listing and which filters it belongs to. A cursor given
 * to another tenant, or with other filters, is refused; and since the
 * partition read always comes from the caller's key, no cursor can reach
 * another tenant's commands however it is made.
 */
export function encodeCommandCursor(sortKey: string, scope: unknown): string {
  return Buffer.from(JSON.stringify([sortKey, digestOf(scope)]), 'utf8').toString('base64url');
}

/** The sort key a cursor of this scope names; 400 INVALID_REQUEST for any other cursor. */
export function decodeCommandCursor(text: string, scope: unknown): string {
  const invalid = () =>
    new AppError('INVALID_REQUEST', 'cursor is not one this API gave for this listing (the same key and filters).', [
      { code: 'invalid_format', message: 'Invalid cursor', path: ['cursor'] },
    ]);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [sortKey, digest] = value as unknown[];
  if (typeof sortKey !== 'string' || digest !== digestOf(scope)) throw invalid();
  const separator = sortKey.lastIndexOf('#');
  const [createdAt, id] = [sortKey.slice(0, separator), sortKey.slice(separator + 1)];
  if (separator < 0 || !isUuid(id) || Number.isNaN(Date.parse(createdAt)) || createdAt.length > 40) throw invalid();
  return sortKey;
}

function digestOf(scope: unknown): string {
  return createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 22);
}
