import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { hashApiKey } from '../../../shared/access/api-keys';
import { DEMO_SITE_ID } from '../../../shared/api/examples';
import { documentClientOf } from '../../../shared/composition/adapters';
import { dynamoLeadLinks } from '../../../shared/crm/dynamo-lead-links';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';
import { eventually } from '../../support/embedded';
import { call, type JsonAnswer } from '../../support/http';

/**
 * POST /api/integrations/hubspot/import through the local runtime and its
 * crm worker, the contacts read by the real client library from the
 * loopback HubSpot: what becomes of the contacts, that importing again
 * updates the same leads, paging, HubSpot failing, and tenants kept apart.
 */
const CONNECT = '/api/integrations/hubspot';
const IMPORT = '/api/integrations/hubspot/import';
const OTHER_KEY = 'sbk_crm-import-other-tenant-0001';
const UNCOVERED_KEY = 'sbk_crm-import-no-site-00000001';
const OTHER_TOKEN = 'pat-na1-other-tenant-token-0000000000';
const CRM_KEY = 'crm-import-test-service-key-0123456789abcdef';

let hubspot: HubSpotFake;
let runtime: LocalRuntime;

beforeAll(async () => {
  hubspot = await startHubSpotFake();
  hubspot.addToken(OTHER_TOKEN, { portalId: 99_000_111 });
  runtime = await startLocalRuntime({
    port: 0,
    apiKeys: { [OTHER_KEY]: [DEMO_SITE_ID], [UNCOVERED_KEY]: [] },
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: process.env.CRM_TEST_LOG ?? 'SILENT',
      HUBSPOT_API_BASE_URL: hubspot.baseUrl,
      CRM_ENCRYPTION_KEY: CRM_KEY,
      JOB_RETRY_DELAYS_SECONDS: '1',
    },
  });
  expect((await call(runtime.url, 'PUT', CONNECT, { key: runtime.apiKey, body: { access_token: hubspot.token } })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await hubspot?.close();
});

const db = () =>
  documentClientOf({
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamodbEndpoint,
  });

async function tenantOfKey(key: string): Promise<string> {
  const { Item } = await db().send(
    new GetCommand({ TableName: runtime.tableName, Key: { pk: `APIKEY#${hashApiKey(key)}`, sk: 'APIKEY' } }),
  );
  return String(Item?.tenant_id);
}

const lead = async (leadId: string) =>
  (await db().send(new GetCommand({ TableName: runtime.tableName, Key: { pk: `SITE#${DEMO_SITE_ID}`, sk: `LEADS#${leadId}` } }))).Item;

interface ImportResult {
  created: number;
  updated: number;
  skipped: number;
  leads: { lead_id: string; hubspot_contact_id: string; action: string }[];
  skips: { hubspot_contact_id: string; reason: string; detail?: string }[];
  limit_reached: boolean;
}

/** Starts an import and waits for its command to end; its final view. */
async function importAndWait(body: unknown, key = runtime.apiKey, timeoutMs = 20_000): Promise<JsonAnswer['body']['data']> {
  const started = await call(runtime.url, 'POST', IMPORT, { key, body });
  expect(started.status).toBe(202);
  const id = String(started.body.data!.command_id);
  const ended = await eventually(
    async () => {
      const answer = await call(runtime.url, 'GET', `/api/commands/${id}`, { key });
      return answer.body.data?.status === 'in_progress' ? undefined : answer.body.data;
    },
    timeoutMs,
    'the import to end',
  );
  return ended;
}

const resultOf = (view: JsonAnswer['body']['data']) => {
  expect(view).toMatchObject({ status: 'completed' });
  // GET /api/commands/{id} shows a completed command's result beside its id and status.
  return view as unknown as ImportResult;
};

describe('POST /api/integrations/hubspot/import', () => {
  afterEach(() => hubspot.heal());

  it('imports contacts as leads, and importing them again updates the same leads', async () => {
    const ada = hubspot.addContact({
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: 'ada@analytical.example',
      phone: '+442071234567',
      company: 'Analytical Engines',
      jobtitle: 'Head of Research',
      hs_lead_status: 'OPEN_DEAL',
    });
    hubspot.addEngagement('notes', ada, { hs_timestamp: '2026-11-20T10:00:00.000Z', hs_note_body: '<p>Asked for a demo.</p>' });
    const grace = hubspot.addContact({ firstname: 'Grace', email: 'grace@navy.example' });
    const unreachable = hubspot.addContact({ firstname: 'Nobody' });

    const first = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, contact_ids: [ada, grace, unreachable, '999999999'] }));
    expect(first).toMatchObject({ created: 2, updated: 0, skipped: 2, limit_reached: false });
    expect(first.skips).toEqual(
      expect.arrayContaining([
        { hubspot_contact_id: unreachable, reason: 'no_contact_point' },
        { hubspot_contact_id: '999999999', reason: 'not_found' },
      ]),
    );
    const adaLead = first.leads.find((entry) => entry.hubspot_contact_id === ada)!;
    expect(adaLead.action).toBe('created');
    expect(await lead(adaLead.lead_id)).toMatchObject({
      id: adaLead.lead_id,
      name: 'Ada Lovelace',
      company: 'Analytical Engines',
      email: 'ada@analytical.example',
      phone: '+442071234567',
      position: 'Head of Research',
      lead_stage: 'proposal',
      interactions: [{ date: '2026-11-20T10:00:00.000Z', type: 'note', summary: 'Asked for a demo.' }],
    });
    const links = dynamoLeadLinks(db(), runtime.tableName, 'hubspot');
    expect(await links.contactOf(runtime.tenantId, DEMO_SITE_ID, adaLead.lead_id)).toBe(ada);

    hubspot.addContact({ ...hubspot.contact(ada)!, jobtitle: 'Chief Scientist' }, ada);
    const second = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, contact_ids: [ada, grace] }));
    expect(second).toMatchObject({ created: 0, updated: 2, skipped: 0 });
    expect(second.leads.map((entry) => entry.lead_id).sort()).toEqual(first.leads.map((entry) => entry.lead_id).sort());
    expect(await lead(adaLead.lead_id)).toMatchObject({ position: 'Chief Scientist', name: 'Ada Lovelace' });
    expect(await links.leadOf(runtime.tenantId, ada)).toEqual([{ siteId: DEMO_SITE_ID, leadId: adaLead.lead_id }]);
  }, 60_000);

  it('takes the site’s lead with the same e-mail rather than make a second one', async () => {
    const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
    expect(await lead(DEMO_LEAD)).toMatchObject({ email: 'jordan.alvarez@trailhead-rentals.example' });
    const jordan = hubspot.addContact({ firstname: 'Jordan', lastname: 'Alvarez', email: 'Jordan.Alvarez@trailhead-rentals.example' });
    const result = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, contact_ids: [jordan] }));
    expect(result).toMatchObject({
      created: 0,
      updated: 1,
      leads: [{ lead_id: DEMO_LEAD, hubspot_contact_id: jordan, action: 'updated' }],
    });
    // What HubSpot holds no value for keeps the site's.
    expect(await lead(DEMO_LEAD)).toMatchObject({ name: 'Jordan Alvarez', company: expect.any(String), interactions: expect.any(Array) });
  }, 60_000);

  it("imports a list's members page by page", async () => {
    const members = Array.from({ length: 130 }, (_, index) => hubspot.addContact({ email: `member${index}@list.example` }));
    hubspot.setList('77', members);

    const result = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, list_id: '77' }, runtime.apiKey, 40_000));
    expect(result).toMatchObject({ created: 130, skipped: 0 });
    expect(new Set(result.leads.map((entry) => entry.hubspot_contact_id))).toEqual(new Set(members));
    const pages = hubspot.requests.filter((request) => request.path.endsWith('/lists/77/memberships'));
    expect(pages.map((request) => request.query.after)).toEqual([undefined, '100']);
  }, 60_000);

  it('retries the job when HubSpot answers 5xx, and loses no contact', async () => {
    const ids = [hubspot.addContact({ email: 'retry1@down.example' }), hubspot.addContact({ email: 'retry2@down.example' })];
    // The adapter retries a read once; the third and fourth 500s fail the first attempt of the job, and its retry succeeds.
    hubspot.failNext(2, 'server_error', '/contacts/batch/read');

    const result = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, contact_ids: ids }));
    expect(result).toMatchObject({ created: 2, skipped: 0 });
    expect(hubspot.requests.filter((request) => request.path.endsWith('/contacts/batch/read')).length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it("reads with the importing tenant's own token, and keeps its links apart", async () => {
    const shared = hubspot.addContact({ email: 'shared@both.example' });
    const mine = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, contact_ids: [shared] }));

    expect((await call(runtime.url, 'PUT', CONNECT, { key: OTHER_KEY, body: { access_token: OTHER_TOKEN } })).status).toBe(200);
    const before = hubspot.requests.length;
    const theirs = resultOf(await importAndWait({ site_id: DEMO_SITE_ID, contact_ids: [shared] }, OTHER_KEY));

    const used = hubspot.requests.slice(before).filter((request) => request.path.includes('/crm/'));
    expect(used.length).toBeGreaterThan(0);
    for (const request of used) expect(request.headers.authorization).toBe(`Bearer ${OTHER_TOKEN}`);
    // The site's leads are shared by the tenants covering it: the same person (by e-mail) is the same lead, which each tenant
    // links to its own contact.
    expect(theirs).toMatchObject({ created: 0, updated: 1 });
    expect(theirs.leads[0]!.lead_id).toBe(mine.leads[0]!.lead_id);
    const links = dynamoLeadLinks(db(), runtime.tableName, 'hubspot');
    expect(await links.leadOf(await tenantOfKey(OTHER_KEY), shared)).toEqual([{ siteId: DEMO_SITE_ID, leadId: theirs.leads[0]!.lead_id }]);
    expect(await links.leadOf(runtime.tenantId, shared)).toEqual([{ siteId: DEMO_SITE_ID, leadId: mine.leads[0]!.lead_id }]);
  }, 60_000);

  it('refuses a bad body (400), a site the key does not cover (403) and a tenant without a connection (404)', async () => {
    const bad = await call(runtime.url, 'POST', IMPORT, {
      key: runtime.apiKey,
      body: { site_id: DEMO_SITE_ID, contact_ids: ['1'], list_id: '2' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('INVALID_REQUEST');
    const uncovered = await call(runtime.url, 'POST', IMPORT, { key: UNCOVERED_KEY, body: { site_id: DEMO_SITE_ID } });
    expect(uncovered.status).toBe(403);
    await call(runtime.url, 'DELETE', CONNECT, { key: OTHER_KEY });
    const unconnected = await call(runtime.url, 'POST', IMPORT, { key: OTHER_KEY, body: { site_id: DEMO_SITE_ID } });
    expect(unconnected.status).toBe(404);
    expect(unconnected.body.error?.code).toBe('NOT_FOUND');
  });
});
