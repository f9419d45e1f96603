/**
 * GET /api/commands on the embedded DynamoDB: commands created through the
 * kernel's store, listed through the tenant's index partition (gsi3), read
 * through a counting proxy so the test sees every operation the listing makes.
 */
import { dynamoCommandListing, MAX_INDEX_PAGES } from '../../../shared/commands/dynamo-listing';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import type { CommandStore } from '../../../shared/commands/store';
import type { CommandRecord, CommandType } from '../../../shared/commands/record';
import { answerListCommands } from '../../../shared/api/list-commands';
import type { Principal } from '../../../shared/access/api-keys';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { AppError } from '../../../shared/platform/errors';
import { newId } from '../../../shared/platform/ids';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startCountingProxy, type CountingProxy } from '../../support/counting-proxy';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE_A = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const SITE_B = '6c1f4d3b-9e2f-4a7b-8c8d-3f5e7a9b1c2d';
const TENANT_A: Principal = { tenantId: 'tenant-list-a', siteIds: [SITE_A, SITE_B], keyId: 'key-a' };
const TENANT_B: Principal = { tenantId: 'tenant-list-b', siteIds: [SITE_A], keyId: 'key-b' };
const START = Date.parse('2026-10-01T00:00:00.000Z');
const TYPES: readonly CommandType[] = ['lead_follow_up', 'stakeholder_coordination', 'deep_research'];
const COUNT = 240;

let services: EmbeddedServices;
let proxy: CountingProxy;
let db: DynamoDBDocumentClient;
let store: CommandStore;
const clock = { now: () => START + 30 * 86_400_000 };
/** Tenant A's commands as created, oldest first. */
const created: CommandRecord[] = [];

type Item = { command_id: string; type: string; status: string; site_id: string | null; created_at: string; finished_at: string | null };
type Page = { commands: Item[]; has_more: boolean; next_cursor: string | null };

const list = async (principal: Principal, query: Record<string, string> = {}): Promise<Page> => {
  const answer = await answerListCommands({ listing: dynamoCommandListing(db, services.aws.tableName), clock }, principal, query);
  expect(answer.statusCode).toBe(200);
  return (JSON.parse(String(answer.body)) as { data: Page }).data;
};

