import { PoisonJobError } from '../../../shared/commands/job';
import type { TaskDefinition } from '../../../shared/commands/task-worker';
import type { ConnectionStore, CrmConnection } from '../../../shared/crm/connection-store';
import { dynamoConnectionStore } from '../../../shared/crm/dynamo-connection-store';
import { dynamoLeadLinks } from '../../../shared/crm/dynamo-lead-links';
import type { LeadLinks } from '../../../shared/crm/lead-links';
import type { LeadStatusTrigger } from '../../../shared/crm/lead-status';
import type { CrmDeliveryStore } from '../../../shared/crm/sync/delivery-store';
import { dynamoCrmDeliveryStore } from '../../../shared/crm/sync/dynamo-delivery-store';
import { crmSyncJob, type CrmSyncRequest } from '../../../shared/crm/sync/job';
import { markedBody, markerOf } from '../../../shared/crm/sync/marker';
import { crmSyncTask } from '../../../shared/crm/sync/task';
import { secretBox } from '../../../shared/platform/secret-box';
import { hubspotCrm } from '../../../shared/providers/crm/hubspot';
import { ALL_FAKE_SCOPES, startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const CRM_KEY = 'crm-sync-test-service-key-0123456789abcdef';
const OTHER_TOKEN = 'pat-na1-other-tenant-token';
const AT = '2026-11-20T10:00:00.000Z';

let services: EmbeddedServices;
let hubspot: HubSpotFake;
let connections: ConnectionStore;
let links: LeadLinks;
let deliveries: CrmDeliveryStore;
/** The task as the worker runs it; short timeouts, so a slow answer is an unknown outcome within a test. */
let task: TaskDefinition<CrmSyncRequest>;
let leadCount = 0;
/** The jobs the task queued again after HubSpot's Retry-After: delay and attempt. */
const requeued: { delaySeconds: number; attempt: number }[] = [];

beforeAll(async () => {
  services = await startEmbeddedServices();
  hubspot = await startHubSpotFake();
  hubspot.addToken(OTHER_TOKEN, { portalId: 99_000_001 });
  const { db } = services;
  const tableName = services.aws.tableName;
  connections = dynamoConnectionStore(db, tableName, async () => secretBox(CRM_KEY));
  links = dynamoLeadLinks(db, tableName, 'hubspot');
  deliveries = dynamoCrmDeliveryStore(db, tableName);
  task = crmSyncTask({
    connections,
    links,
    deliveries,
    crm: hubspotCrm({ baseUrl: hubspot.baseUrl, policy: { requestTimeoutMs: 400, transientRetryDelayMs: 50 } }),
    clock: { now: () => Date.now() },
    leaseMs: 5_000,
    retentionMs: 90 * 86_400_000,
    requeue: async (_job, delaySeconds, attempt) => {
      requeued.push({ delaySeconds, attempt });
    },
    maxAttempts: 5,
  });
});
afterAll(async () => {
  await hubspot.close();
  await services.stop();
});
afterEach(() => hubspot.heal());

async function connect(
  tenantId: string,
  token: string,
  overrides: Partial<Record<LeadStatusTrigger, string>> = {},
  scopes: string[] = ALL_FAKE_SCOPES,
): Promise<void> {
  const at = new Date().toISOString();
  const connection: CrmConnection = {
    tenant_id: tenantId,
    provider: 'hubspot',
    portal_id: String(hubspot.portalId),
    scopes,
    lead_status_map: overrides,
    connected_at: at,
    updated_at: at,
    has_client_secret: false,
  };
  await connections.save(connection, { accessToken: token }, await connections.get(tenantId, 'hubspot'));
}

/** A new contact linked to a new lead of the tenant; returns both ids. */
async function linkedLead(tenantId: string): Promise<{ leadId: string; contactId: string }> {
  leadCount += 1;
  const leadId = `lead-${leadCount}`;
  const contactId = hubspot.addContact({ firstname: 'Ada', lastname: `Lead ${leadCount}`, email: `ada${leadCount}@example.com` });
  await links.link(tenantId, SITE, leadId, contactId);
  return { leadId, contactId };
}

const stepSent = (leadId: string, stepId = `step-of-${leadId}`): CrmSyncRequest => ({
  site_id: SITE,
  lead_id: leadId,
  source: 'step',
  source_id: stepId,
  write: { kind: 'engagement', engagement: 'email', subject: 'Your fit-out', body: 'Hello Ada,\nthe copy as sent.', at: AT },
});

const leadStatus = (leadId: string, trigger: LeadStatusTrigger, eventId = `event-${trigger}`): CrmSyncRequest => ({
  site_id: SITE,
  lead_id: leadId,
  source: 'lead_event',
  source_id: eventId,
  write: { kind: 'lead_status', trigger },
});

async function run(tenantId: string, request: CrmSyncRequest, attempt = 1) {
  const job = crmSyncJob(tenantId, request);
  return task.run({ job, input: task.parse(job.request), attempt, messageId: `message-${attempt}` });
}

const engagementsOf = (kind: 'notes' | 'emails' | 'calls', contactId: string) =>
  hubspot.engagements(kind).filter((engagement) => engagement.associations.some((association) => association.contactId === contactId));

describe('crm_sync', () => {
  beforeAll(async () => {
    await connect('acme', hubspot.token, { replied: 'OPEN_DEAL' });
  });

  it('writes a step reported sent as one logged e-mail on the contact, with the copy, and keeps its record id', async () => {
    const { leadId, contactId } = await linkedLead('acme');

    expect(await run('acme', stepSent(leadId))).toMatchObject({ outcome: 'engagement_written' });

    const written = engagementsOf('emails', contactId);
    expect(written).toHaveLength(1);
    expect(written[0]!.associations).toEqual([{ contactId, typeId: 198 }]);
    expect(written[0]!.properties).toMatchObject({ hs_email_subject: 'Your fit-out', hs_timestamp: AT, hs_email_status: 'SENT' });
    expect(written[0]!.properties.hs_email_text).toMatch(
      /^Hello Ada,\nthe copy as sent\.\n\n\(Logged by Switchboard, ref sb-[0-9a-f]{20}\)$/,
    );
    expect(await deliveries.listForLead('acme', SITE, leadId, 10)).toEqual([
      expect.objectContaining({ source: 'step', kind: 'engagement', status: 'done', contact_id: contactId, crm_record_id: written[0]!.id }),
    ]);
    expect((await connections.get('acme', 'hubspot'))?.last_sync_at).toEqual(expect.any(String));
    const [delivery] = await deliveries.listForLead('acme', SITE, leadId, 10);
    expect(delivery!.expires_at * 1000).toBeGreaterThan(Date.now() + 89 * 86_400_000);
  });

  it('writes the same report twice once', async () => {
    const { leadId, contactId } = await linkedLead('acme');

    await run('acme', stepSent(leadId));
    expect(await run('acme', stepSent(leadId))).toEqual({ outcome: 'already_done' });

    expect(engagementsOf('emails', contactId)).toHaveLength(1);
  });

  it('retries after a HubSpot 5xx with the queue, then writes once', async () => {
    const { leadId, contactId } = await linkedLead('acme');
    hubspot.failNext(1, 'server_error', '/crm/v3/objects/emails');

    await expect(run('acme', stepSent(leadId))).rejects.toThrow(/unavailable/i);
    expect(engagementsOf('emails', contactId)).toHaveLength(0);
    expect((await deliveries.listForLead('acme', SITE, leadId, 10))[0]).toMatchObject({ status: 'claimed', attempts: 1 });

    expect(await run('acme', stepSent(leadId), 2)).toMatchObject({ outcome: 'engagement_written' });
    expect(engagementsOf('emails', contactId)).toHaveLength(1);
    expect((await deliveries.listForLead('acme', SITE, leadId, 10))[0]).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('finds a write whose answer was lost on the contact, and does not write it again', async () => {
    const { leadId, contactId } = await linkedLead('acme');
    hubspot.failNext(1, { disconnect: true }, '/crm/v3/objects/emails');
    await expect(run('acme', stepSent(leadId))).rejects.toThrow(/unavailable/i);
    // HubSpot recorded the e-mail all the same (the connection dropped after it did): the body as the adapter sent it.
    const request = stepSent(leadId);
    const key = { tenantId: 'acme', siteId: SITE, leadId, source: request.source, sourceId: request.source_id, kind: 'engagement' };
    hubspot.addEngagement('emails', contactId, {
      hs_timestamp: AT,
      hs_email_text: markedBody('Hello Ada,\nthe copy as sent.', markerOf(key)),
    });

    expect(await run('acme', stepSent(leadId), 2)).toMatchObject({ outcome: 'found_written' });
    const written = engagementsOf('emails', contactId);
    expect(written).toHaveLength(1);
    expect((await deliveries.listForLead('acme', SITE, leadId, 10))[0]).toMatchObject({ status: 'done', crm_record_id: written[0]!.id });
  });

  it("honours HubSpot's 429: waits its Retry-After, then writes once", async () => {
    const { leadId, contactId } = await linkedLead('acme');
    hubspot.failNext(1, { rateLimited: { retryAfterSeconds: 1 } }, '/crm/v3/objects/emails');
    const before = hubspot.requests.length;

    expect(await run('acme', stepSent(leadId))).toMatchObject({ outcome: 'engagement_written' });

    const creates = hubspot.requests
      .slice(before)
      .filter((request) => request.method === 'POST' && request.path.endsWith('/objects/emails'));
    expect(creates).toHaveLength(2);
    expect(creates[1]!.at - creates[0]!.at).toBeGreaterThanOrEqual(1_000);
    expect(engagementsOf('emails', contactId)).toHaveLength(1);
  });

  it("comes back after a long Retry-After of HubSpot's, not after the queue's shorter back-off", async () => {
    const { leadId, contactId } = await linkedLead('acme');
    hubspot.failNext(1, { rateLimited: { retryAfterSeconds: 45 } }, '/crm/v3/objects/emails');

    expect(await run('acme', stepSent(leadId))).toEqual({ outcome: 'rate_limited', extra: { retryInSeconds: 45 } });
    expect(requeued.at(-1)).toEqual({ delaySeconds: 45, attempt: 2 });
    expect(engagementsOf('emails', contactId)).toHaveLength(0);

    expect(await run('acme', stepSent(leadId), 2)).toMatchObject({ outcome: 'engagement_written' });
    expect(engagementsOf('emails', contactId)).toHaveLength(1);
  });

  it('sets the lead status by the default table, and by the connection override', async () => {
    const { leadId, contactId } = await linkedLead('acme');

    await run('acme', leadStatus(leadId, 'first_step_sent'));
    expect(hubspot.contact(contactId)?.hs_lead_status).toBe('ATTEMPTED_TO_CONTACT');

    await run('acme', leadStatus(leadId, 'replied'));
    expect(hubspot.contact(contactId)?.hs_lead_status).toBe('OPEN_DEAL');
    expect(await deliveries.listForLead('acme', SITE, leadId, 10)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'lead_status:first_step_sent', lead_status: 'ATTEMPTED_TO_CONTACT', status: 'done' }),
        expect.objectContaining({ kind: 'lead_status:replied', lead_status: 'OPEN_DEAL', status: 'done' }),
      ]),
    );
  });

  it('never moves a lead status back: a late first step keeps IN_PROGRESS; a status outside the table is replaced', async () => {
    const { leadId, contactId } = await linkedLead('acme');
    await run('acme', leadStatus(leadId, 'meeting_booked'));
    expect(hubspot.contact(contactId)?.hs_lead_status).toBe('IN_PROGRESS');

    expect(await run('acme', leadStatus(leadId, 'first_step_sent'))).toMatchObject({ outcome: 'lead_status_kept' });
    expect(hubspot.contact(contactId)?.hs_lead_status).toBe('IN_PROGRESS');

    const other = await linkedLead('acme');
    hubspot.addContact({ hs_lead_status: 'BAD_TIMING' }, other.contactId);
    await run('acme', leadStatus(other.leadId, 'first_step_sent'));
    expect(hubspot.contact(other.contactId)?.hs_lead_status).toBe('ATTEMPTED_TO_CONTACT');
  });

  it('notes a sent e-mail instead of logging it when the token may not read e-mails back (so a retry can look for it)', async () => {
    const narrow = 'pat-na1-no-email-read';
    hubspot.addToken(narrow, { scopes: ALL_FAKE_SCOPES.filter((scope) => scope !== 'sales-email-read') });
    await connect(
      'hooli',
      narrow,
      {},
      ALL_FAKE_SCOPES.filter((scope) => scope !== 'sales-email-read'),
    );
    const { leadId, contactId } = await linkedLead('hooli');
    hubspot.failNext(1, 'server_error', '/crm/v3/objects/notes');

    await expect(run('hooli', stepSent(leadId))).rejects.toThrow(/unavailable/i);
    expect(await run('hooli', stepSent(leadId), 2)).toMatchObject({ outcome: 'engagement_written' });

    expect(engagementsOf('emails', contactId)).toHaveLength(0);
    const notes = engagementsOf('notes', contactId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.properties.hs_note_body).toMatch(/^E-mail sent: Your fit-out<br><br>Hello Ada,<br>the copy as sent\./);
  });

  it('dead-letters a write HubSpot refuses, with the reason on the delivery and the connection, and writes it once redriven', async () => {
    await connect('initech', OTHER_TOKEN, { meeting_booked: 'NOT_AN_OPTION' });
    const { leadId } = await linkedLead('initech');

    await expect(run('initech', leadStatus(leadId, 'meeting_booked'))).rejects.toBeInstanceOf(PoisonJobError);

    expect((await deliveries.listForLead('initech', SITE, leadId, 10))[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/NOT_AN_OPTION/),
    });
    expect((await connections.get('initech', 'hubspot'))?.last_error?.message).toMatch(/NOT_AN_OPTION/);

    // The tenant mends its status map, then the dead-lettered job is redriven (npm run dlq:redrive -- crmsync): it writes.
    await connect('initech', OTHER_TOKEN, {});
    expect(await run('initech', leadStatus(leadId, 'meeting_booked'), 2)).toMatchObject({ outcome: 'lead_status_set' });
    const [delivery] = await deliveries.listForLead('initech', SITE, leadId, 10);
    expect(delivery).toMatchObject({ status: 'done', lead_status: 'IN_PROGRESS' });
    expect(delivery).not.toHaveProperty('error');
  });

  it('writes nothing for a lead without a contact, or a tenant without a connection', async () => {
    const before = hubspot.requests.length;
    const { leadId } = await linkedLead('globex');

    expect(await run('acme', stepSent('lead-never-linked'))).toEqual({ outcome: 'skipped_no_link' });
    expect(await run('globex', stepSent(leadId))).toEqual({ outcome: 'skipped_no_connection' });

    expect(hubspot.requests.slice(before)).toEqual([]);
  });

  it("uses the tenant's own connection, never another tenant's", async () => {
    await connect('umbrella', OTHER_TOKEN);
    const { leadId, contactId } = await linkedLead('umbrella');
    const before = hubspot.requests.length;

    await run('umbrella', stepSent(leadId));

    const sent = hubspot.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(request.headers.authorization).toBe(`Bearer ${OTHER_TOKEN}`);
    expect(engagementsOf('emails', contactId)).toHaveLength(1);
    // The same lead id of another tenant stays unwritten: its deliveries are its own.
    expect(await deliveries.listForLead('acme', SITE, leadId, 10)).toEqual([]);
  });
});
