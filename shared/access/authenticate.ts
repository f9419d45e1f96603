import { AppError } from '../platform/errors';
import { ExpiringLru } from '../platform/expiring-lru';
import { hashApiKey, isKeyUsable, keyUsableUntil, principalOf, type ApiKeyStore, type Principal } from './api-keys';
import type { RequestLimiter } from './limits/request-limiter';
import type { TenantLimits } from './limits/tenant-limits';

/** How long a looked-up key is trusted before it is read again (revocation takes at most this long). */
export const KEY_CACHE_TTL_MS = 60_000;

/** How long an unknown key is remembered as unknown (a key registered meanwhile works after at most this long). */
export const KEY_MISS_TTL_MS = 5_000;

/** Most key lookups an authenticator remembers. */
export const KEY_CACHE_MAX_ENTRIES = 1_000;

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

/** How the authenticator remembers key lookups. */
export interface KeyCacheOptions {
  /** How long a found key is trusted before it is read again. @default KEY_CACHE_TTL_MS (60 s) */
  ttlMs?: number;
  /** How long an unknown (or revoked) key is remembered as such. @default KEY_MISS_TTL_MS (5 s) */
  missTtlMs?: number;
  /** Most keys remembered at once; the least recently used are forgotten first. @default KEY_CACHE_MAX_ENTRIES (1,000) */
  maxEntries?: number;
  /** Epoch ms. @default Date.now */
  now?: () => number;
  /** The tenant's own limits, read with its key (and remembered as long). @default none */
  tenantLimits?: (tenantId: string) => Promise<TenantLimits | undefined>;
  /** Checks each request against its tenant's request rate, after the key (429 RATE_LIMITED when over). @default none */
  limiter?: RequestLimiter;
}

/** An authenticator, and how many key lookups it currently remembers. */
export interface CachingAuthenticator extends Authenticator {
  cacheSize(): number;
}

/**
 * Builds the authenticator: looks keys up by SHA-256 and remembers the
 * answers in a bounded LRU, a usable key for `ttlMs` (never past its expiry),
 * an unknown, revoked or expired one only for `missTtlMs` (a key registered
 * a moment later works soon, and a flood of random keys neither grows memory
 * nor pins stale misses). Concurrent
 * lookups of one key share one read; a failed read is not remembered.
 */
export function createAuthenticator(store: Pick<ApiKeyStore, 'findByHash'>, options: KeyCacheOptions = {}): CachingAuthenticator {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS;
  const missTtlMs = options.missTtlMs ?? KEY_MISS_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new ExpiringLru<string, Promise<Principal | undefined>>(options.maxEntries ?? KEY_CACHE_MAX_ENTRIES);

  const lookup = (hash: string): Promise<Principal | undefined> => {
    const started = now();
    const cached = cache.get(hash, started);
    if (cached) return cached;
    const principal: Promise<Principal | undefined> = store.findByHash(hash).then(async (record) => {
      const at = now();
      const usable = record !== undefined && isKeyUsable(record, at);
      // A key that expires within the cache time is trusted only until it expires.
      cache.expireAt(hash, principal, Math.min(started + ttlMs, usable ? keyUsableUntil(record) : at + missTtlMs));
      if (!usable) return undefined;
      const limits = await options.tenantLimits?.(record.tenant_id);
      return { ...principalOf(record), ...(limits ? { limits } : {}) };
    });
    cache.set(hash, principal, started + ttlMs);
    principal.catch(() => cache.delete(hash, principal));
    return principal;
  };

  const authenticate = async (headers: Readonly<Record<string, string | undefined>>): Promise<Principal> => {
    const key = presentedKey(headers);
    if (!key) throw new AppError('UNAUTHORIZED', 'An API key is required: send "Authorization: Bearer KEY" or "x-api-key: KEY".');
    const principal = await lookup(hashApiKey(key));
    if (!principal) throw new AppError('UNAUTHORIZED', 'The API key is not valid.');
    const check = await options.limiter?.(principal.tenantId, principal.limits);
    return check ? { ...principal, rateHeaders: check.headers } : principal;
  };
  return Object.assign(authenticate, { cacheSize: () => cache.size });
}