const refusal = async (principal: Principal, query: Record<string, string>) => {
  const error = await answerListCommands({ listing: dynamoCommandListing(db, services.aws.tableName), clock }, principal, query).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

/** Every page of a listing, following next_cursor. */
const walk = async (principal: Principal, query: Record<string, string>): Promise<{ items: Item[]; pages: number }> => {
  const items: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Page = await list(principal, { ...query, ...(cursor ? { cursor } : {}) });
    items.push(...page.commands);
    expect(page.has_more).toBe(page.next_cursor !== null);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { items, pages };
};

const command = (index: number, tenantId: string): CommandRecord => {
  const at = new Date(START + index * 60_000).toISOString();
  return {
    id: newId(),
    type: TYPES[index % TYPES.length]!,
    status: 'in_progress',
    tenant_id: tenantId,
    ...(index % 4 === 3 ? {} : { site_id: index % 2 === 0 ? SITE_A : SITE_B }),
    request: {},
    created_at: at,
    updated_at: at,
    attempts: 0,
  };
};

beforeAll(async () => {
  services = await startEmbeddedServices();
  proxy = await startCountingProxy();
  proxy.forwardTo(services.aws.dynamodbEndpoint);
  db = createDocumentClient({ endpoint: proxy.url, region: services.aws.region });
  store = dynamoCommandStore(services.db, services.aws.tableName);
  for (let index = 0; index < COUNT; index++) {
    const record = command(index, TENANT_A.tenantId);
    await store.create(record);
    const finishedAt = Date.parse(record.created_at) + 5_000;
    if (index % 5 === 1) await store.complete(record, { done: true }, finishedAt);
    if (index % 5 === 2) await store.fail(record, { code: 'SEARCH_FAILED', message: 'The provider failed.' }, finishedAt);
    created.push({ ...record, status: index % 5 === 1 ? 'completed' : index % 5 === 2 ? 'failed' : 'in_progress' });
    // A child phase of some: never listed.
    if (index % 10 === 0) {
      await store.create({ ...command(index, TENANT_A.tenantId), type: 'copywriter', parent_id: record.id });
    }
  }
  for (let index = 0; index < 5; index++) await store.create(command(index, TENANT_B.tenantId));
}, 120_000);

afterAll(async () => {
  db.destroy();
  await proxy.close();
  await services.stop();
});

const newestFirst = (records: readonly CommandRecord[]) => [...records].reverse().map((record) => record.id);

describe('GET /api/commands', () => {
  it("walks the tenant's commands newest first, page by page, with no duplicate, gap or child phase", async () => {
    const { items, pages } = await walk(TENANT_A, { limit: '37' });
    expect(items.map((item) => item.command_id)).toEqual(newestFirst(created));
    expect(pages).toBe(Math.ceil(COUNT / 37));
    expect(items.some((item) => item.type === 'copywriter')).toBe(false);
  });

  it('shows the short form: a finished command its end and error code, a running one nulls', async () => {
    const page = await list(TENANT_A, { limit: '5' });
    const byId = new Map(created.map((record) => [record.id, record]));
    for (const item of page.commands) {
      const record = byId.get(item.command_id)!;
      expect(Object.keys(item).sort()).toEqual(['command_id', 'created_at', 'error', 'finished_at', 'site_id', 'status', 'type']);
      expect(item).toMatchObject({
        type: record.type,
        status: record.status,
        created_at: record.created_at,
        site_id: record.site_id ?? null,
      });
      if (record.status === 'in_progress') expect(item).toMatchObject({ finished_at: null, error: null });
      else expect(item.finished_at).toBe(new Date(Date.parse(record.created_at) + 5_000).toISOString());
      if (record.status === 'failed') expect(item).toMatchObject({ error: { code: 'SEARCH_FAILED' } });
    }
    expect(new Set(page.commands.map((item) => item.status)).size).toBeGreaterThan(1);
  });

  it.each([
    ['type', { type: 'stakeholder_coordination' }, (record: CommandRecord) => record.type === 'stakeholder_coordination'],
    ['several types', { type: 'deep_research,lead_follow_up' }, (record: CommandRecord) => record.type !== 'stakeholder_coordination'],
    ['status', { status: 'failed' }, (record: CommandRecord) => record.status === 'failed'],
    ['site', { site_id: SITE_B.toUpperCase() }, (record: CommandRecord) => record.site_id === SITE_B],
    [
      'all three',
      { type: 'lead_follow_up', status: 'in_progress', site_id: SITE_A },
      (record: CommandRecord) => record.type === 'lead_follow_up' && record.status === 'in_progress' && record.site_id === SITE_A,
    ],
    [
      'created window',
      { created_after: '2026-10-01T01:00:00Z', created_before: '2026-10-01T02:00:00.000+00:00' },
      (record: CommandRecord) => record.created_at >= '2026-10-01T01:00:00.000Z' && record.created_at < '2026-10-01T02:00:00.000Z',
    ],
    [
      'created after',
      { created_after: '2026-10-01T03:00:00+01:00' },
      (record: CommandRecord) => record.created_at >= '2026-10-01T02:00:00.000Z',
    ],
    [
      'created before',
      { created_before: '2026-10-01T00:10:00Z' },
      (record: CommandRecord) => record.created_at < '2026-10-01T00:10:00.000Z',
    ],
  ])('filters by %s, every page', async (_name, query, keep) => {
    const expected = newestFirst(created.filter(keep));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(COUNT);
    const { items } = await walk(TENANT_A, { ...query, limit: '7' });
    expect(items.map((item) => item.command_id)).toEqual(expected);
  });

  it("never shows another tenant's commands, and refuses a cursor given for another tenant or other filters", async () => {
    const other = await walk(TENANT_B, {});
    expect(other.items).toHaveLength(5);
    const ownIds = new Set(created.map((record) => record.id));
    expect(other.items.some((item) => ownIds.has(item.command_id))).toBe(false);

    const first = await list(TENANT_A, { limit: '3' });
    expect(first.next_cursor).not.toBeNull();
    const stolen = await refusal(TENANT_B, { limit: '3', cursor: first.next_cursor! });
    expect(stolen).toMatchObject({ code: 'INVALID_REQUEST', details: [expect.objectContaining({ path: ['cursor'] })] });
    expect(await refusal(TENANT_A, { limit: '3', status: 'failed', cursor: first.next_cursor! })).toMatchObject({
      code: 'INVALID_REQUEST',
    });
    expect(await refusal(TENANT_A, { cursor: 'not-a-cursor' })).toMatchObject({ code: 'INVALID_REQUEST' });
    // The page size may change between pages.
    expect((await list(TENANT_A, { limit: '4', cursor: first.next_cursor! })).commands[0]!.command_id).toBe(newestFirst(created)[3]);
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ type: 'phone_call' }, 'type'],
    [{ status: 'done' }, 'status'],
    [{ site_id: 'site-1' }, 'site_id'],
    [{ created_after: 'yesterday' }, 'created_after'],
    [{ created_after: '2026-10-02T00:00:00Z', created_before: '2026-10-01T00:00:00Z' }, 'created_after'],
    [{ sort: 'asc' }, ''],
  ])('refuses %j with 400 INVALID_REQUEST naming the parameter', async (query, field) => {
    const error = await refusal(TENANT_A, query);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.statusCode).toBe(400);
    expect(error.details).toHaveLength(1);
    expect((error.details as { path: string[] }[])[0]!.path.slice(0, 1)).toEqual(field ? [field] : []);
  });

  it.each(['0', '101', 'ten', '2.5'])('says what limit %j should be, in the words of every listing', async (limit) => {
    expect((await refusal(TENANT_A, { limit })).message).toBe('limit: must be a whole number from 1 to 100');
  });

  it('answers a short page with a cursor once it has read its bound of index pages, and the walk still finds every match', async () => {
    const listing = dynamoCommandListing(db, services.aws.tableName, { maxIndexPages: 2, filteredPageItems: 10 });
    const query = {
      tenantId: TENANT_A.tenantId,
      types: ['deep_research' as const],
      statuses: ['failed' as const],
      limit: 50,
      now: clock.now(),
    };
    proxy.reset();
    const first = await listing.listForTenant(query);
    expect(proxy.counts()).toEqual({ Query: 2 });
    expect(first.commands.length).toBeLessThan(50);
    expect(first.next).toEqual(expect.any(String));
    const found = [...first.commands];
    for (let next = first.next, rounds = 0; next !== undefined && rounds < 100; rounds++) {
      const page = await listing.listForTenant({ ...query, after: next });
      found.push(...page.commands);
      next = page.next;
    }
    expect(found.map((item) => item.id)).toEqual(
      newestFirst(created.filter((record) => record.type === 'deep_research' && record.status === 'failed')),
    );
  });

  it('reads the index only (Query, never Scan), a bounded number of pages for a rare filter, and goes on from its cursor', async () => {
    proxy.reset();
    const rare = await list(TENANT_A, { type: 'stakeholder_coordination', status: 'failed', site_id: SITE_A, limit: '100' });
    const counts = proxy.counts();
    expect(Object.keys(counts)).toEqual(['Query']);
    expect(counts.Query).toBeLessThanOrEqual(MAX_INDEX_PAGES);
    const expected = newestFirst(
      created.filter((record) => record.type === 'stakeholder_coordination' && record.status === 'failed' && record.site_id === SITE_A),
    );
    const { items } = await walk(TENANT_A, { type: 'stakeholder_coordination', status: 'failed', site_id: SITE_A, limit: '100' });
    expect(items.map((item) => item.command_id)).toEqual(expected);
    expect(rare.commands.map((item) => item.command_id)).toEqual(expected.slice(0, rare.commands.length));
  });
});
