/**
 * Running and adapting follow-up sequences against the embedded DynamoDB:
 * the real stores under the use cases (listing, editing, the dispatcher,
 * lead events), with a recording EventPublisher and a clock the test moves.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Principal } from '../../../shared/access/api-keys';
import type { EventPublisher } from '../../../shared/commands/events';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { finishCommand } from '../../../shared/commands/finish';
import { dynamoFollowUpStore, type StoredFollowUp } from '../../../shared/lead-follow-up/follow-up-store';
import { dynamoLeadHistory, historyPartition } from '../../../shared/lead-follow-up/history';
import { followUpId } from '../../../shared/lead-follow-up/follow-up-id';
import { dispatchDueFollowUps, DispatchIncompleteError } from '../../../shared/lead-follow-up/sequences/dispatch';
import { answerEditFollowUp } from '../../../shared/lead-follow-up/sequences/edit';
import { sequenceLeftovers } from '../../../shared/lead-follow-up/sequences/erase';
import { dynamoLeadEventRecords } from '../../../shared/lead-follow-up/sequences/event-records';
import { answerLeadEvent } from '../../../shared/lead-follow-up/sequences/lead-events';
import { answerListFollowUps } from '../../../shared/lead-follow-up/sequences/list';
import { dynamoPauseStore } from '../../../shared/lead-follow-up/sequences/pause-store';
import { dynamoStepStore, type StepStore } from '../../../shared/lead-follow-up/sequences/step-store';
import type { StoredCommand } from '../../../shared/commands/record';
import { AppError } from '../../../shared/platform/errors';
import { canonicalJson, sha256Hex } from '../../../shared/platform/hashing';
import type { HttpResult } from '../../../shared/platform/http/types';
import { newId } from '../../../shared/platform/ids';
import { itemKey, dynamoSiteDirectory } from '../../../shared/sites/dynamo-directory';
import { DEMO_DATA_FILE, importFile } from '../../../infra/local/provision';
import { recordingPublisher } from '../../support/recording-events';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const OTHER_LEAD = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
const RETENTION_MS = 90 * DAY;

/** A key of `tenantId` covering the demo site (each test has tenants of its own: sequences of one never meet another's). */
const keyOf = (tenantId: string, siteIds = [SITE]): Principal => ({ tenantId, siteIds, keyId: `key-${tenantId}` });

let services: EmbeddedServices;
let steps: StepStore;
let now = T0;
const clock = { now: () => now };
const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

const recorder = recordingPublisher;

type SequenceOptions = { count?: number; start?: number; leadId?: string; types?: StoredFollowUp['type'][] };

/** A sequence of `count` email steps saved as the sales phase saves it, one day apart from `start`. */
async function saveSequence(tenantId: string, options: SequenceOptions = {}) {
  const { commandId, items } = await sequenceInProgress(tenantId, options);
  await dynamoFollowUpStore(services.db, services.aws.tableName).saveSequence(items);
  return { commandId, ids: items.map((item) => item.id), items };
}

/** A sequence's command, stored in progress, and its steps, not saved yet. */
async function sequenceInProgress(tenantId: string, options: SequenceOptions = {}) {
  const commandId = newId();
  const { count = 3, start = T0, leadId = LEAD } = options;
  const items: StoredFollowUp[] = Array.from({ length: count }, (_, index) => ({
    id: followUpId(commandId, index + 1),
    type: options.types?.[index] ?? 'email',
    subject: `Step ${index + 1}: a next step for your team`,
    content: `Hi Jordan, this is step ${index + 1} of our plan.`,
    scheduled_for: new Date(start + (index + 1) * DAY).toISOString(),
    status: 'scheduled',
    site_id: SITE,
    lead_id: leadId,
    user_id: null,
    metadata: { next_steps: 'Call back', lead_stage: 'qualified', sequence_position: index + 1, template_used: 'email_follow_up' },
    tenant_id: tenantId,
    command_id: commandId,
    created_at: new Date(start).toISOString(),
    updated_at: new Date(start).toISOString(),
    expires_at: Math.floor((start + (index + 1) * DAY + RETENTION_MS) / 1000),
  }));
  // Steps are saved while their command is in progress, as the sales phase saves them.
  const at = new Date(start).toISOString();
  const command: StoredCommand = {
    id: commandId,
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: tenantId,
    site_id: SITE,
    request: { siteId: SITE, leadId, output: 'follow_up_sequence' },
    created_at: at,
    updated_at: at,
    attempts: 1,
  };
  await dynamoCommandStore(services.db, services.aws.tableName).create(command);
  return { commandId, command, items };
}

