/**
 * A tenant's request rate as a token bucket, kept as one number: the
 * theoretical arrival time (GCRA). Each request moves it one interval
 * (1 / rate) past the later of itself and now; a request that would move it
 * more than `burst` intervals ahead of now is refused, and moves nothing.
 */

/** The rate a tenant is held to. */
export interface RequestRate {
  perSecond: number;
  burst: number;
}

/** What one request's check decided. */
export interface RateDecision {
  allowed: boolean;
  /** Requests that may still be sent at once after this one. */
  remaining: number;
  /** Milliseconds until the bucket is full again (allowed), or until one request is allowed (refused). */
  resetMs: number;
}

/** Milliseconds one request takes from the bucket. */
export function intervalMs(rate: RequestRate): number {
  return 1000 / rate.perSecond;
}

/**
 * The decision for a request at `now` against the bucket's arrival time
 * `tat` (epoch ms; undefined for a tenant never seen), and the new `tat` when
 * allowed.
 */
export function decide(rate: RequestRate, tat: number | undefined, now: number): RateDecision & { tat?: number } {
  const interval = intervalMs(rate);
  const next = Math.max(tat ?? now, now) + interval;
  const ahead = next - now;
  const capacity = rate.burst * interval;
  // No allowance for rounding: one let a request through a millionth of a ms early (at ~50/s); rounding can only refuse
  // a request that comes exactly on time, which the next millisecond lets through.
  if (ahead > capacity) {
    return { allowed: false, remaining: 0, resetMs: Math.ceil(ahead - capacity) };
  }
  return { allowed: true, tat: next, remaining: Math.floor((capacity - ahead) / interval + 1e-9), resetMs: Math.ceil(ahead) };
}

/** What an allowed request leaves, once the bucket's arrival time is `tat`. */
export function allowedAt(rate: RequestRate, tat: number, now: number): RateDecision {
  const interval = intervalMs(rate);
  const ahead = Math.max(0, tat - now);
  return {
    allowed: true,
    remaining: Math.max(0, Math.floor((rate.burst * interval - ahead) / interval + 1e-9)),
    resetMs: Math.ceil(ahead),
  };
}

/** Port: takes one request from a tenant's bucket, atomically. */
export interface RequestRateStore {
  take(tenantId: string, rate: RequestRate, now: number): Promise<RateDecision>;
}
