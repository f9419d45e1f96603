/**
 * GET /api/usage: counters written as the ledger writes them (usageItems)
 * for two tenants over several days, command types and sites, spread over
 * shards, then read through the route on `npm start`'s runtime (key, tenant,
 * envelope) and through its use case with a fixed clock (the defaults).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { generateApiKey, hashApiKey, type Principal } from '../../../shared/access/api-keys';
import { USAGE_OPERATIONS } from '../../../shared/api/openapi/usage';
import { answerUsage, MAX_USAGE_DAYS } from '../../../shared/api/usage';
import type * as z from 'zod';
import { createDocumentClient, sendTransaction } from '../../../shared/platform/dynamodb';
import { AppError } from '../../../shared/platform/errors';
import { newId } from '../../../shared/platform/ids';
import { usageItems, usageShardOf } from '../../../shared/usage/dynamo-ledger';
import { dynamoUsageTotals } from '../../../shared/usage/dynamo-usage-totals';
import {
  addUsage,
  callSeconds,
  crmWrites,
  modelTokens,
  OFFLINE_MODEL,
  searchCacheHits,
  searchRequests,
  webhookDeliveries,
  type UsageCounters,
} from '../../../shared/usage/usage';
import { call } from '../../support/http';

const SITE_A = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const SITE_B = '6c1f4d3b-9e2f-4a7b-8c8d-3f5e7a9b1c2d';
const otherKey = generateApiKey();
const OTHER_TENANT = `tenant-${hashApiKey(otherKey).slice(0, 8)}`;

let runtime: LocalRuntime;
let db: DynamoDBDocumentClient;

/** Counts usage as a command's write would: on `day` (noon UTC), for a command of `type` on `siteId`. */
async function count(
  tenantId: string,
  day: string,
  type: string,
  siteId: string | undefined,
  usage: UsageCounters,
  options: { ended?: boolean; commandId?: string } = {},
): Promise<string> {
  const commandId = options.commandId ?? newId();
  const items = usageItems(runtime.tableName, {
    target: { commandId, tenantId, type, ...(siteId ? { siteId } : {}) },
    usage,
    at: Date.parse(`${day}T12:00:00.000Z`),
    ended: options.ended ?? true,
  });
  await sendTransaction(db, items);
  return commandId;
}

/** A command id whose usage lands on another shard than `other`'s. */
function idOnAnotherShardThan(other: string): string {
  for (;;) {
    const id = newId();
    if (usageShardOf(id) !== usageShardOf(other)) return id;
  }
}

const zero = { commands: 0, call_seconds: 0, webhook_deliveries: 0, crm_writes: 0 };
const noTokens = { input: 0, output: 0, by_model: {} };
const noSearches = { requests: 0, cache_hits: 0, by_provider: {} };

/** The schema the API reference gives for a 200 answer. */
const documented = (USAGE_OPERATIONS[0]!.route.responses['200'] as { content: { 'application/json': { schema: z.ZodType } } }).content[
  'application/json'
].schema;