const body = (result: HttpResult) =>
  JSON.parse(result.body) as {
    success: boolean;
    data: Record<string, unknown> & { follow_ups: { id: string; status: string; scheduled_for: string }[] };
  };

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const sites = () => dynamoSiteDirectory(services.db, services.aws.tableName);
const list = (principal: Principal, query: Record<string, string>, leadId = LEAD) =>
  answerListFollowUps(
    { sites: sites(), steps, pauses: dynamoPauseStore(services.db, services.aws.tableName), clock },
    principal,
    leadId,
    query,
  );
const edit = (principal: Principal, id: string, patch: unknown) =>
  answerEditFollowUp({ steps, clock, commandRetentionMs: RETENTION_MS }, principal, id, patch);

function eventDeps(events: EventPublisher) {
  const { db } = services;
  const table = services.aws.tableName;
  return {
    sites: sites(),
    steps,
    records: dynamoLeadEventRecords(db, table),
    history: dynamoLeadHistory(db, table),
    idempotency: dynamoIdempotencyStore(db, table),
    events,
    clock,
    commandRetentionMs: RETENTION_MS,
  };
}

beforeAll(async () => {
  services = await startEmbeddedServices();
  await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
  steps = dynamoStepStore(services.db, services.aws.tableName);
}, 60_000);

afterAll(async () => {
  await services.stop();
});

beforeEach(() => {
  now = T0;
});

describe("a sequence's first save, with its command's completion", () => {
  const finishWith = (command: StoredCommand, items: StoredFollowUp[]) =>
    finishCommand({ commands: dynamoCommandStore(services.db, services.aws.tableName), clock }, command, {
      status: 'completed',
      result: { saved_to_database: true },
      also: dynamoFollowUpStore(services.db, services.aws.tableName).firstSaveItems(items),
    });

  it('writes the steps in the transaction that completes the command', async () => {
    const { command, items } = await sequenceInProgress('first-save-a');
    expect(await finishWith(command, items)).toBe(true);
    const stored = await dynamoCommandStore(services.db, services.aws.tableName).get(command.id);
    expect(stored?.status).toBe('completed');
    for (const item of items) expect(await steps.get(item.id)).toMatchObject({ status: 'scheduled', command_id: command.id });
  });

  it('writes none when the command is no longer in progress (failed, or erased meanwhile)', async () => {
    const { command, items } = await sequenceInProgress('first-save-b');
    const commands = dynamoCommandStore(services.db, services.aws.tableName);
    expect(await commands.fail(command, { code: 'SYSTEM_ERROR', message: 'stopped' }, now)).toBe(true);
    expect(await finishWith(command, items)).toBe(false);
    expect((await commands.get(command.id))?.status).toBe('failed');
    for (const item of items) expect(await steps.get(item.id)).toBeUndefined();
  });
});

