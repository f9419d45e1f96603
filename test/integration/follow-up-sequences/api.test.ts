/**
 * Follow-up sequences end to end through the local runtime's HTTP API
 * (embedded DynamoDB and SQS, the sales worker with the offline writer, the
 * dispatcher run by the test, on a clock the test moves on), with two
 * tenants whose keys cover the same site.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { movableClock } from '../../support/clock';
import { call } from '../../support/http';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const KEY_A = `sbk_${'a'.repeat(32)}`;
const KEY_B = `sbk_${'b'.repeat(32)}`;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const clock = movableClock();

type Step = { id: string; status: string; scheduled_for: string; command_id: string; sequence_position: number; content: string };

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    apiKey: KEY_A,
    apiKeys: { [KEY_B]: [SITE] },
    scheduleEveryMs: 0,
    clock,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
}, 60_000);

afterAll(async () => {
  await runtime.stop();
});

const followUps = async (key: string, query = `site_id=${SITE}`) => {
  const answer = await call(runtime.url, 'GET', `/api/leads/${LEAD}/follow-ups?${query}`, { key });
  return { ...answer, steps: (answer.body.data?.follow_ups ?? []) as Step[] };
};

describe('running and adapting a sequence over HTTP', () => {
  it("lists, edits, dispatches, adapts and erases a lead's follow-ups, for their tenant only", async () => {
    const created = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: KEY_A,
      headers: { prefer: 'wait=20' },
      body: { siteId: SITE, leadId: LEAD, output: 'follow_up_sequence', followUpInterval: '2 days' },
    });
    expect(created.status).toBe(200);
    const commandId = String(created.body.data?.command_id);
    const planned = created.body.data?.follow_ups as Step[];
    expect(planned.length).toBeGreaterThanOrEqual(3);

    // Listed in schedule order for tenant A, with each step's expiry COMMAND_RETENTION_DAYS (90) after its time.
    const listed = await followUps(KEY_A);
    expect(listed.status).toBe(200);
    expect(listed.steps.map((step) => step.id)).toEqual(planned.map((step) => step.id));
    expect(listed.steps.every((step) => step.status === 'scheduled' && step.command_id === commandId)).toBe(true);
    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    try {
      const { Item } = await db.send(
        new GetCommand({ TableName: runtime.tableName, Key: { pk: `FOLLOWUP#${planned[0]!.id}`, sk: 'FOLLOWUP' } }),
      );
      expect(Item?.expires_at).toBe(Math.floor((Date.parse(planned[0]!.scheduled_for) + 90 * DAY) / 1000));
    } finally {
      db.destroy();
    }
    expect((await followUps(KEY_B)).steps).toEqual([]);
    const paged = await followUps(KEY_A, `site_id=${SITE}&limit=1`);
    expect(paged.steps).toHaveLength(1);
    expect(paged.body.data).toMatchObject({ has_more: true, next_cursor: expect.any(String) });

    // Edits: another tenant cannot see the step; an unknown field and a past time are refused; a nearer time is kept.
    const first = planned[0]!.id;
    const patch = (key: string, id: string, body: unknown) => call(runtime.url, 'PATCH', `/api/follow-ups/${id}`, { key, body });
    expect(await patch(KEY_B, first, { status: 'cancelled' })).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    expect(await patch(KEY_A, first, { content: 'Hi', colour: 'red' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST', details: expect.any(Array) } },
    });
    expect(await patch(KEY_A, first, { scheduled_for: '2020-01-01T00:00:00Z' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST' } },
    });
    const soon = new Date(clock.now() + HOUR).toISOString();
    const moved = await patch(KEY_A, first, { scheduled_for: soon });
    expect(moved).toMatchObject({ status: 200, body: { success: true, data: { id: first, scheduled_for: soon, status: 'scheduled' } } });

    // The dispatcher leaves it until its time, then makes it due.
    const stepNow = async () => (await followUps(KEY_A)).steps.find((item) => item.id === first);
    await runtime.runScheduled('followUpDispatcher');
    expect(await stepNow()).toMatchObject({ status: 'scheduled' });
    clock.advance(HOUR);
    await runtime.runScheduled('followUpDispatcher');
    expect(await stepNow()).toMatchObject({ status: 'due', due_at: expect.any(String) });

    expect(await patch(KEY_A, first, { status: 'sent' })).toMatchObject({ status: 200, body: { data: { status: 'sent' } } });
    expect(await patch(KEY_A, first, { status: 'sent' })).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'INVALID_TRANSITION' } },
    });

    // The lead replies: the rest is cancelled, once for a repeated event.
    const reply = { site_id: SITE, event: { type: 'replied', channel: 'email', summary: 'Happy to talk on Friday.' } };
    const event = () =>
      call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, { key: KEY_A, body: reply, headers: { 'idempotency-key': 'reply-1' } });
    const adapted = await event();
    expect(adapted.status).toBe(200);
    expect(
      (adapted.body.data?.changes as { follow_up_id: string; status: string }[]).map((change) => [change.follow_up_id, change.status]),
    ).toEqual(planned.slice(1).map((step) => [step.id, 'cancelled']));
    const repeated = await event();
    expect(repeated.body).toEqual(adapted.body);
    expect(repeated.headers.get('idempotent-replayed')).toBe('true');
    expect((await followUps(KEY_A)).steps.map((step) => step.status)).toEqual(['sent', ...planned.slice(1).map(() => 'cancelled')]);

    // Erasing the command erases its follow-ups.
    const erased = await call(runtime.url, 'DELETE', `/api/commands/${commandId}`, { key: KEY_A });
    expect(erased.status).toBe(200);
    expect((erased.body.data?.deleted_follow_up_ids as string[]).sort()).toEqual(planned.map((step) => step.id).sort());
    expect((await followUps(KEY_A)).steps).toEqual([]);
  }, 60_000);

  it('answers 401 without a key, 405 for another method, and the house errors for the lead routes', async () => {
    expect((await call(runtime.url, 'GET', `/api/leads/${LEAD}/follow-ups?site_id=${SITE}`)).status).toBe(401);
    expect((await call(runtime.url, 'PATCH', `/api/follow-ups/${LEAD}`, { body: { status: 'sent' } })).status).toBe(401);
    const wrongMethod = await call(runtime.url, 'DELETE', `/api/follow-ups/${LEAD}`, { key: KEY_A });
    expect(wrongMethod).toMatchObject({ status: 405, body: { error: { code: 'METHOD_NOT_ALLOWED' } } });
    expect(wrongMethod.headers.get('allow')).toBe('PATCH');
    expect(await call(runtime.url, 'PATCH', `/api/follow-ups/${LEAD}`, { key: KEY_A, rawBody: '{"status":' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST' } },
    });
    expect(await call(runtime.url, 'GET', `/api/leads/${LEAD}/follow-ups`, { key: KEY_A })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_REQUEST' } },
    });
    expect(
      await call(runtime.url, 'POST', `/api/leads/0f0e0d0c-0b0a-4908-8706-050403020100/events`, {
        key: KEY_A,
        body: { site_id: SITE, type: 'opened' },
      }),
    ).toMatchObject({
      status: 404,
      body: { error: { code: 'LEAD_NOT_FOUND' } },
    });
    const recorded = await call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, { key: KEY_B, body: { site_id: SITE, type: 'opened' } });
    expect(recorded).toMatchObject({
      status: 200,
      body: { success: true, data: { changes: [], interaction_recorded: true, event: { type: 'opened' } } },
    });
  });

  it.each([
    ['a site_id array', { site_id: [SITE], type: 'opened' }, ['site_id']],
    ['a site_id object', { site_id: { id: SITE }, type: 'opened' }, ['site_id']],
    ['a site_id number', { site_id: 42, type: 'opened' }, ['site_id']],
    ['a siteId array', { siteId: [SITE], type: 'opened' }, ['site_id']],
    ['an occurred_at in year 0000', { site_id: SITE, type: 'opened', occurred_at: '0000-01-01T00:00:00Z' }, ['occurred_at']],
    [
      'an occurred_at before 1970',
      { site_id: SITE, event: { type: 'opened', occurred_at: '1969-12-31T23:59:59Z' } },
      ['event', 'occurred_at'],
    ],
    ['an occurred_at that is no day', { site_id: SITE, type: 'opened', occurred_at: '2026-02-30T09:00:00Z' }, ['occurred_at']],
  ])('refuses %s with 400 INVALID_REQUEST naming the field', async (_name, body, path) => {
    const answer = await call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, { key: KEY_A, body });
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'INVALID_REQUEST', details: [expect.objectContaining({ path })] } },
    });
    expect(String(answer.body.error?.message)).toContain(path.at(-1));
  });

  it('takes an occurred_at at the very start of 1970', async () => {
    const answer = await call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, {
      key: KEY_B,
      body: { site_id: SITE, type: 'opened', occurred_at: '1970-01-01T01:00:00+01:00' },
    });
    expect(answer).toMatchObject({ status: 200, body: { data: { event: { occurred_at: '1970-01-01T00:00:00.000Z' } } } });
  });
});
