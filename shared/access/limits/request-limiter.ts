import type { Clock } from '../../platform/clock';
import { RateLimitedError } from './rate-limited-error';
import { rateLimitHeaders } from './rate-limit-headers';
import type { RequestRateStore } from './request-rate';
import { effectiveLimits, requestRateOf, type TenantLimits } from './tenant-limits';

/** What a request's rate check leaves for its answer: the RateLimit headers. */
export interface RateCheck {
  headers: Readonly<Record<string, string>>;
}

/** Port: checks one request of a tenant against its request rate. */
export type RequestLimiter = (tenantId: string, own: TenantLimits | undefined) => Promise<RateCheck | undefined>;

/**
 * Use case: takes one request from the tenant's bucket when it has a request
 * rate (its own, else the default); refuses it with 429 RATE_LIMITED,
 * `Retry-After` and `details` naming the limit, what remains and when it
 * resets. A tenant without a rate is not checked (no table call, no headers).
 */
export function createRequestLimiter(store: RequestRateStore, defaults: TenantLimits, clock: Clock): RequestLimiter {
  return async (tenantId, own) => {
    const rate = requestRateOf(effectiveLimits(own, defaults));
    if (!rate) return undefined;
    const now = clock.now();
    const decision = await store.take(tenantId, rate, now);
    const headers = rateLimitHeaders(rate, decision);
    if (decision.allowed) return { headers };
    const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
    throw new RateLimitedError(
      `Too many requests: this tenant may send ${rate.perSecond} per second (bursts of ${rate.burst}). Retry after ${retryAfter} s.`,
      {
        limit: 'requests_per_second',
        requests_per_second: rate.perSecond,
        burst: rate.burst,
        remaining: 0,
        retry_after_seconds: retryAfter,
        resets_at: new Date(now + decision.resetMs).toISOString(),
      },
      { ...headers, 'Retry-After': String(retryAfter) },
    );
  };
}
