import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ERROR_ENVELOPES } from '../../../shared/api/openapi/errors';
import { idempotencyRecordKey } from '../../../shared/commands/idempotency';
import { hashApiKey } from '../../../shared/access/api-keys';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { usageItems } from '../../../shared/usage/dynamo-ledger';
import { dynamoUsageTotals } from '../../../shared/usage/dynamo-usage-totals';
import { modelTokens, searchRequests } from '../../../shared/usage/usage';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { eventually } from '../../support/eventually';
import { call } from '../../support/http';

/**
 * A tenant's in-progress and monthly limits through the whole local runtime
 * (no workers, so commands stay in progress until a test ends them): over a
 * limit, 429 RATE_LIMITED names it, says when to come back, and creates
 * nothing.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const CAPPED = `sbk_${'c'.repeat(32)}`;
const TOKENS = `sbk_${'t'.repeat(32)}`;
const SEARCHES = `sbk_${'q'.repeat(32)}`;
const RETRIES = `sbk_${'r'.repeat(32)}`;
const tenantOf = (key: string) => `tenant-${hashApiKey(key).slice(0, 8)}`;

let runtime: LocalRuntime;
let db: ReturnType<typeof createDocumentClient>;
beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    workers: false,
    scheduleEveryMs: 0,
    settings: { LOG_LEVEL: 'SILENT' },
    apiKeys: {
      [CAPPED]: { sites: [DEMO_SITE], limits: { in_progress: 2 } },
      [TOKENS]: { sites: [DEMO_SITE], limits: { monthly_tokens: 1_000 } },
      [SEARCHES]: { sites: [DEMO_SITE], limits: { monthly_searches: 3 } },
      [RETRIES]: { sites: [DEMO_SITE], limits: { monthly_tokens: 1_000 } },
    },
  });
  db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
});
afterAll(async () => {
  await runtime.stop();
});

const followUp = (key: string, headers: Record<string, string> = {}, leadId = DEMO_LEAD) =>
  call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', { key, body: { siteId: DEMO_SITE, leadId }, headers });
const research = (key: string) =>
  call(runtime.url, 'POST', '/api/deepResearch/operation', { key, body: { operation_type: 'general_news', query: 'crm pricing' } });
const listed = async (key: string) =>
  ((await call(runtime.url, 'GET', '/api/commands', { key })).body.data as { commands: unknown[] }).commands.length;
const inProgress = (key: string) => dynamoUsageTotals(db, runtime.tableName).inProgress(tenantOf(key));

/** A 429's body fits the envelope the API reference documents for it (docs/openapi.json). */
function expectDocumented429(body: unknown): void {
  expect(ERROR_ENVELOPES.get(429)!.safeParse(body).error?.issues).toBeUndefined();
}

/** Spends this month's usage for the tenant of `key`, as finished commands would have. */
async function spend(key: string, usage: Record<string, number>): Promise<void> {
  const target = { commandId: crypto.randomUUID(), tenantId: tenantOf(key), type: 'lead_follow_up' };
  await db.send(new TransactWriteCommand({ TransactItems: usageItems(runtime.tableName, { target, usage, at: Date.now() }) }));
}

describe('in-progress limit', () => {
  it('refuses a command past the limit with 429, keeps nothing, and takes one again once a place is given back', async () => {
    const first = await followUp(CAPPED);
    const second = await followUp(CAPPED);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(await inProgress(CAPPED)).toBe(2);

    const refused = await followUp(CAPPED, { 'Idempotency-Key': 'capped-0001' });
    expect(refused.status).toBe(429);
    expectDocumented429(refused.body);
    expect(refused.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'in_progress', in_progress: 2, remaining: 0, retry_after_seconds: 5 },
    });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await listed(CAPPED)).toBe(2);
    expect(await inProgress(CAPPED)).toBe(2);

    // Erasing one in progress gives its place back; the refused request's key is free, even with another body.
    const erased = await call(runtime.url, 'DELETE', `/api/commands/${String(first.body.data!.command_id)}`, { key: CAPPED });
    expect(erased.status).toBe(200);
    expect(await inProgress(CAPPED)).toBe(1);
    const retried = await followUp(CAPPED, { 'Idempotency-Key': 'capped-0001' }, 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091');
    expect(retried.status).toBe(202);
    expect(await inProgress(CAPPED)).toBe(2);
  });

  it('gives the places back as commands end', async () => {
    await runtime.startWorkers();
    const deadline = Date.now() + 30_000;
    while ((await inProgress(CAPPED)) !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await inProgress(CAPPED)).toBe(0);
    expect((await followUp(CAPPED)).status).toBe(202);
  });
});

describe('monthly caps', () => {
  it('refuses every command once the month’s model tokens are spent, until the next month (UTC)', async () => {
    await spend(TOKENS, modelTokens('gpt-4o-mini', 900, 100));
    const refused = await followUp(TOKENS);
    expect(refused.status).toBe(429);
    expectDocumented429(refused.body);
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(refused.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 'monthly_tokens', monthly_tokens: 1_000, used: 1_000, remaining: 0, resets_at: nextMonth },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(retryAfter - (Date.parse(nextMonth) - Date.now()) / 1000)).toBeLessThan(5);
    expect((await research(TOKENS)).status).toBe(429);
  });

  it('answers a retry of a command accepted before the cap was reached with that command, and refuses a new one', async () => {
    const first = await followUp(RETRIES, { 'Idempotency-Key': 'before-the-cap-01' });
    expect(first.status).toBe(202);
    await spend(RETRIES, modelTokens('gpt-4o-mini', 900, 100));
    // The month's totals are read at most every few seconds: wait until a new command is refused.
    await eventually(async () => ((await followUp(RETRIES)).status === 429 ? true : undefined));

    const retried = await followUp(RETRIES, { 'Idempotency-Key': 'before-the-cap-01' });
    expect([retried.status, retried.body.data?.command_id]).toEqual([200, first.body.data?.command_id]);
    const refused = await followUp(RETRIES, { 'Idempotency-Key': 'after-the-cap-01' });
    expect(refused.body.error?.details).toMatchObject({ limit: 'monthly_tokens' });
    // Refused with nothing written: that key is still free.
    const claim = idempotencyRecordKey({ tenantId: tenantOf(RETRIES), scope: 'lead_follow_up', key: 'after-the-cap-01' });
    expect((await db.send(new GetCommand({ TableName: runtime.tableName, Key: claim, ConsistentRead: true }))).Item).toBeUndefined();
  });

  it('refuses research once the month’s searches are spent, and nothing that does not search', async () => {
    await spend(SEARCHES, searchRequests('google', 3));
    const refused = await research(SEARCHES);
    expect(refused.status).toBe(429);
    expectDocumented429(refused.body);
    expect(refused.body.error?.details).toMatchObject({ limit: 'monthly_searches', monthly_searches: 3, used: 3, remaining: 0 });
    expect((await followUp(SEARCHES)).status).toBe(202);
  });
});
