import fc from 'fast-check';
import { rateLimitHeaders } from '../../../shared/access/limits/rate-limit-headers';
import { decide, type RequestRate } from '../../../shared/access/limits/request-rate';
import { defaultLimitsOf, effectiveLimits, requestRateOf } from '../../../shared/access/limits/tenant-limits';

/** Sends requests at the given times (ms) through `decide` and answers which were allowed. */
function replay(rate: RequestRate, times: readonly number[]): boolean[] {
  let tat: number | undefined;
  return times.map((now) => {
    const decision = decide(rate, tat, now);
    if (decision.allowed) tat = decision.tat;
    return decision.allowed;
  });
}

describe('request rate (token bucket as GCRA)', () => {
  it('lets a burst through at once, then one request per interval', () => {
    const rate = { perSecond: 2, burst: 3 };
    expect(replay(rate, [0, 0, 0, 0, 0])).toEqual([true, true, true, false, false]);
    // After half a second one more request fits, not two.
    expect(replay(rate, [0, 0, 0, 500, 500])).toEqual([true, true, true, true, false]);
    // After a pause long enough to refill, a whole burst again.
    expect(replay(rate, [0, 0, 0, 1500, 1500, 1500, 1500])).toEqual([true, true, true, true, true, true, false]);
  });

  it('refuses a request that comes a hair before its interval has passed', () => {
    // fast-check's counterexample: an interval of 20.000001 ms, a second request 20 ms after the first.
    expect(replay({ perSecond: 49.99999750000011, burst: 1 }, [44, 56, 64])).toEqual([true, false, false]);
    expect(replay({ perSecond: 49.99999750000011, burst: 1 }, [44, 64.00001])).toEqual([true, true]);
  });

  it('never allows more than burst + rate × elapsed in any stretch of time', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 200 }),
        (perSecond, burst, gaps) => {
          const times: number[] = [];
          gaps.reduce((at, gap) => (times.push(at + gap), at + gap), 0);
          const allowed = replay({ perSecond, burst }, times);
          const accepted = times.filter((_, index) => allowed[index]);
          for (let from = 0; from < accepted.length; from++) {
            for (let to = from; to < accepted.length; to++) {
              // A nanosecond of slack: doubles near these times cannot place an arrival any finer (an interval of
              // 20.00000000000006 ms added to 500 ms rounds to 20).
              const span = accepted[to]! - accepted[from]! + 1e-6;
              expect(to - from + 1).toBeLessThanOrEqual(burst + Math.floor((span * perSecond) / 1000));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('says what remains and when to come back', () => {
    const rate = { perSecond: 1, burst: 2 };
    const first = decide(rate, undefined, 0);
    expect(first).toMatchObject({ allowed: true, remaining: 1, resetMs: 1000 });
    const second = decide(rate, first.tat, 0);
    expect(second).toMatchObject({ allowed: true, remaining: 0, resetMs: 2000 });
    expect(decide(rate, second.tat, 0)).toEqual({ allowed: false, remaining: 0, resetMs: 1000 });
    expect(rateLimitHeaders(rate, second)).toEqual({ 'RateLimit-Policy': '"requests";q=2;w=2', RateLimit: '"requests";r=0;t=2' });
  });
});

describe('tenant limits', () => {
  it('fills a tenant’s missing limits from the TENANT_* settings, and takes a second’s worth as the burst', () => {
    const defaults = defaultLimitsOf({ TENANT_REQUESTS_PER_SECOND: '5', TENANT_MAX_IN_PROGRESS: '20' });
    expect(defaults).toEqual({ requests_per_second: 5, in_progress: 20 });
    expect(requestRateOf(effectiveLimits(undefined, defaults))).toEqual({ perSecond: 5, burst: 5 });
    expect(requestRateOf(effectiveLimits({ requests_per_second: 1, burst: 4 }, defaults))).toEqual({ perSecond: 1, burst: 4 });
    expect(requestRateOf(effectiveLimits(undefined, {}))).toBeUndefined();
  });

  it('refuses a malformed default by its setting’s name', () => {
    expect(() => defaultLimitsOf({ TENANT_BURST: '0' })).toThrow(/TENANT_BURST/);
    expect(() => defaultLimitsOf({ TENANT_REQUESTS_PER_SECOND: 'fast' })).toThrow(/TENANT_REQUESTS_PER_SECOND/);
  });
});
