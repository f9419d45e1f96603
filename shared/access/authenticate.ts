import { AppError } from '../platform/errors';
import { hashApiKey, principalOf, type ApiKeyStore, type Principal } from './api-keys';

/** How long a looked-up key is trusted before it is read again (revocation takes at most this long). */
export const KEY_CACHE_TTL_MS = 60_000;

/** Port: turns request headers into the caller, or refuses with 401 UNAUTHORIZED. */
export type Authenticator = (headers: Readonly<Record<string, string | undefined>>) => Promise<Principal>;

/**
 * The key a request presents: `Authorization: Bearer KEY` or `x-api-key: KEY`
 * (both is fine when they carry the same key). Two different keys are
 * refused with 401 UNAUTHORIZED rather than one of them silently winning.
 */
export function presentedKey(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const direct = headers['x-api-key']?.trim() || undefined;
  const authorization = headers.authorization?.trim();
  const bearer = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (direct && bearer && direct !== bearer) {
    throw new AppError('UNAUTHORIZED', 'The x-api-key and Authorization headers carry different keys; send one key.');
  }
  return direct ?? bearer;
}

/**
 * Builds the authenticator: looks keys up by SHA-256, remembering answers
 * (hits and misses) for a short time so a burst of requests costs one read.
 */
export function createAuthenticator(store: ApiKeyStore, options: { ttlMs?: number; now?: () => number } = {}): Authenticator {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { until: number; principal: Promise<Principal | undefined> }>();

  const lookup = (hash: string): Promise<Principal | undefined> => {
    const hit = cache.get(hash);
    if (hit && hit.until > now()) return hit.principal;
    const principal = store.findByHash(hash).then((record) => (record && !record.revoked_at ? principalOf(record) : undefined));
    cache.set(hash, { until: now() + ttlMs, principal });
    principal.catch(() => cache.delete(hash));
    return principal;
  };

  return async (headers) => {
    const key = presentedKey(headers);
    if (!key) throw new AppError('UNAUTHORIZED', 'An API key is required: send "Authorization: Bearer KEY" or "x-api-key: KEY".');
    const principal = await lookup(hashApiKey(key));
    if (!principal) throw new AppError('UNAUTHORIZED', 'The API key is not valid.');
    return principal;
  };
}
