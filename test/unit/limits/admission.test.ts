import { createCommandAdmission, nextMonthStart } from '../../../shared/access/limits/admission';
import { RateLimitedError } from '../../../shared/access/limits/rate-limited-error';
import type { UsageCounters } from '../../../shared/usage/usage';
import { modelTokens, searchRequests, addUsage } from '../../../shared/usage/usage';

/** Admission against monthly caps, with totals held in memory and a fixed clock. */
const DECEMBER_NIGHT = Date.parse('2026-12-31T23:59:30Z');

function admissionWith(month: UsageCounters, limits = { monthly_tokens: 100, monthly_searches: 2, in_progress: 7 }) {
  const reads: string[] = [];
  const admission = createCommandAdmission({
    tenantLimits: async () => limits,
    totals: {
      month: async (tenantId, name) => {
        reads.push(`${tenantId}:${name}`);
        return month;
      },
    },
    defaults: {},
    clock: { now: () => DECEMBER_NIGHT },
  });
  return { admission, reads };
}

describe('command admission', () => {
  it('answers the in-progress limit while the month has room, reading the month once per cache time', async () => {
    const { admission, reads } = admissionWith(addUsage(modelTokens('m', 50, 49), searchRequests('google', 1)));
    expect(await admission.admit('t1', ['model_tokens', 'searches'])).toEqual({ inProgressCap: 7 });
    expect(await admission.admit('t1', ['model_tokens'])).toEqual({ inProgressCap: 7 });
    expect(reads).toEqual(['t1:2026-12']);
  });

  it('refuses at the cap with when it resets: the first moment of the next UTC month, across a year', async () => {
    const { admission } = admissionWith(modelTokens('m', 60, 40));
    const refusal = await admission.admit('t1', ['model_tokens']).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    const { details, headers } = refusal as RateLimitedError;
    expect(details).toMatchObject({
      limit: 'monthly_tokens',
      monthly_tokens: 100,
      used: 100,
      remaining: 0,
      retry_after_seconds: 30,
      resets_at: '2027-01-01T00:00:00.000Z',
    });
    expect(headers['Retry-After']).toBe('30');
    expect(nextMonthStart(Date.parse('2026-02-28T12:00:00Z'))).toBe(Date.parse('2026-03-01T00:00:00Z'));
  });

  it('holds a command only to the caps of what it spends, and reads no month for a tenant without caps', async () => {
    const spentSearches = admissionWith(searchRequests('brave', 2));
    expect(await spentSearches.admission.admit('t1', ['model_tokens'])).toEqual({ inProgressCap: 7 });
    await expect(spentSearches.admission.admit('t1', ['model_tokens', 'searches'])).rejects.toMatchObject({ limit: 'monthly_searches' });
    const uncapped = admissionWith(modelTokens('m', 10_000, 0), {} as never);
    expect(await uncapped.admission.admit('t2', ['model_tokens', 'searches'])).toEqual({});
    expect(uncapped.reads).toEqual([]);
  });

  it("reads no tenant record when the caller brings the tenant's own limits", async () => {
    const admission = createCommandAdmission({
      tenantLimits: async () => {
        throw new Error('the record must not be read');
      },
      totals: { month: async () => modelTokens('m', 5, 0) },
      defaults: { in_progress: 3 },
      clock: { now: () => DECEMBER_NIGHT },
    });
    expect(await admission.admit('t4', ['model_tokens'], null)).toEqual({ inProgressCap: 3 });
    await expect(admission.admit('t5', ['model_tokens'], { monthly_tokens: 5 })).rejects.toMatchObject({ limit: 'monthly_tokens' });
  });
});
