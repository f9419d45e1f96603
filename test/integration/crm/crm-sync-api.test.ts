/**
 * Write-backs to HubSpot end to end through the local runtime: a tenant
 * connects, its lead is linked to a contact, a sequence runs, and the steps
 * it reports sent and the lead's reply reach the contact through `crm_sync`
 * jobs run by the worker, once each, while the routes answer without them.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { hashApiKey } from '../../../shared/access/api-keys';
import { documentClientOf } from '../../../shared/composition/adapters';
import { dynamoLeadLinks } from '../../../shared/crm/dynamo-lead-links';
import { dynamoCrmDeliveryStore } from '../../../shared/crm/sync/dynamo-delivery-store';
import { eventually } from '../../support/embedded';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';
import { call } from '../../support/http';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const CRM_KEY = 'crm-sync-api-test-service-key-0123456789abcdef';

type Step = { id: string; content: string; subject: string; type: string };

let hubspot: HubSpotFake;
let runtime: LocalRuntime;

beforeAll(async () => {
  hubspot = await startHubSpotFake();
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, HUBSPOT_API_BASE_URL: hubspot.baseUrl, CRM_ENCRYPTION_KEY: CRM_KEY },
  });
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

describe('crm_sync through the local runtime', () => {
  it("writes each step reported sent to the lead's contact once, and moves its lead status", async () => {
    const connected = await call(runtime.url, 'PUT', '/api/integrations/hubspot', {
      key: runtime.apiKey,
      body: { access_token: hubspot.token },
    });
    expect(connected.status).toBe(200);
    const tenantId = await tenantOfKey(runtime.apiKey);
    const contactId = hubspot.addContact({ firstname: 'Jordan', email: 'jordan@example.com', hs_lead_status: 'NEW' });
    await dynamoLeadLinks(db(), runtime.tableName, 'hubspot').link(tenantId, SITE, LEAD, contactId);

    const created = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20' },
      body: { siteId: SITE, leadId: LEAD, output: 'follow_up_sequence', followUpInterval: '2 days' },
    });
    expect(created.status).toBe(200);
    const steps = created.body.data?.follow_ups as Step[];
    const sent = steps.slice(0, 2);

    for (const step of sent) {
      const answer = await call(runtime.url, 'PATCH', `/api/follow-ups/${step.id}`, { key: runtime.apiKey, body: { status: 'sent' } });
      expect(answer.status).toBe(200);
    }

    const written = () => [
      ...hubspot.engagements('emails').filter((item) => item.associations.some((association) => association.contactId === contactId)),
      ...hubspot.engagements('notes').filter((item) => item.associations.some((association) => association.contactId === contactId)),
    ];
    await eventually(async () => (written().length >= 2 ? true : undefined), 20_000, 'two engagements on the contact');
    for (const step of sent) {
      expect(
        written().filter((item) =>
          (item.properties.hs_email_text ?? item.properties.hs_note_body ?? '').includes(step.content.slice(0, 40)),
        ),
      ).toHaveLength(1);
    }
    await eventually(
      async () => (hubspot.contact(contactId)?.hs_lead_status === 'ATTEMPTED_TO_CONTACT' ? true : undefined),
      20_000,
      'ATTEMPTED_TO_CONTACT',
    );

    const reply = await call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, {
      key: runtime.apiKey,
      body: { site_id: SITE, event: { type: 'replied', channel: 'email' } },
    });
    expect(reply.status).toBe(200);
    await eventually(async () => (hubspot.contact(contactId)?.hs_lead_status === 'CONNECTED' ? true : undefined), 20_000, 'CONNECTED');

    const answer = await call(runtime.url, 'GET', `/api/leads/${LEAD}/crm-syncs?site_id=${SITE}`, { key: runtime.apiKey });
    expect(answer.status).toBe(200);
    const log = answer.body.data?.crm_syncs as { source: string; kind: string; status: string; crm_record_id: string | null }[];
    expect(log.map((delivery) => [delivery.source, delivery.kind, delivery.status]).sort()).toEqual(
      [
        ['lead_event', 'lead_status:replied', 'done'],
        ['step', 'engagement', 'done'],
        ['step', 'engagement', 'done'],
        ['step', 'lead_status:first_step_sent', 'done'],
      ].sort(),
    );
    expect(
      log
        .filter((delivery) => delivery.kind === 'engagement')
        .map((delivery) => delivery.crm_record_id)
        .sort(),
    ).toEqual(
      written()
        .map((item) => item.id)
        .sort(),
    );
    expect(written()).toHaveLength(2);

    // The log of a site the key does not cover is refused; without a site, the request is.
    const otherSite = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
    expect(await call(runtime.url, 'GET', `/api/leads/${LEAD}/crm-syncs?site_id=${otherSite}`, { key: runtime.apiKey })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN' } },
    });
    expect(await call(runtime.url, 'GET', `/api/leads/${LEAD}/crm-syncs`, { key: runtime.apiKey })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST' } },
    });
  }, 60_000);

  it("notes a lead follow-up's channel messages on the contact once, when the follow-up completes", async () => {
    const tenantId = await tenantOfKey(runtime.apiKey);
    const lead = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
    const contactId = hubspot.addContact({ firstname: 'Riley', email: 'riley@example.com' });
    const linked = await dynamoLeadLinks(db(), runtime.tableName, 'hubspot').link(tenantId, SITE, lead, contactId);
    expect(linked).toBe(lead);

    const created = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20' },
      body: { siteId: SITE, leadId: lead, output: 'channel_messages' },
    });
    expect(created.status).toBe(200);
    const messages = created.body.data?.messages as Record<string, { title: string; message: string }>;
    expect(Object.keys(messages).length).toBeGreaterThan(0);

    const notes = () =>
      hubspot.engagements('notes').filter((item) => item.associations.some((association) => association.contactId === contactId));
    await eventually(async () => (notes().length > 0 ? true : undefined), 20_000, 'a note on the contact');
    const body = notes()[0]!.properties.hs_note_body!;
    expect(body).toMatch(/^Follow-up messages prepared<br>/);
    for (const item of Object.values(messages))
      expect(body).toContain(item.title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    // The delivery is marked done (with the write counted) just after the CRM answered.
    const log = await eventually(
      async () => {
        const listed = await dynamoCrmDeliveryStore(db(), runtime.tableName).listForLead(tenantId, SITE, lead, 20);
        return listed.every((delivery) => delivery.status === 'done') ? listed : undefined;
      },
      10_000,
      'the delivery marked done',
    );
    expect(log).toEqual([
      expect.objectContaining({
        source: 'follow_up',
        source_id: created.body.data?.command_id,
        status: 'done',
        crm_record_id: notes()[0]!.id,
      }),
    ]);
    expect(notes()).toHaveLength(1);
    // The note counts once on the follow-up's usage.
    const read = await call(runtime.url, 'GET', `/api/commands/${String(created.body.data?.command_id)}`, { key: runtime.apiKey });
    expect((read.body.data?.usage as { crm_writes: number }).crm_writes).toBe(1);
  }, 60_000);
});
