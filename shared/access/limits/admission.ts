import type { Clock } from '../../platform/clock';
import { ExpiringLru } from '../../platform/expiring-lru';
import { usageMonth } from '../../usage/dynamo-ledger';
import type { UsageTotals } from '../../usage/dynamo-usage-totals';
import { totalSearchRequests, totalTokens } from '../../usage/usage';
import { RateLimitedError } from './rate-limited-error';
import { effectiveLimits, type TenantLimits } from './tenant-limits';

/** What a command spends that a monthly cap limits. */
export type CappedSpend = 'model_tokens' | 'searches';

/** What admitting a command leaves for its creation: the in-progress limit its write is held to. */
export interface Admission {
  inProgressCap?: number;
}

/**
 * Port: whether a tenant may start a command now. Refuses (429
 * RATE_LIMITED, RateLimitedError) a tenant past a monthly cap on what the
 * command spends; answers the in-progress limit its creation is held to.
 */
export interface CommandAdmission {
  /**
   * `own`: the tenant's own limits when the caller has them already (an API request's key brings them), so they are not
   * read again; `undefined` reads them.
   */
  admit(tenantId: string, spends: readonly CappedSpend[], own?: TenantLimits | null): Promise<Admission>;
  /** The refusal of a command whose creation found the tenant's `cap` in-progress places taken. */
  inProgressRefusal(cap: number): RateLimitedError;
}

/** How long a process trusts what it read of a tenant's limits and monthly totals (a cap is crossed at most this late). */
export const ADMISSION_CACHE_MS = 5_000;

/** Seconds a caller refused for its in-progress limit is told to wait: about how long a short command runs. */
export const IN_PROGRESS_RETRY_SECONDS = 5;

export interface AdmissionDependencies {
  /** The tenant's own limits (its record). */
  tenantLimits(tenantId: string): Promise<TenantLimits | undefined>;
  totals: Pick<UsageTotals, 'month'>;
  defaults: TenantLimits;
  clock: Clock;
}

/**
 * Use case: admits commands against a tenant's in-progress and monthly
 * limits. A tenant's limits (unless the caller has them) and month are read
 * at most every {@link ADMISSION_CACHE_MS} per process (one read each, and
 * none for a month when the tenant has no cap on what the command spends).
 */
export function createCommandAdmission(deps: AdmissionDependencies): CommandAdmission {
  const limitsCache = new ExpiringLru<string, Promise<TenantLimits | undefined>>(1_000);
  const monthCache = new ExpiringLru<string, Promise<{ tokens: number; searches: number }>>(1_000);
  const cached = <T>(cache: ExpiringLru<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    const now = deps.clock.now();
    const known = cache.get(key, now);
    if (known) return known;
    const reading = read();
    cache.set(key, reading, now + ADMISSION_CACHE_MS);
    reading.catch(() => cache.delete(key, reading));
    return reading;
  };

  return {
    async admit(tenantId, spends, own) {
      const ownLimits = own === undefined ? await cached(limitsCache, tenantId, () => deps.tenantLimits(tenantId)) : (own ?? undefined);
      const limits = effectiveLimits(ownLimits, deps.defaults);
      const now = deps.clock.now();
      const capped = spends.filter((spend) => capOf(limits, spend) !== undefined);
      if (capped.length > 0) {
        const month = usageMonth(now);
        const used = await cached(monthCache, `${tenantId}\n${month}`, async () => {
          const counters = await deps.totals.month(tenantId, month);
          return { tokens: totalTokens(counters), searches: totalSearchRequests(counters) };
        });
        for (const spend of capped) {
          const cap = capOf(limits, spend)!;
          const spent = spend === 'model_tokens' ? used.tokens : used.searches;
          if (spent >= cap) throw monthlyRefusal(spend, cap, spent, now);
        }
      }
      return limits.in_progress === undefined ? {} : { inProgressCap: limits.in_progress };
    },

    inProgressRefusal(cap) {
      const now = deps.clock.now();
      return new RateLimitedError(
        `Too many commands in progress: this tenant may have ${cap} at once. Retry when one has finished (about ${IN_PROGRESS_RETRY_SECONDS} s).`,
        {
          limit: 'in_progress',
          in_progress: cap,
          remaining: 0,
          retry_after_seconds: IN_PROGRESS_RETRY_SECONDS,
          resets_at: new Date(now + IN_PROGRESS_RETRY_SECONDS * 1000).toISOString(),
        },
        { 'Retry-After': String(IN_PROGRESS_RETRY_SECONDS) },
      );
    },
  };
}

function capOf(limits: TenantLimits, spend: CappedSpend): number | undefined {
  return spend === 'model_tokens' ? limits.monthly_tokens : limits.monthly_searches;
}

/** The first moment of the UTC month after the one `now` is in. */
export function nextMonthStart(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function monthlyRefusal(spend: CappedSpend, cap: number, spent: number, now: number): RateLimitedError {
  const resets = nextMonthStart(now);
  const retryAfter = Math.max(1, Math.ceil((resets - now) / 1000));
  const limit = spend === 'model_tokens' ? 'monthly_tokens' : 'monthly_searches';
  const what = spend === 'model_tokens' ? 'model tokens' : 'search requests';
  return new RateLimitedError(
    `Monthly limit reached: this tenant has used ${spent} of its ${cap} ${what} this month (UTC); it resets at ${new Date(resets).toISOString()}.`,
    { limit, [limit]: cap, used: spent, remaining: 0, retry_after_seconds: retryAfter, resets_at: new Date(resets).toISOString() },
    { 'Retry-After': String(retryAfter) },
  );
}