/** GET /api/usage with a key; every 200 answer must fit the reference. */
async function usage(query: string, key = runtime.apiKey) {
  const answer = await call(runtime.url, 'GET', `/api/usage${query}`, { key });
  if (answer.status === 200) expect(documented.safeParse(answer.body).error?.issues).toBeUndefined();
  return answer;
}

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    workers: false,
    apiKeys: { [otherKey]: [SITE_A] },
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
  db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
  const tenant = runtime.tenantId;
  // 2026-10-02: two lead follow-ups on site A, on two shards of the same day/type/site; one still running (no command counted).
  const first = await count(tenant, '2026-10-02', 'lead_follow_up', SITE_A, modelTokens('gpt-4o-mini', 100, 20));
  await count(tenant, '2026-10-02', 'lead_follow_up', SITE_A, addUsage(modelTokens('gpt-4o-mini', 50, 10), crmWrites(1)), {
    commandId: idOnAnotherShardThan(first),
  });
  await count(tenant, '2026-10-02', 'lead_follow_up', SITE_A, modelTokens(OFFLINE_MODEL, 0, 0), { ended: false });
  // 2026-10-03: a deep research (no site).
  await count(
    tenant,
    '2026-10-03',
    'deep_research',
    undefined,
    addUsage(modelTokens('gpt-4o-mini', 200, 40), searchRequests('google', 3), searchRequests('brave', 1), searchCacheHits(2)),
  );
  // 2026-10-05: a stakeholder coordination on site B, its call and its webhook delivery.
  await count(tenant, '2026-10-05', 'stakeholder_coordination', SITE_B, addUsage(callSeconds(95), webhookDeliveries(1)));
  // Outside the ranges read below.
  await count(tenant, '2026-09-30', 'lead_follow_up', SITE_A, crmWrites(7));
  await count(tenant, '2026-10-06', 'lead_follow_up', SITE_A, crmWrites(9));
  // The other tenant, same days, same site.
  await count(OTHER_TENANT, '2026-10-02', 'lead_follow_up', SITE_A, modelTokens('gpt-4o-mini', 1000, 1000));
});
afterAll(async () => {
  db?.destroy();
  await runtime?.stop();
});

const RANGE = '?from=2026-10-01&to=2026-10-05';

