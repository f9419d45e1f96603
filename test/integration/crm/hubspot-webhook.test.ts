import { Signature } from '@hubspot/api-client';
import { GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { hashApiKey } from '../../../shared/access/api-keys';
import { DEMO_SITE_ID } from '../../../shared/api/examples';
import { documentClientOf } from '../../../shared/composition/adapters';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';

/**
 * POST /webhooks/hubspot through the local runtime, signed with the
 * official client library's signer: forged, stale and unsigned calls
 * change nothing; a signed change re-reads the linked contact into its
 * lead; a reply becomes the tenant's lead event; another tenant connected
 * to the same portal is never touched by a call it did not sign.
 */
const CONNECT = '/api/integrations/hubspot';
const IMPORT = '/api/integrations/hubspot/import';
const HOOK = '/webhooks/hubspot';
const SECRET_A = 'cs-tenant-a-7a3c1f0e-9b8d-4c6e-a5f4';
const SECRET_B = 'cs-tenant-b-0f9e8d7c-6b5a-4f3e-9d2c';
const OTHER_KEY = 'sbk_crm-webhook-other-tenant-01';
const OTHER_TOKEN = 'pat-na1-webhook-other-tenant-000000';

let hubspot: HubSpotFake;
let runtime: LocalRuntime;
let contactId: string;
let leadA: string;
let leadB: string;
let eventId = 1;

const db = () =>
  documentClientOf({
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamodbEndpoint,
  });

const lead = async (leadId: string) =>
  (await db().send(new GetCommand({ TableName: runtime.tableName, Key: { pk: `SITE#${DEMO_SITE_ID}`, sk: `LEADS#${leadId}` } }))).Item;

/** The commands of `type` (of tenant `tenantId` alone, when given). */
async function commandsOf(type: string, tenantId?: string): Promise<Record<string, unknown>[]> {
  const { Items } = await db().send(
    new ScanCommand({
      TableName: runtime.tableName,
      FilterExpression: `#type = :type AND sk = :sk${tenantId ? ' AND tenant_id = :tenant' : ''}`,
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': type, ':sk': 'CMD', ...(tenantId ? { ':tenant': tenantId } : {}) },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** How many crm_import commands exist (of `tenantId` alone, when given). */
const importCommands = async (tenantId?: string) => (await commandsOf('crm_import', tenantId)).length;

/** Tenant `tenantId`'s state of a lead of the demo site (its stage, its unsubscribes). */
const leadState = async (leadId: string, tenantId: string) =>
  (
    await db().send(
      new GetCommand({ TableName: runtime.tableName, Key: { pk: `LEADHISTORY#${DEMO_SITE_ID}#${leadId}`, sk: `~STATE#${tenantId}` } }),
    )
  ).Item;

/** The tenant of an API key, as its record names it. */
async function tenantOfKey(key: string): Promise<string> {
  const { Item } = await db().send(
    new GetCommand({ TableName: runtime.tableName, Key: { pk: `APIKEY#${hashApiKey(key)}`, sk: 'APIKEY' } }),
  );
  return String(Item?.tenant_id);
}

async function importContact(key: string): Promise<string> {
  const started = await call(runtime.url, 'POST', IMPORT, { key, body: { site_id: DEMO_SITE_ID, contact_ids: [contactId] } });
  expect(started.status).toBe(202);
  const done = await eventually(async () => {
    const answer = await call(runtime.url, 'GET', `/api/commands/${String(started.body.data!.command_id)}`, { key });
    return answer.body.data?.status === 'completed' ? answer.body.data : undefined;
  });
  return (done.leads as { lead_id: string }[])[0]!.lead_id;
}

/** A HubSpot call: its events, signed by the official signer with `secret` at `timestamp`. */
function hubspotCall(events: Record<string, unknown>[], secret: string, timestamp = Date.now()) {
  const body = JSON.stringify(events.map((event) => ({ portalId: hubspot.portalId, eventId: eventId++, occurredAt: timestamp, ...event })));
  const signature = Signature.getSignature('POST', 'v3', {
    clientSecret: secret,
    requestBody: body,
    url: `${runtime.publicBaseUrl}${HOOK}`,
    timestamp,
    signature: '',
  });
  return call(runtime.url, 'POST', HOOK, {
    rawBody: body,
    headers: { 'content-type': 'application/json', 'x-hubspot-signature-v3': signature, 'x-hubspot-request-timestamp': String(timestamp) },
  });
}

beforeAll(async () => {
  hubspot = await startHubSpotFake();
  // Tenant B's private app is on the same portal, with a client secret of its own.
  hubspot.addToken(OTHER_TOKEN, { portalId: hubspot.portalId });
  runtime = await startLocalRuntime({
    port: 0,
    apiKeys: { [OTHER_KEY]: [DEMO_SITE_ID] },
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: 'SILENT',
      HUBSPOT_API_BASE_URL: hubspot.baseUrl,
      CRM_ENCRYPTION_KEY: 'crm-webhook-test-service-key-0123456789ab',
    },
  });
  const connect = async (key: string, token: string, secret: string) =>
    expect((await call(runtime.url, 'PUT', CONNECT, { key, body: { access_token: token, client_secret: secret } })).status).toBe(200);
  await connect(runtime.apiKey, hubspot.token, SECRET_A);
  await connect(OTHER_KEY, OTHER_TOKEN, SECRET_B);
  contactId = hubspot.addContact({ firstname: 'Hedy', email: 'hedy@signals.example', jobtitle: 'Inventor' });
  leadA = await importContact(runtime.apiKey);
  leadB = await importContact(OTHER_KEY);
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await hubspot?.close();
});

describe('POST /webhooks/hubspot', () => {
  const change = { subscriptionType: 'contact.propertyChange', propertyName: 'jobtitle', propertyValue: 'Chief Inventor' };

  it('refuses a forged, a stale and an unsigned call (401) and changes nothing', async () => {
    hubspot.addContact({ ...hubspot.contact(contactId)!, jobtitle: 'Forged Title' }, contactId);
    const importsBefore = await importCommands();

    expect((await hubspotCall([{ ...change, objectId: Number(contactId) }], 'not-the-secret')).status).toBe(401);
    expect((await hubspotCall([{ ...change, objectId: Number(contactId) }], SECRET_A, Date.now() - 6 * 60_000)).status).toBe(401);
    const unsigned = await call(runtime.url, 'POST', HOOK, {
      body: [{ ...change, objectId: Number(contactId), portalId: hubspot.portalId }],
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error?.code).toBe('UNAUTHORIZED');
    // A body that names no one portal cannot be checked against any secret: refused the same way, whatever it carries.
    const timestamp = String(Date.now());
    for (const rawBody of [
      'not json',
      '{"portalId": 1}',
      JSON.stringify([
        { portalId: 1, eventId: 1 },
        { portalId: 2, eventId: 2 },
      ]),
    ]) {
      const junk = await call(runtime.url, 'POST', HOOK, {
        rawBody,
        headers: { 'content-type': 'application/json', 'x-hubspot-signature-v3': 'Zm9v', 'x-hubspot-request-timestamp': timestamp },
      });
      expect([rawBody, junk.status, junk.body.error?.code]).toEqual([rawBody, 401, 'UNAUTHORIZED']);
    }

    // The receiver starts its re-import before it answers: none was started, and the lead is as imported.
    expect(await importCommands()).toBe(importsBefore);
    expect((await lead(leadA))?.position).toBe('Inventor');
    hubspot.addContact({ ...hubspot.contact(contactId)!, jobtitle: 'Inventor' }, contactId);
  });

  it("re-reads a linked contact into the signing tenant's lead only, and ignores an unlinked contact", async () => {
    hubspot.addContact({ ...hubspot.contact(contactId)!, jobtitle: 'Chief Inventor' }, contactId);
    const stranger = hubspot.addContact({ email: 'stranger@nowhere.example' });

    const answer = await hubspotCall(
      [
        { ...change, objectId: Number(contactId) },
        { subscriptionType: 'contact.creation', objectId: Number(stranger) },
      ],
      SECRET_A,
    );

    const tenantB = await tenantOfKey(OTHER_KEY);
    const importsOfB = await importCommands(tenantB);
    expect(answer.status).toBe(204);
    await eventually(async () => ((await lead(leadA))?.position === 'Chief Inventor' ? true : undefined));
    // Both tenants imported the same person, so the site holds one lead (matched by e-mail), linked by each; A's call re-reads
    // it with A's connection alone and never starts anything for B.
    expect(leadB).toBe(leadA);
    expect(await importCommands(tenantB)).toBe(importsOfB);
  });

  it("reports a reply as the signing tenant's lead event, once however often HubSpot retries", async () => {
    const repliedAt = Date.now() - 60_000;
    const events = [
      {
        subscriptionType: 'contact.propertyChange',
        objectId: Number(contactId),
        propertyName: 'hs_sales_email_last_replied',
        propertyValue: String(repliedAt),
      },
    ];
    const first = await hubspotCall(events, SECRET_A);
    eventId -= 1; // HubSpot's retry carries the same event id.
    const retry = await hubspotCall(events, SECRET_A);
    expect([first.status, retry.status]).toEqual([204, 204]);

    // A lead's history is each tenant's own: the reply is A's, never in B's history of the same lead.
    const history = async (leadId: string, tenantId: string) =>
      (
        await db().send(
          new QueryCommand({
            TableName: runtime.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tenant)',
            ExpressionAttributeValues: { ':pk': `LEADHISTORY#${DEMO_SITE_ID}#${leadId}`, ':tenant': `${tenantId}#` },
          }),
        )
      ).Items ?? [];
    const entries = await history(leadA, runtime.tenantId);
    expect(entries.filter((entry) => entry.type === 'replied')).toHaveLength(1);
    expect(entries.find((entry) => entry.type === 'replied')).toMatchObject({ date: new Date(repliedAt).toISOString() });
    expect((await history(leadB, await tenantOfKey(OTHER_KEY))).filter((entry) => entry.type === 'replied')).toHaveLength(0);

    // As POST /api/leads/{id}/events does: one lead follow-up drafts the answer, A's stage of the lead moves to engaged,
    // and the contact's lead status to connected (a crm_sync job); B is not touched.
    const answers = await eventually(async () => {
      const started = await commandsOf('lead_follow_up', runtime.tenantId);
      return started.length > 0 ? started : undefined;
    });
    expect(answers).toHaveLength(1);
    expect(answers[0]!.request).toMatchObject({
      leadId: leadA,
      siteId: DEMO_SITE_ID,
      leadStage: 'engaged',
      previousInteractions: [expect.objectContaining({ type: 'reply' })],
    });
    expect(await commandsOf('lead_follow_up', await tenantOfKey(OTHER_KEY))).toHaveLength(0);
    expect((await leadState(leadA, runtime.tenantId))?.lead_stage).toBe('engaged');
    expect((await leadState(leadB, await tenantOfKey(OTHER_KEY)))?.lead_stage).toBeUndefined();
    await eventually(async () => (hubspot.contact(contactId)?.hs_lead_status === 'CONNECTED' ? true : undefined));
  });

  it('reports a hard bounce as a bounced lead event, which marks the contact unqualified', async () => {
    const bounced = hubspot.addContact({ firstname: 'Bo', email: 'bo@bounces.example' });
    const started = await call(runtime.url, 'POST', IMPORT, {
      key: runtime.apiKey,
      body: { site_id: DEMO_SITE_ID, contact_ids: [bounced] },
    });
    const imported = await eventually(async () => {
      const answer = await call(runtime.url, 'GET', `/api/commands/${String(started.body.data!.command_id)}`, { key: runtime.apiKey });
      return answer.body.data?.status === 'completed' ? answer.body.data : undefined;
    });
    const bouncedLead = (imported.leads as { lead_id: string }[])[0]!.lead_id;

    const answer = await hubspotCall(
      [
        {
          subscriptionType: 'contact.propertyChange',
          objectId: Number(bounced),
          propertyName: 'hs_email_hard_bounce_reason_enum',
          propertyValue: 'MAILBOX_FULL',
        },
      ],
      SECRET_A,
    );

    expect(answer.status).toBe(204);
    await eventually(async () => (hubspot.contact(bounced)?.hs_lead_status === 'UNQUALIFIED' ? true : undefined));
    const answers = await commandsOf('lead_follow_up', runtime.tenantId);
    expect(answers.filter((command) => (command.request as { leadId?: string }).leadId === bouncedLead)).toHaveLength(0);
  });
});
