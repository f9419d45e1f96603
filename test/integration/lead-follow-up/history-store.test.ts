/**
 * The lead history store against the embedded DynamoDB: one item per
 * reported event, per tenant, a bounded window, expiry and erasure, and
 * nothing of it among the site's own data.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DEMO_DATA_FILE, importFile } from '../../../infra/local/provision';
import { COLLECTION_KINDS } from '../../../shared/sites/directory';
import { dynamoLeadHistory, historyPartition, type LeadHistory, type LeadHistoryEntry } from '../../../shared/lead-follow-up/history';
import { HISTORY_WINDOW } from '../../../shared/lead-follow-up/writing-limits';
import { newId } from '../../../shared/platform/ids';
import { dynamoSiteDirectory, itemKey } from '../../../shared/sites/dynamo-directory';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const OTHER_LEAD = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
const LATER = Math.floor((T0 + 90 * DAY) / 1000);

let services: EmbeddedServices;
let history: LeadHistory;

const owner = (tenantId: string, leadId = LEAD) => ({ tenantId, siteId: SITE, leadId });
const entry = (minutes: number, summary = `Event at minute ${minutes}.`): LeadHistoryEntry => ({
  event_id: newId(),
  date: new Date(T0 + minutes * MINUTE).toISOString(),
  type: 'opened',
  channel: 'email',
  summary,
});

beforeAll(async () => {
  services = await startEmbeddedServices();
  await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
  history = dynamoLeadHistory(services.db, services.aws.tableName);
}, 60_000);

afterAll(async () => {
  await services.stop();
});

describe('the lead history store', () => {
  it('keeps each event once, as its own item under the lead, with its expiry', async () => {
    const first = entry(1, 'Asked for the price list.');
    expect(await history.record(owner('keep-a'), first, LATER)).toBe('recorded');
    expect(await history.record(owner('keep-a'), { ...first, summary: 'A second write of the same event.' }, LATER + 1)).toBe(
      'already_recorded',
    );

    const { Items = [] } = await services.db.send(
      new QueryCommand({
        TableName: services.aws.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tenant)',
        ExpressionAttributeValues: { ':pk': historyPartition(SITE, LEAD), ':tenant': 'keep-a#' },
      }),
    );
    expect(Items).toEqual([
      {
        pk: `LEADHISTORY#${SITE}#${LEAD}`,
        sk: `keep-a#${first.date}#${first.event_id}`,
        tenant_id: 'keep-a',
        site_id: SITE,
        lead_id: LEAD,
        ...first,
        expires_at: LATER,
      },
    ]);
  });

  it("reads the tenant's newest entries within the window, newest first, with one Query, never another tenant's", async () => {
    for (let minute = 0; minute < 30; minute++) await history.record(owner('window-a'), entry(minute), LATER);
    await history.record(owner('window-b'), entry(100, 'Tenant B only.'), LATER);
    await history.record(owner('window-a', OTHER_LEAD), entry(100, 'Another lead.'), LATER);

    const sent: { input: { Limit?: number } }[] = [];
    const counted = new Proxy(services.db, {
      get: (target, property, receiver) =>
        property === 'send'
          ? (command: Parameters<typeof target.send>[0]) => (sent.push(command as never), target.send(command))
          : Reflect.get(target, property, receiver),
    });
    const window = await dynamoLeadHistory(counted, services.aws.tableName).window(owner('window-a'), T0);
    expect(sent.map((command) => [command.constructor.name, command.input.Limit])).toEqual([['QueryCommand', HISTORY_WINDOW.maxEntries]]);
    expect(window.map((item) => item.summary)).toEqual(
      Array.from({ length: HISTORY_WINDOW.maxEntries }, (_, index) => `Event at minute ${29 - index}.`),
    );
    expect(await history.window(owner('window-b'), T0)).toEqual([expect.objectContaining({ summary: 'Tenant B only.' })]);
    expect(await history.window(owner('window-c'), T0)).toEqual([]);
  });

  it('stops at the character budget, never skipping an entry to fit a smaller one', async () => {
    const long = 'x'.repeat(2_000);
    for (const [minute, summary] of [
      [1, 'short and oldest'],
      [2, long],
      [3, long],
      [4, long],
      [5, 'short and newest'],
    ] as const) {
      await history.record(owner('budget-a'), entry(minute, summary), LATER);
    }
    const window = await history.window(owner('budget-a'), T0);
    // 'short and newest' + three of 2,000 would pass 6,000: the window ends before the third long one.
    expect(window.map((item) => item.summary.length)).toEqual(['short and newest'.length, 2_000, 2_000]);
    expect(window.reduce((total, item) => total + item.summary.length, 0)).toBeLessThanOrEqual(HISTORY_WINDOW.maxCharacters);
  });

  it('leaves out entries past their expiry before the TTL deletes them', async () => {
    await history.record(owner('expiry-a'), entry(1, 'Expires soon.'), Math.floor((T0 + DAY) / 1000));
    await history.record(owner('expiry-a'), entry(0, 'Kept longer.'), LATER);
    expect((await history.window(owner('expiry-a'), T0)).map((item) => item.summary)).toEqual(['Expires soon.', 'Kept longer.']);
    expect((await history.window(owner('expiry-a'), T0 + 2 * DAY)).map((item) => item.summary)).toEqual(['Kept longer.']);
  });

  it("erases a tenant's whole history of a lead, past any page, and nothing else", async () => {
    for (let minute = 0; minute < 130; minute++) await history.record(owner('erase-a'), entry(minute), LATER);
    await history.record(owner('erase-b'), entry(1, 'Tenant B stays.'), LATER);
    await history.record(owner('erase-a', OTHER_LEAD), entry(1, 'Another lead stays.'), LATER);

    expect(await history.erase(owner('erase-a'))).toBe(130);
    expect(await history.window(owner('erase-a'), T0)).toEqual([]);
    expect(await history.erase(owner('erase-a'))).toBe(0);
    expect(await history.window(owner('erase-b'), T0)).toEqual([expect.objectContaining({ summary: 'Tenant B stays.' })]);
    expect(await history.window(owner('erase-a', OTHER_LEAD), T0)).toEqual([expect.objectContaining({ summary: 'Another lead stays.' })]);
  });

  it("never shows among the site's own items: every collection and the lead read as the site's data", async () => {
    await history.record(owner('apart-a'), entry(1, 'Reported, not imported.'), LATER);
    const sites = dynamoSiteDirectory(services.db, services.aws.tableName);
    for (const kind of COLLECTION_KINDS) {
      const items = await sites.listItems(SITE, kind, 1_000);
      expect(JSON.stringify(items)).not.toContain('Reported, not imported.');
    }
    const leads = await sites.listItems(SITE, 'leads', 1_000);
    expect(leads.map((lead) => lead.id).sort()).toEqual([LEAD, OTHER_LEAD].sort());
    expect(JSON.stringify(await sites.getItem(SITE, 'leads', LEAD))).not.toContain('Reported, not imported.');
  });
});

describe('a lead written before reported events had their own items', () => {
  it('reads without the interactions events appended to it, and without their ids', async () => {
    const table = services.aws.tableName;
    const { Item } = await services.db.send(new GetCommand({ TableName: table, Key: itemKey(SITE, 'leads', OTHER_LEAD) }));
    const imported = [{ date: '2026-11-01', type: 'demo', summary: 'Imported with the site.' }];
    const appended = [
      { date: '2026-11-20T10:00:00.000Z', type: 'replied', summary: 'Another tenant reported this.' },
      { date: '2026-11-21T10:00:00.000Z', type: 'opened', summary: 'And this.' },
    ];
    await services.db.send(
      new PutCommand({
        TableName: table,
        Item: { ...Item, interactions: [...imported, ...appended], interaction_event_ids: [newId(), newId()] },
      }),
    );

    const sites = dynamoSiteDirectory(services.db, table);
    const lead = await sites.getItem(SITE, 'leads', OTHER_LEAD);
    expect(lead?.interactions).toEqual(imported);
    expect(lead).not.toHaveProperty('interaction_event_ids');
    const listed = (await sites.listItems(SITE, 'leads', 10)).find((item) => item.id === OTHER_LEAD);
    expect(listed?.interactions).toEqual(imported);

    await services.db.send(new PutCommand({ TableName: table, Item: Item! }));
  });
});