describe("GET a lead's follow-ups", () => {
  it("lists the tenant's own steps in schedule order, a page at a time, and never another tenant's", async () => {
    const first = await saveSequence('list-a', { count: 3, start: T0 + 10 * DAY, leadId: OTHER_LEAD });
    const second = await saveSequence('list-a', { count: 2, start: T0 + 10 * DAY - DAY / 2, leadId: OTHER_LEAD });
    await saveSequence('list-b', { count: 3, start: T0 + 10 * DAY, leadId: OTHER_LEAD });
    const [a, b] = [keyOf('list-a'), keyOf('list-c')];

    const page1 = body(await list(a, { site_id: SITE, limit: '2' }, OTHER_LEAD));
    const page2 = body(await list(a, { site_id: SITE, limit: '2', cursor: String(page1.data.next_cursor) }, OTHER_LEAD));
    const page3 = body(await list(a, { siteId: SITE, limit: '2', cursor: String(page2.data.next_cursor) }, OTHER_LEAD));
    const ids = [...page1.data.follow_ups, ...page2.data.follow_ups, ...page3.data.follow_ups].map((item) => item.id);

    // Interleaved by time: second's steps fall half a day before first's.
    expect(ids).toEqual([second.ids[0], first.ids[0], second.ids[1], first.ids[1], first.ids[2]]);
    expect(page1.data).toMatchObject({ site_id: SITE, lead_id: OTHER_LEAD, has_more: true });
    expect(page3.data.next_cursor).toBeNull();
    expect(page1.data.follow_ups[0]).toEqual(
      expect.objectContaining({
        id: second.ids[0],
        command_id: second.commandId,
        status: 'scheduled',
        channel: 'email',
        subject: expect.any(String),
        content: expect.any(String),
        sequence_position: 1,
      }),
    );
    expect(JSON.stringify(page1)).not.toContain('list-a');
    expect(body(await list(b, { site_id: SITE }, OTHER_LEAD)).data.follow_ups).toEqual([]);
  });

  it('filters by status and leaves out expired steps', async () => {
    const sequence = await saveSequence('filter-a', { count: 3, leadId: OTHER_LEAD });
    const a = keyOf('filter-a');
    await edit(a, sequence.ids[0]!, { status: 'cancelled' });
    expect(body(await list(a, { site_id: SITE, status: 'scheduled,due' }, OTHER_LEAD)).data.follow_ups.map((item) => item.id)).toEqual(
      sequence.ids.slice(1),
    );
    expect(body(await list(a, { site_id: SITE, status: 'cancelled' }, OTHER_LEAD)).data.follow_ups.map((item) => item.id)).toEqual(
      sequence.ids.slice(0, 1),
    );
    now = T0 + 2 * DAY + RETENTION_MS + MINUTE;
    expect(body(await list(a, { site_id: SITE }, OTHER_LEAD)).data.follow_ups.map((item) => item.id)).toEqual(sequence.ids.slice(2));
  });

  it('checks the query, the ids, the site and the lead', async () => {
    const [tenantA, noSites] = [keyOf('check-a'), keyOf('check-a', [])];
    expect(await refusal(() => list(tenantA, {}))).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [expect.objectContaining({ path: ['site_id'] })],
    });
    expect(await refusal(() => list(tenantA, { site_id: SITE, limit: '500' }))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(() => list(tenantA, { site_id: SITE, page: '2' }))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await refusal(() => list(tenantA, { site_id: 'nope' }))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await refusal(() => list(tenantA, { site_id: '0f0e0d0c-0b0a-4908-8706-050403020100' }))).toMatchObject({
      code: 'SITE_NOT_FOUND',
    });
    expect(await refusal(() => list(noSites, { site_id: SITE }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(() => list(tenantA, { site_id: SITE }, '0f0e0d0c-0b0a-4908-8706-050403020100'))).toMatchObject({
      code: 'LEAD_NOT_FOUND',
    });
  });
});