describe('GET /api/usage', () => {
  it("adds up the tenant's shards, days, types and sites in the range (both ends included), and only its own", async () => {
    const answer = await usage(RANGE);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      data: {
        from: '2026-10-01',
        to: '2026-10-05',
        totals: {
          commands: 4,
          model_tokens: {
            input: 350,
            output: 70,
            by_model: { 'gpt-4o-mini': { input: 350, output: 70 }, [OFFLINE_MODEL]: { input: 0, output: 0 } },
          },
          searches: { requests: 4, cache_hits: 2, by_provider: { brave: 1, google: 3 } },
          call_seconds: 95,
          webhook_deliveries: 1,
          crm_writes: 1,
        },
      },
    });
    // The last day is included; the day after is not.
    expect((await usage('?from=2026-10-05&to=2026-10-06')).body.data?.totals).toMatchObject({ commands: 2, crm_writes: 9 });
  });

  it('shows another tenant only its own totals, on the same site and days', async () => {
    const answer = await usage(`${RANGE}&group_by=site`, otherKey);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      from: '2026-10-01',
      to: '2026-10-05',
      group_by: 'site',
      totals: {
        ...zero,
        commands: 1,
        model_tokens: { input: 1000, output: 1000, by_model: { 'gpt-4o-mini': { input: 1000, output: 1000 } } },
        searches: noSearches,
      },
      groups: [
        {
          site_id: SITE_A,
          ...zero,
          commands: 1,
          model_tokens: { input: 1000, output: 1000, by_model: { 'gpt-4o-mini': { input: 1000, output: 1000 } } },
          searches: noSearches,
        },
      ],
    });
  });

  it('groups per day, ascending, leaving out days with no usage', async () => {
    const groups = (await usage(`${RANGE}&group_by=day`)).body.data?.groups as Record<string, unknown>[];
    expect(groups.map((group) => [group.day, group.commands, (group.model_tokens as { input: number }).input])).toEqual([
      ['2026-10-02', 2, 150],
      ['2026-10-03', 1, 200],
      ['2026-10-05', 1, 0],
    ]);
    expect(groups[2]).toEqual({
      day: '2026-10-05',
      ...zero,
      commands: 1,
      call_seconds: 95,
      webhook_deliveries: 1,
      model_tokens: noTokens,
      searches: noSearches,
    });
  });

  it('groups per command type, by name', async () => {
    const groups = (await usage(`${RANGE}&group_by=type`)).body.data?.groups as Record<string, unknown>[];
    expect(groups.map((group) => [group.type, group.commands, group.crm_writes])).toEqual([
      ['deep_research', 1, 0],
      ['lead_follow_up', 2, 1],
      ['stakeholder_coordination', 1, 0],
    ]);
    expect(groups[0]).toMatchObject({
      type: 'deep_research',
      searches: { requests: 4, cache_hits: 2, by_provider: { brave: 1, google: 3 } },
    });
  });

  it('groups per site, by id, with commands without a site last under site_id null', async () => {
    const groups = (await usage(`${RANGE}&group_by=site`)).body.data?.groups as Record<string, unknown>[];
    expect(groups.map((group) => [group.site_id, group.commands])).toEqual([
      [SITE_A, 2],
      [SITE_B, 1],
      [null, 1],
    ]);
  });

  it('answers a range with no usage with zeros', async () => {
    const answer = await usage('?from=2025-01-01&to=2025-01-31&group_by=day');
    expect(answer.body.data).toEqual({
      from: '2025-01-01',
      to: '2025-01-31',
      group_by: 'day',
      totals: { ...zero, model_tokens: noTokens, searches: noSearches },
      groups: [],
    });
  });

  it.each([
    ['?from=2026-10-5', 'from'],
    ['?from=2026-02-30', 'from'],
    ['?to=tomorrow', 'to'],
    ['?from=2026-10-05&to=2026-10-04', 'to'],
    [`?from=2025-10-05&to=2026-10-06`, 'from'],
    ['?group_by=week', 'group_by'],
    ['?from=2026-10-01&tenant=someone-else', 'tenant'],
  ])('refuses %s with 400 VALIDATION_ERROR naming %s, in the envelope', async (query, parameter) => {
    const answer = await usage(query);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect(answer.body.error?.message.startsWith(`${parameter}: `)).toBe(true);
  });

  it('answers 401 without a key', async () => {
    const answer = await call(runtime.url, 'GET', `/api/usage${RANGE}`);
    expect(answer.status).toBe(401);
    expect(answer.body.error?.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /api/usage defaults and bounds (its use case, on a fixed clock)', () => {
  const principal = (): Principal => ({ tenantId: runtime.tenantId, siteIds: [SITE_A, SITE_B], keyId: 'key-usage' });
  const answerAt = async (now: string, query: Record<string, string>) => {
    const answer = await answerUsage(
      { totals: dynamoUsageTotals(db, runtime.tableName), clock: { now: () => Date.parse(now) } },
      principal(),
      query,
    );
    return (JSON.parse(String(answer.body)) as { data: { from: string; to: string; totals: { commands: number; crm_writes: number } } })
      .data;
  };

  it('reads the current UTC month so far by default', async () => {
    const data = await answerAt('2026-10-05T23:59:59.000Z', {});
    expect([data.from, data.to, data.totals.commands]).toEqual(['2026-10-01', '2026-10-05', 4]);
    // Just after midnight UTC on the 1st: the new month, that day only (September's last day is not in it).
    expect(await answerAt('2026-10-01T00:00:01.000Z', {})).toMatchObject({ from: '2026-10-01', to: '2026-10-01', totals: { commands: 0 } });
  });

  it('names `from` when it is after today and `to` was left out', async () => {
    const refused = await answerAt('2026-10-05T10:00:00.000Z', { from: '2026-10-06' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: ['from'] }] });
  });

  it('with `to` only, reads from the first day of its month', async () => {
    const data = await answerAt('2026-11-20T10:00:00.000Z', { to: '2026-09-30' });
    expect([data.from, data.to, data.totals.crm_writes]).toEqual(['2026-09-01', '2026-09-30', 7]);
  });

  it(`reads at most ${MAX_USAGE_DAYS} days, both ends counted`, async () => {
    const widest = await answerAt('2026-11-20T10:00:00.000Z', { from: '2025-10-06', to: '2026-10-06' });
    expect(widest.totals.commands).toBe(6);
    const tooWide = await answerAt('2026-11-20T10:00:00.000Z', { from: '2025-10-05', to: '2026-10-06' }).catch((error: unknown) => error);
    expect(tooWide).toBeInstanceOf(AppError);
    expect(tooWide).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: ['from'] }] });
  });
});
