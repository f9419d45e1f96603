/**
 * What lead events do beyond the sequence, against the embedded DynamoDB: a
 * reply starts one lead follow-up command with the reply in its
 * interactions (a repeat starts nothing more); replies and meetings move
 * the tenant's stage of the lead; an unsubscribe closes its channel to the
 * tenant's later lead follow-ups.
 */
import type { Principal } from '../../../shared/access/api-keys';
import type { JobEnvelope } from '../../../shared/commands/job';
import type { JobQueue } from '../../../shared/commands/queue';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import { acceptLeadFollowUp } from '../../../shared/lead-follow-up/accept';
import { checkLeadFollowUp } from '../../../shared/lead-follow-up/checks';
import { dynamoLeadHistory, historyPartition } from '../../../shared/lead-follow-up/history';
import { TABLE } from '../../../shared/catalogue/table';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoLeadStates, type LeadStates } from '../../../shared/lead-follow-up/lead-state';
import { parseLeadFollowUpRequest } from '../../../shared/lead-follow-up/schema';
import { AppError } from '../../../shared/platform/errors';
import { dynamoLeadEventRecords } from '../../../shared/lead-follow-up/sequences/event-records';
import { answerLeadEvent, type LeadEventDependencies } from '../../../shared/lead-follow-up/sequences/lead-events';
import { dynamoStepStore } from '../../../shared/lead-follow-up/sequences/step-store';
import type { HttpResult } from '../../../shared/platform/http/types';
import { dynamoSiteDirectory } from '../../../shared/sites/dynamo-directory';
import { DEMO_DATA_FILE, importFile } from '../../../infra/local/provision';
import { recordingPublisher } from '../../support/recording-events';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
/** Reached by e-mail only. */
const EMAIL_ONLY_LEAD = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const RETENTION_MS = 90 * 86_400_000;

const keyOf = (tenantId: string): Principal => ({ tenantId, siteIds: [SITE], keyId: `key-${tenantId}` });

let services: EmbeddedServices;
let deps: LeadEventDependencies;
let states: LeadStates;
const clock = { now: () => T0 };
/** The jobs queued, as the sales queue would receive them. */
const queued: { queue: string; job: JobEnvelope }[] = [];
const queue: Pick<JobQueue, 'send'> = { send: async (name, job) => void queued.push({ queue: name, job }) };

const data = (result: HttpResult) => (JSON.parse(result.body) as { data: Record<string, unknown> }).data;
const report = (tenant: string, body: unknown, key?: string, leadId = LEAD) =>
  answerLeadEvent(deps, { principal: keyOf(tenant), leadId, body, headers: key ? { 'idempotency-key': key } : {} });

/** POST /api/agents/sales/leadFollowUp as `tenant`. */
const followUp = (tenant: string, body: Record<string, unknown>) =>
  acceptLeadFollowUp(
    {
      ...deps.replies!,
      sites: deps.sites,
      leadStates: states,
      defaultOutput: 'channel_messages',
      maxWaitSeconds: 0,
    },
    { principal: keyOf(tenant), body: { siteId: SITE, ...body }, headers: {} },
  );

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  services = await startEmbeddedServices();
  await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
  const { db } = services;
  const table = services.aws.tableName;
  const idempotency = dynamoIdempotencyStore(db, table);
  states = dynamoLeadStates(db, table);
  deps = {
    sites: dynamoSiteDirectory(db, table),
    steps: dynamoStepStore(db, table),
    records: dynamoLeadEventRecords(db, table),
    history: dynamoLeadHistory(db, table),
    idempotency,
    events: recordingPublisher(),
    clock,
    commandRetentionMs: RETENTION_MS,
    leadStates: states,
    replies: { commands: dynamoCommandStore(db, table), idempotency, queue: queue, clock, commandRetentionMs: RETENTION_MS },
  };
}, 60_000);

afterAll(async () => {
  await services.stop();
});

beforeEach(() => {
  queued.length = 0;
});

