import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { movableClock } from '../../support/clock';
import { call, type JsonAnswer } from '../../support/http';
import { ERROR_ENVELOPES } from '../../../shared/api/openapi/errors';

/**
 * Request rates per tenant through the whole local runtime: one tenant
 * sending ten times its rate is refused with 429 RATE_LIMITED (nothing
 * created), while another tenant at its own pace is never refused and does
 * exactly the storage work it does alone (how fast it is beside a flood is
 * measured by the bench, not here: a timing on this shared machine is
 * noise). A bucket refills as the runtime's clock moves on: the test moves
 * it rather than wait a second.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const NOISY = `sbk_${'n'.repeat(32)}`;
const STEADY = `sbk_${'s'.repeat(32)}`;
const UNLIMITED = `sbk_${'u'.repeat(32)}`;
const CALM = `sbk_${'c'.repeat(32)}`;

let runtime: LocalRuntime;
const clock = movableClock();
/** The embedded services' calls while a request is watched (watch()), in order. */
let watched: string[] | undefined;
/** Moves the runtime's clock past a full refill of every bucket. */
const refill = () => clock.advance(1100);
beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    clock,
    workers: false,
    settings: { LOG_LEVEL: 'SILENT' },
    onAwsRequest: (service, operation) => watched?.push(`${service}:${operation}`),
    apiKeys: {
      [NOISY]: { sites: [DEMO_SITE], limits: { requests_per_second: 2, burst: 2 } },
      [STEADY]: { sites: [DEMO_SITE], limits: { requests_per_second: 5, burst: 5 } },
      [UNLIMITED]: [DEMO_SITE],
      [CALM]: { sites: [DEMO_SITE], limits: { requests_per_second: 20, burst: 20 } },
    },
  });
});
afterAll(async () => {
  await runtime.stop();
});

const accept = (key: string, headers: Record<string, string> = {}) =>
  call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', { key, body: { siteId: DEMO_SITE, leadId: DEMO_LEAD }, headers });

/** One accept's status and the storage calls it made (nothing else runs meanwhile: workers are off, the flood has ended). */
async function watch(key: string): Promise<{ status: number; calls: string }> {
  watched = [];
  try {
    const { status } = await accept(key);
    return { status, calls: watched.join(' ') };
  } finally {
    watched = undefined;
  }
}

/** The value met most often. */
const mostOften = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
};

describe('request rate per tenant', () => {
  it('refuses a tenant over its rate with 429, Retry-After and what it hit, and creates nothing', async () => {
    const answers: JsonAnswer[] = await Promise.all(Array.from({ length: 6 }, () => accept(NOISY)));
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(answer.body.error).toMatchObject({
        code: 'RATE_LIMITED',
        details: { limit: 'requests_per_second', requests_per_second: 2, burst: 2, remaining: 0, retry_after_seconds: 1 },
      });
      expect(Date.parse((answer.body.error!.details as { resets_at: string }).resets_at)).toBeGreaterThan(Date.now() - 1000);
      expect(answer.headers.get('retry-after')).toBe('1');
      // As the API reference documents a 429 (docs/openapi.json).
      expect(ERROR_ENVELOPES.get(429)!.safeParse(answer.body).error?.issues).toBeUndefined();
      expect(answer.headers.get('ratelimit-policy')).toBe('"requests";q=2;w=1');
      expect(answer.headers.get('ratelimit')).toMatch(/^"requests";r=0;t=\d+$/);
    }

    // A refused request kept nothing: its Idempotency-Key, sent again once the bucket refills, starts a command.
    refill();
    const key = 'rate-limit-retry-0001';
    const first = await accept(NOISY, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    await Promise.all([accept(NOISY), accept(NOISY)]);
    expect((await accept(NOISY, { 'Idempotency-Key': 'rate-limit-retry-0002' })).status).toBe(429);
    refill();
    const retried = await accept(NOISY, { 'Idempotency-Key': 'rate-limit-retry-0002' });
    expect(retried.status).toBe(202);
    expect(retried.body.data?.command_id).not.toBe(first.body.data?.command_id);
  });

  it('puts the RateLimit headers on every answer of a limited tenant, errors included, and none on an unlimited one', async () => {
    refill();
    const missing = await call(runtime.url, 'GET', '/api/commands/00000000-0000-4000-8000-000000000000', { key: STEADY });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-policy')).toBe('"requests";q=5;w=1');
    expect(missing.headers.get('ratelimit')).toMatch(/^"requests";r=4;t=1$/);
    const unlimited = await call(runtime.url, 'GET', '/api/commands/00000000-0000-4000-8000-000000000000', { key: UNLIMITED });
    expect(unlimited.status).toBe(404);
    expect(unlimited.headers.get('ratelimit')).toBeNull();
  });

  it('never lets one tenant’s flood reach another: no 429, and the same storage work as alone', async () => {
    refill();
    /**
     * Alone and just after a burst of the flood, in turns. A burst is six requests at once, three times the noisy tenant's
     * whole bucket, and has ended when the calm tenant's accept is watched: locally one process serves both tenants, so a
     * flood request in the same instant would only share one event loop, which in AWS (an instance per concurrent request)
     * does not happen. What the flood leaves is what could reach the calm tenant: the noisy tenant's empty bucket and
     * whatever it wrote. Reaching it would show as work: a refusal, a retried write, a read the calm tenant does not make
     * alone.
     */
    const floodStatuses: number[] = [];
    // Six at once: how fast the machine answers does not decide whether the flood outruns its rate (2 a second).
    const burst = async () => {
      floodStatuses.push(...(await Promise.all(Array.from({ length: 6 }, async () => (await accept(NOISY)).status))));
    };
    const started = performance.now();
    const alone: string[] = [];
    const beside: string[] = [];
    const besideStatuses: number[] = [];
    for (let pair = 0; pair < 25; pair++) {
      alone.push((await watch(CALM)).calls);
      await burst();
      const during = await watch(CALM);
      beside.push(during.calls);
      besideStatuses.push(during.status);
    }

    // The calm tenant stays within its own rate (about 10 requests a second against its 20) and is never refused.
    expect(besideStatuses).toEqual(Array.from({ length: 25 }, () => 202));
    // The flood got no more than its bucket holds and refills (2, and 2 a second) over the time it ran.
    const admitted = floodStatuses.filter((status) => status === 202).length;
    expect(admitted).toBeLessThanOrEqual(2 + Math.ceil((2 * (performance.now() - started)) / 1000));
    expect(floodStatuses.filter((status) => status !== 202 && status !== 429)).toEqual([]);
    expect(floodStatuses.filter((status) => status === 429).length).toBeGreaterThan(floodStatuses.length / 2);
    // Its accept makes the same calls beside the flood as alone: its bucket's update, the lead and its state, the command, the job.
    const usual = mostOften(alone);
    expect(usual).toMatch(/dynamodb:UpdateItem.*sqs:SendMessage/);
    expect(beside.filter((calls) => calls !== usual && !alone.includes(calls))).toEqual([]);
  }, 30_000);
});