describe('PATCH a follow-up', () => {
  it('edits the copy and the time of a scheduled step (the due-time index follows), then marks it sent', async () => {
    const tenantA = keyOf('edit-a');
    const { ids } = await saveSequence('edit-a');
    now = T0 + 5 * MINUTE;
    const edited = body(await edit(tenantA, ids[2]!, { subject: 'A better subject', content: 'Hi Jordan,\nwould Tuesday suit you?' }));
    expect(edited.data).toMatchObject({
      id: ids[2],
      subject: 'A better subject',
      content: 'Hi Jordan,\nwould Tuesday suit you?',
      status: 'scheduled',
      updated_at: new Date(now).toISOString(),
    });

    const newTime = new Date(T0 + 2 * 60 * MINUTE).toISOString();
    expect(body(await edit(tenantA, ids[2]!, { scheduled_for: '2026-12-01T12:00:00+01:00' })).data).toMatchObject({
      scheduled_for: newTime,
    });
    const stored = await services.db.send(
      new GetCommand({ TableName: services.aws.tableName, Key: { pk: `FOLLOWUP#${ids[2]}`, sk: 'FOLLOWUP' } }),
    );
    expect(stored.Item).toMatchObject({
      gsi1sk: `${newTime}#${ids[2]}`,
      gsi2sk: `${newTime}#${ids[2]}`,
      expires_at: Math.floor((Date.parse(newTime) + RETENTION_MS) / 1000),
    });
    expect(await steps.listDue(newTime, 10)).toContain(ids[2]);
    // It now comes first in the lead's list.
    expect(body(await list(tenantA, { site_id: SITE, status: 'scheduled' })).data.follow_ups[0]?.id).toBe(ids[2]);

    const sent = body(await edit(tenantA, ids[2]!, { status: 'sent' }));
    expect(sent.data).toMatchObject({ status: 'sent', sent_at: new Date(now).toISOString() });
    expect(await steps.listDue('2999-01-01T00:00:00.000Z', 500)).not.toContain(ids[2]);
  });

  it('refuses a past time, marked-up copy, another tenant, a key without the site, and any change to a step that ended', async () => {
    const [tenantA, tenantB, noSites] = [keyOf('refuse-a'), keyOf('refuse-b'), keyOf('refuse-a', [])];
    const { ids } = await saveSequence('refuse-a');
    now = T0 + MINUTE;
    expect(await refusal(() => edit(tenantA, ids[0]!, { scheduled_for: new Date(T0).toISOString() }))).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [expect.objectContaining({ path: ['scheduled_for'] })],
    });
    expect(await refusal(() => edit(tenantA, ids[0]!, { content: 'Hi **Jordan**, see [Link here]' }))).toMatchObject({
      code: 'INVALID_REQUEST',
    });
    expect(await refusal(() => edit(tenantA, ids[0]!, { content: 'Hi Jordan', status: 'sent', extra: 1 }))).toMatchObject({
      code: 'INVALID_REQUEST',
    });
    expect(await refusal(() => edit(tenantB, ids[0]!, { status: 'cancelled' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(() => edit(tenantA, '0f0e0d0c-0b0a-4908-8706-050403020100', { status: 'cancelled' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await refusal(() => edit(tenantA, 'not-an-id', { status: 'cancelled' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(() => edit(noSites, ids[0]!, { status: 'cancelled' }))).toMatchObject({ code: 'FORBIDDEN' });

    await edit(tenantA, ids[0]!, { status: 'sent' });
    await edit(tenantA, ids[1]!, { status: 'cancelled', reason: 'the lead asked for a pause' });
    for (const [id, patch] of [
      [ids[0], { status: 'cancelled' }],
      [ids[0], { content: 'Hi Jordan, one more thing.' }],
      [ids[1], { status: 'sent' }],
      [ids[1], { scheduled_for: new Date(T0 + DAY).toISOString() }],
    ] as const) {
      const error = await refusal(() => edit(tenantA, id!, patch));
      expect(error).toMatchObject({ code: 'INVALID_TRANSITION' });
      expect(error.statusCode).toBe(409);
    }
    expect(body(await list(tenantA, { site_id: SITE, status: 'cancelled' })).data.follow_ups).toContainEqual(
      expect.objectContaining({ id: ids[1], status_reason: 'the lead asked for a pause' }),
    );
  });

  it("keeps a due step's time (it was announced) but lets its copy change and lets it be sent", async () => {
    const tenantA = keyOf('due-a');
    const { ids } = await saveSequence('due-a');
    now = T0 + DAY;
    await dispatchDueFollowUps({ steps, events: recorder(), clock, logger });
    expect(await refusal(() => edit(tenantA, ids[0]!, { scheduled_for: new Date(T0 + 3 * DAY).toISOString() }))).toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    expect(body(await edit(tenantA, ids[0]!, { content: 'Hi Jordan, a shorter note.' })).data).toMatchObject({
      status: 'due',
      content: 'Hi Jordan, a shorter note.',
    });
    expect(body(await edit(tenantA, ids[0]!, { status: 'sent' })).data).toMatchObject({ status: 'sent' });
  });
});

describe('the dispatcher', () => {
  it('makes each due step due once, with two dispatchers running at once, and publishes follow_up.due once per step', async () => {
    const sequences = await Promise.all(Array.from({ length: 6 }, () => saveSequence('dispatch-a', { count: 4, start: T0 - 30 * DAY })));
    now = T0 - 30 * DAY + 2 * DAY + MINUTE; // steps 1 and 2 of each sequence are due
    const [one, two] = [recorder(), recorder()];
    const reports = await Promise.all([
      dispatchDueFollowUps({ steps, events: one, clock, logger }),
      dispatchDueFollowUps({ steps, events: two, clock, logger }),
    ]);

    const dueIds = sequences.flatMap((sequence) => sequence.ids.slice(0, 2)).sort();
    const published = [...one.events, ...two.events];
    expect(published.map((event) => event.data.follow_up_id).sort()).toEqual(dueIds);
    expect(reports[0].due + reports[1].due).toBe(dueIds.length);
    const event = published[0]!;
    const stepId = String(event.data.follow_up_id);
    expect(event).toMatchObject({ tenantId: 'dispatch-a', type: 'follow_up.due', idempotencyKey: `${stepId}:due` });
    expect(event.data).toMatchObject({
      follow_up: expect.objectContaining({ id: stepId, status: 'due', due_at: new Date(now).toISOString() }),
      site_id: SITE,
      lead_id: LEAD,
      command_id: expect.any(String),
    });

    // They left the scheduled partition (and the announcing one): the next run finds nothing.
    const scheduled = await steps.listDue(new Date(now).toISOString(), 500);
    for (const id of dueIds) expect(scheduled).not.toContain(id);
    expect(await steps.listAnnouncing('2999-01-01T00:00:00.000Z', 500)).toEqual([]);
    const third = recorder();
    await dispatchDueFollowUps({ steps, events: third, clock, logger });
    expect(third.events.map((item) => String(item.data.follow_up_id)).filter((id) => dueIds.includes(id))).toEqual([]);
    for (const sequence of sequences) expect((await steps.get(sequence.ids[2]!))?.status).toBe('scheduled');
  });

  it('publishes again, a later run, what it could not publish', async () => {
    const { ids } = await saveSequence('dispatch-b', { count: 1, start: T0 - 60 * DAY });
    now = T0 - 59 * DAY;
    const run = dispatchDueFollowUps({ steps, events: recorder({ failing: true }), clock, logger });
    await expect(run).rejects.toBeInstanceOf(DispatchIncompleteError);
    expect((await steps.get(ids[0]!))?.status).toBe('due');
    expect(await steps.listAnnouncing(new Date(now).toISOString(), 500)).toContain(ids[0]);

    // Too soon: a run in progress could still be publishing it.
    const early = recorder();
    now += MINUTE;
    await dispatchDueFollowUps({ steps, events: early, clock, logger });
    expect(early.events.map((event) => event.data.follow_up_id)).not.toContain(ids[0]);

    const later = recorder();
    now += 5 * MINUTE;
    await dispatchDueFollowUps({ steps, events: later, clock, logger });
    expect(later.events.filter((event) => event.data.follow_up_id === ids[0])).toHaveLength(1);
    expect(await steps.listAnnouncing('2999-01-01T00:00:00.000Z', 500)).not.toContain(ids[0]);
  });
});

describe('POST a lead event', () => {
  it('cancels the remaining steps on a reply, once, however often the event is repeated', async () => {
    const [tenantA, tenantB] = [keyOf('reply-a'), keyOf('reply-b')];
    const { ids } = await saveSequence('reply-a', { count: 4, leadId: LEAD, start: T0 - DAY - MINUTE });
    now = T0;
    await edit(tenantA, ids[0]!, { status: 'sent' });
    await saveSequence('reply-b', { count: 2, leadId: LEAD });
    const events = recorder();
    const call = {
      principal: tenantA,
      leadId: LEAD,
      body: { site_id: SITE, event: { type: 'replied', channel: 'email', summary: 'Jordan wants a call on Friday.' } },
      headers: { 'idempotency-key': 'esp-evt-1' },
    };

    const first = body(await answerLeadEvent(eventDeps(events), call));
    const again = await answerLeadEvent(eventDeps(events), call);

    expect(first.data.changes).toEqual(
      ids
        .slice(1)
        .map((id) => expect.objectContaining({ follow_up_id: id, change: 'cancelled', previous_status: 'scheduled', status: 'cancelled' })),
    );
    expect(first.data).toMatchObject({
      lead_id: LEAD,
      site_id: SITE,
      event: { type: 'replied', channel: 'email' },
      interaction_recorded: true,
    });
    expect(body(again)).toEqual(first);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(events.events).toEqual([
      expect.objectContaining({ tenantId: 'reply-a', type: 'sequence.adapted', idempotencyKey: `${String(first.data.event_id)}:adapted` }),
    ]);
    expect(events.events[0]!.data).toMatchObject({ event_id: first.data.event_id, lead_id: LEAD, changes: first.data.changes });

    const statuses = body(await list(tenantA, { site_id: SITE })).data.follow_ups.filter((item) => ids.includes(item.id));
    expect(statuses.map((item) => item.status)).toEqual(['sent', 'cancelled', 'cancelled', 'cancelled']);
    expect(body(await list(tenantB, { site_id: SITE })).data.follow_ups.every((item) => item.status === 'scheduled')).toBe(true);

    // The event joined tenant A's history of the lead (once), not the site's lead, nor tenant B's history.
    const history = dynamoLeadHistory(services.db, services.aws.tableName);
    const recorded = (await history.window({ tenantId: 'reply-a', siteId: SITE, leadId: LEAD }, now)).filter(
      (item) => item.summary === 'Jordan wants a call on Friday.',
    );
    expect(recorded).toEqual([
      {
        event_id: first.data.event_id,
        date: new Date(T0).toISOString(),
        type: 'replied',
        channel: 'email',
        summary: 'Jordan wants a call on Friday.',
      },
    ]);
    expect(await history.window({ tenantId: 'reply-b', siteId: SITE, leadId: LEAD }, now)).toEqual([]);
    const { Items: entries = [] } = await services.db.send(
      new QueryCommand({
        TableName: services.aws.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tenant)',
        ExpressionAttributeValues: { ':pk': historyPartition(SITE, LEAD), ':tenant': 'reply-a#' },
      }),
    );
    // It expires with the event's record: COMMAND_RETENTION_DAYS after it was reported.
    expect(entries.map((item) => item.expires_at)).toEqual([Math.floor((T0 + RETENTION_MS) / 1000)]);
    const lead = await services.db.send(new GetCommand({ TableName: services.aws.tableName, Key: itemKey(SITE, 'leads', LEAD) }));
    expect(JSON.stringify(lead.Item)).not.toContain('Jordan wants a call on Friday.');

    expect(
      await refusal(() => answerLeadEvent(eventDeps(events), { ...call, body: { site_id: SITE, event: { type: 'opened' } } })),
    ).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  it("cancels only the bounced channel's steps, and brings the next step forward after a click", async () => {
    const { ids } = await saveSequence('bounce-a', { count: 4, leadId: OTHER_LEAD, types: ['email', 'call', 'email', 'messaging_app'] });
    const principal = keyOf('bounce-a');
    const events = recorder();
    const bounced = body(
      await answerLeadEvent(eventDeps(events), { principal, leadId: OTHER_LEAD, body: { site_id: SITE, type: 'bounced' }, headers: {} }),
    );
    expect(bounced.data.changes).toEqual([ids[0], ids[2]].map((id) => expect.objectContaining({ follow_up_id: id, change: 'cancelled' })));

    now = T0 + 10 * MINUTE;
    const clicked = body(
      await answerLeadEvent(eventDeps(events), {
        principal,
        leadId: OTHER_LEAD,
        body: { site_id: SITE, type: 'clicked', occurred_at: new Date(T0).toISOString() },
        headers: {},
      }),
    );
    const to = new Date(now + 60 * MINUTE).toISOString();
    expect(clicked.data.changes).toEqual([
      {
        follow_up_id: ids[1],
        change: 'rescheduled',
        previous_status: 'scheduled',
        status: 'scheduled',
        previous_scheduled_for: new Date(T0 + 2 * DAY).toISOString(),
        scheduled_for: to,
      },
    ]);
    expect((await steps.get(ids[1]!))?.scheduled_for).toBe(to);

    const opened = body(
      await answerLeadEvent(eventDeps(events), { principal, leadId: OTHER_LEAD, body: { site_id: SITE, type: 'opened' }, headers: {} }),
    );
    expect(opened.data.changes).toEqual([]);
    expect(events.events.map((event) => event.type)).toEqual(['sequence.adapted', 'sequence.adapted']);
  });

  it('finishes, on a retry with the same Idempotency-Key, the changes of an attempt that died half way, and records the interaction once', async () => {
    const principal = keyOf('retry-a');
    const { ids } = await saveSequence('retry-a', { count: 3, leadId: OTHER_LEAD });
    const deps = eventDeps(recorder());
    const payload = { site_id: SITE, event: { type: 'unsubscribed', summary: 'Asked to hear no more (retry test).' } };
    // The first attempt claimed the key, kept its plan, cancelled one step and recorded the interaction, then died.
    const eventId = newId();
    await deps.idempotency.claim({
      tenantId: 'retry-a',
      scope: 'lead_event',
      key: 'crm-42',
      bodyHash: sha256Hex(canonicalJson({ lead_id: OTHER_LEAD, body: payload })),
      commandId: eventId,
      now,
    });
    const plan = ids.map((id, index) => ({
      follow_up_id: id,
      action: 'cancel' as const,
      from_status: 'scheduled' as const,
      scheduled_for: new Date(T0 + (index + 1) * DAY).toISOString(),
    }));
    const event = {
      type: 'unsubscribed' as const,
      occurred_at: new Date(now).toISOString(),
      channel: null,
      summary: payload.event.summary,
    };
    await deps.records.create({
      id: eventId,
      tenant_id: 'retry-a',
      site_id: SITE,
      lead_id: OTHER_LEAD,
      event,
      plan,
      created_at: event.occurred_at,
      expires_at: 9_999_999_999,
    });
    const at = new Date(now).toISOString();
    await steps.change(
      ids[0]!,
      { at, status: 'cancelled', status_reason: 'unsubscribed', adapted_by: { event_id: eventId, event_type: 'unsubscribed', at } },
      { tenantId: 'retry-a', statuses: ['scheduled'] },
    );
    const owner = { tenantId: 'retry-a', siteId: SITE, leadId: OTHER_LEAD };
    const entry = { event_id: eventId, date: at, type: 'unsubscribed', channel: null, summary: payload.event.summary };
    expect(await deps.history.record(owner, entry, 9_999_999_999)).toBe('recorded');
    // Meanwhile the caller sent the last step: the retry leaves it alone.
    await edit(principal, ids[2]!, { status: 'sent' });

    const events = recorder();
    const answer = body(
      await answerLeadEvent(
        { ...deps, events },
        { principal, leadId: OTHER_LEAD, body: payload, headers: { 'idempotency-key': 'crm-42' } },
      ),
    );

    expect(answer.data).toMatchObject({ event_id: eventId, interaction_recorded: true });
    expect((answer.data.changes as { follow_up_id: string }[]).map((change) => change.follow_up_id)).toEqual([ids[0], ids[1]]);
    expect(events.events).toHaveLength(1);
    expect(await deps.history.record(owner, entry, 9_999_999_999)).toBe('already_recorded');
    expect((await deps.history.window(owner, now)).filter((item) => item.summary === payload.event.summary)).toHaveLength(1);
  });

  it('checks the site and the lead before anything changes', async () => {
    const [tenantA, noSites] = [keyOf('checks-a'), keyOf('checks-a', [])];
    const events = recorder();
    const post = (principal: Principal, leadId: string, payload: unknown) =>
      answerLeadEvent(eventDeps(events), { principal, leadId, body: payload, headers: {} });
    expect(await refusal(() => post(noSites, LEAD, { site_id: SITE, type: 'replied' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(() => post(tenantA, '0f0e0d0c-0b0a-4908-8706-050403020100', { site_id: SITE, type: 'replied' }))).toMatchObject({
      code: 'LEAD_NOT_FOUND',
    });
    expect(await refusal(() => post(tenantA, LEAD, { site_id: SITE, type: 'replied', extra: true }))).toMatchObject({
      code: 'INVALID_REQUEST',
    });
    expect(events.events).toEqual([]);
  });
});

describe('erasing a command', () => {
  it("erases its sequence's follow-ups, the tenant's own only", async () => {
    const { commandId, ids } = await saveSequence('erase-a', { leadId: OTHER_LEAD });
    const command = {
      id: commandId,
      type: 'lead_follow_up',
      tenant_id: 'erase-a',
      request: { output: 'follow_up_sequence' },
    } as unknown as StoredCommand;
    expect(await sequenceLeftovers(steps)({ ...command, tenant_id: 'erase-b' })).toEqual([]);
    expect(await sequenceLeftovers(steps)({ ...command, request: { output: 'channel_messages' } })).toEqual([]);
    expect(await sequenceLeftovers(steps)(command)).toEqual(ids);
    for (const id of ids) expect(await steps.get(id)).toBeUndefined();
  });
});