describe('a reply', () => {
  it('starts one lead follow-up with the reply in its interactions; a repeat with the same key starts nothing more', async () => {
    const event = { site_id: SITE, event: { type: 'replied', channel: 'email', summary: 'Jordan asked for a call on Friday.' } };
    const first = data(await report('replies-a', event, 'esp-reply-1'));
    const again = await report('replies-a', event, 'esp-reply-1');

    expect(first.command_id).toEqual(expect.any(String));
    expect(data(again)).toEqual(first);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ queue: 'sales', job: { command_id: first.command_id } });

    const command = await dynamoCommandStore(services.db, services.aws.tableName).get(String(first.command_id));
    expect(command).toMatchObject({
      type: 'lead_follow_up',
      status: 'in_progress',
      tenant_id: 'replies-a',
      site_id: SITE,
      request: {
        siteId: SITE,
        leadId: LEAD,
        followUpType: 'email',
        leadStage: 'engaged',
        output: 'channel_messages',
        previousInteractions: [{ date: new Date(T0).toISOString(), type: 'reply', summary: 'Jordan asked for a call on Friday.' }],
      },
    });
  });

  it('starts another command for another reply (another key), and none for an event that is not a reply', async () => {
    const one = data(await report('replies-b', { site_id: SITE, type: 'replied' }, 'esp-reply-2'));
    const two = data(await report('replies-b', { site_id: SITE, type: 'replied' }, 'esp-reply-3'));
    const opened = data(await report('replies-b', { site_id: SITE, type: 'opened' }, 'esp-open-1'));

    expect(one.command_id).not.toEqual(two.command_id);
    expect(opened.command_id).toBeNull();
    expect(queued.map((item) => item.job.command_id)).toEqual([one.command_id, two.command_id]);
    const command = await dynamoCommandStore(services.db, services.aws.tableName).get(String(one.command_id));
    // Without a summary, the reply is written from its type.
    expect((command?.request as { previousInteractions: { summary: string }[] }).previousInteractions[0]!.summary).toBe(
      'The lead replied.',
    );
  });
});

describe("the tenant's stage of the lead", () => {
  it('moves to engaged on a reply and to meeting_scheduled on a booked meeting, never back for an older event', async () => {
    const owner = { tenantId: 'stage-a', siteId: SITE, leadId: LEAD };
    expect(data(await report('stage-a', { site_id: SITE, type: 'replied', occurred_at: '2026-12-01T08:00:00Z' }))).toMatchObject({
      lead_stage: 'engaged',
    });
    expect((await states.get(owner)).lead_stage).toBe('engaged');
    expect(data(await report('stage-a', { site_id: SITE, type: 'meeting_booked' }))).toMatchObject({ lead_stage: 'meeting_scheduled' });
    await report('stage-a', { site_id: SITE, type: 'replied', occurred_at: '2026-12-01T07:00:00Z' });
    expect((await states.get(owner)).lead_stage).toBe('meeting_scheduled');
    expect(data(await report('stage-a', { site_id: SITE, type: 'opened' }))).toMatchObject({ lead_stage: null });
    // Another tenant's view of the lead is its own.
    expect(await states.get({ ...owner, tenantId: 'stage-b' })).toEqual({ unsubscribed: [] });
  });
});

describe('a stored state read back', () => {
  it('reads what it wrote, and an attribute of the wrong shape as absent', async () => {
    const owner = { tenantId: 'shape-a', siteId: SITE, leadId: LEAD };
    expect(await states.get(owner)).toEqual({ unsubscribed: [] });
    await states.moveStage(owner, 'engaged', '2026-12-01T08:00:00.000Z');
    await states.unsubscribe(owner, 'email', '2026-12-01T09:00:00.000Z');
    await states.unsubscribe(owner, 'call', '2026-12-01T09:30:00.000Z');
    expect(await states.get(owner)).toEqual({
      lead_stage: 'engaged',
      unsubscribed: [
        { channel: 'email', reason: 'unsubscribed', at: '2026-12-01T09:00:00.000Z' },
        { channel: 'call', reason: 'unsubscribed', at: '2026-12-01T09:30:00.000Z' },
      ],
    });
    const { Items = [] } = await services.db.send(
      new QueryCommand({
        TableName: services.aws.tableName,
        KeyConditionExpression: '#pk = :pk',
        FilterExpression: 'attribute_exists(lead_stage)',
        ExpressionAttributeNames: { '#pk': TABLE.partitionKey },
        ExpressionAttributeValues: { ':pk': historyPartition(SITE, LEAD) },
      }),
    );
    const key = (Items as Record<string, unknown>[])
      .filter((item) => String(item[TABLE.sortKey]).includes('shape-a'))
      .map((item) => ({ [TABLE.partitionKey]: item[TABLE.partitionKey], [TABLE.sortKey]: item[TABLE.sortKey] }))[0];
    expect(key).toBeDefined();
    await services.db.send(
      new UpdateCommand({
        TableName: services.aws.tableName,
        Key: key,
        UpdateExpression: 'SET lead_stage = :long, unsubscribed_call = :number, unsubscribed_notification = :empty',
        ExpressionAttributeValues: { ':long': 'x'.repeat(65), ':number': 42, ':empty': '' },
      }),
    );
    expect(await states.get(owner)).toEqual({
      unsubscribed: [{ channel: 'email', reason: 'unsubscribed', at: '2026-12-01T09:00:00.000Z' }],
    });
  });
});

describe('an unsubscribe', () => {
  it('answers 400 NO_VALID_CHANNELS_FOR_LEAD with the reason when no channel is left, for that tenant only', async () => {
    await report('unsub-a', { site_id: SITE, type: 'unsubscribed', channel: 'email' }, undefined, EMAIL_ONLY_LEAD);
    const before = queued.length;
    const refused = await refusal(() => followUp('unsub-a', { leadId: EMAIL_ONLY_LEAD, output: 'follow_up_sequence' }));
    expect(refused).toMatchObject({
      code: 'NO_VALID_CHANNELS_FOR_LEAD',
      statusCode: 400,
      details: {
        configured_channels: ['email', 'messaging_app'],
        lead_has_email: true,
        lead_has_phone: false,
        refused_channels: [{ channel: 'email', reason: 'unsubscribed', at: new Date(T0).toISOString() }],
      },
    });
    expect(await refusal(() => followUp('unsub-a', { leadId: EMAIL_ONLY_LEAD, followUpType: 'email' }))).toMatchObject({
      code: 'NO_VALID_CHANNELS_FOR_LEAD',
    });
    expect(queued.length).toBe(before);
    expect((await followUp('unsub-other', { leadId: EMAIL_ONLY_LEAD })).statusCode).toBe(202);
  });

  it('leaves the channel out when another is left, and one without a channel closes them all', async () => {
    await report('unsub-b', { site_id: SITE, type: 'unsubscribed', channel: 'email' });
    const request = parseLeadFollowUpRequest({ siteId: SITE, leadId: LEAD, followUpType: 'email' }, 'channel_messages');
    const checked = await checkLeadFollowUp(
      deps.sites,
      request,
      keyOf('unsub-b'),
      await states.get({ tenantId: 'unsub-b', siteId: SITE, leadId: LEAD }),
    );
    expect(checked.channels).toEqual(['messaging_app', 'notification', 'web']);
    expect(checked.followUpType).toBeUndefined();
    expect((await followUp('unsub-b', { leadId: LEAD, followUpType: 'email' })).statusCode).toBe(202);

    await report('unsub-c', { site_id: SITE, type: 'unsubscribed' });
    const all = await refusal(() => followUp('unsub-c', { leadId: LEAD }));
    expect(all).toMatchObject({ code: 'NO_VALID_CHANNELS_FOR_LEAD' });
    expect((all.details as { refused_channels: { channel: string }[] }).refused_channels.map((item) => item.channel)).toEqual([
      'email',
      'messaging_app',
    ]);
  });
});
