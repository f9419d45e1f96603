import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { LOCAL_CALLS_PATH, type LocalAnswer, type LocalCallView } from '../../../infra/local/relay-control';
import { openRelayCaller } from '../../../infra/local/relay-caller';
import { QUEUES } from '../../../shared/catalogue/job-types';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { movableClock } from '../../support/clock';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';

/**
 * The features' own events under the local runtime, each composed as in AWS
 * (functions/*: build): the post-call summary worker's
 * `meeting_summary.created`, the follow-up dispatcher's `follow_up.due` and
 * the lead events API's `sequence.adapted` reach a registered loopback
 * endpoint, signed, exactly once. The dispatcher has no timer here: the
 * test runs it, and moves the runtime's clock on to make a step due.
 */
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let runtime: LocalRuntime;
let receiver: WebhookReceiver;
let sqs: SQSClient;
const clock = movableClock();
const HOUR = 3_600_000;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  runtime = await startLocalRuntime({
    port: 0,
    localRingTimeoutMs: 60_000,
    scheduleEveryMs: 0,
    clock,
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      WEBHOOK_RETRY_DELAYS: '1,1',
    },
  });
  sqs = new SQSClient({
    endpoint: runtime.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}, 60_000);

afterAll(async () => {
  sqs?.destroy();
  await runtime?.stop();
  await receiver?.close();
});

async function register(path: string, events?: string[]): Promise<string> {
  const answer = await call(runtime.url, 'POST', '/api/webhooks', {
    key: runtime.apiKey,
    body: { url: `${receiver.url}${path}`, ...(events ? { events } : {}) },
  });
  expect(answer.status).toBe(201);
  return String(answer.body.data?.id);
}

const unregister = async (id: string) =>
  expect((await call(runtime.url, 'DELETE', `/api/webhooks/${id}`, { key: runtime.apiKey })).status).toBe(200);

const receivedAt = (path: string, type?: string) =>
  receiver.received.filter((item) => item.path === path && (type === undefined || item.body.type === type));

/** Every queue empty (nothing visible, in flight or delayed), twice in a row: the runtime has nothing left to deliver. */
async function idle(): Promise<void> {
  let quietRounds = 0;
  await eventually(
    async () => {
      const counts = await Promise.all(
        QUEUES.map(async (queue) => {
          const { Attributes = {} } = await sqs.send(
            new GetQueueAttributesCommand({
              QueueUrl: runtime.queues[queue.id].url,
              AttributeNames: [
                'ApproximateNumberOfMessages',
                'ApproximateNumberOfMessagesNotVisible',
                'ApproximateNumberOfMessagesDelayed',
              ],
            }),
          );
          return (
            Number(Attributes.ApproximateNumberOfMessages ?? 0) +
            Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
            Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
          );
        }),
      );
      quietRounds = counts.every((count) => count === 0) ? quietRounds + 1 : 0;
      if (quietRounds < 2) await new Promise((resolve) => setTimeout(resolve, 150));
      return quietRounds >= 2 ? true : undefined;
    },
    20_000,
    'every queue to be empty',
  );
}

/** A lead follow-up sequence of the demo lead, written by the offline writer; its steps. */
async function sequence(): Promise<{ commandId: string; steps: { id: string; scheduled_for: string }[] }> {
  const created = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
    key: runtime.apiKey,
    headers: { prefer: 'wait=20' },
    body: { siteId: SITE, leadId: LEAD, output: 'follow_up_sequence', followUpInterval: '2 days' },
  });
  expect(created.status).toBe(200);
  const steps = created.body.data?.follow_ups as { id: string; scheduled_for: string }[];
  expect(steps.length).toBeGreaterThanOrEqual(2);
  return { commandId: String(created.body.data?.command_id), steps };
}

describe('meeting_summary.created', () => {
  it('reaches the endpoint once when the post-call summary is written; the summary never tells its stakeholder command late', async () => {
    const summaries = await register('/summaries', ['meeting_summary.created']);
    const accepted = await call(runtime.url, 'POST', '/api/agents/cmo/stakeholder-coordination', {
      key: runtime.apiKey,
      body: { site_id: SITE, lead_id: LEAD, phone_numbers: ['+14155550123'], meeting_agenda: ['Winter campaign results'] },
    });
    expect(accepted.status).toBe(202);
    const commandId = String(accepted.body.data?.command_id);

    // The call worker places the call and completes the command (no endpoint asks for command.completed yet: nothing is told).
    const ringing = await eventually(
      async () => {
        const listed = await fetch(`${runtime.url}${LOCAL_CALLS_PATH}`).then(
          (response) => response.json() as Promise<{ data: { calls: LocalCallView[] } }>,
        );
        return listed.data.calls.find((item) => item.command_id === commandId && item.status === 'ringing');
      },
      15_000,
      'the call to ring',
    );
    await eventually(
      async () =>
        (await call(runtime.url, 'GET', `/api/commands/${commandId}`, { key: runtime.apiKey })).body.data?.status === 'completed'
          ? true
          : undefined,
      15_000,
      'the command to complete',
    );
    // An endpoint registered after the command completed: it hears of the summary, and of no command.completed.
    const late = await register('/late');

    // The person answers, speaks, hangs up: the relay queues the post-call summary.
    const answered = await fetch(`${runtime.url}${LOCAL_CALLS_PATH}/${ringing.sid}/answer`, { method: 'POST' }).then(
      (response) => response.json() as Promise<{ data: LocalAnswer }>,
    );
    const caller = await openRelayCaller(answered.data.connect_url, answered.data.signature);
    caller.setup(ringing.sid, answered.data.custom_parameters, { from: answered.data.from, to: answered.data.to });
    await caller.say('Yes, this is a good time.');
    await caller.say('We decided to move 10 percent of the events budget to paid search. Maya will send the plan by Friday.');
    caller.close(1000);
    await Promise.race([caller.closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await fetch(`${runtime.url}${LOCAL_CALLS_PATH}/${ringing.sid}/hangup`, { method: 'POST' });

    const forCommand = (item: ReceivedWebhook) => item.body.data.command_id === commandId;
    await eventually(
      async () =>
        receivedAt('/summaries', 'meeting_summary.created').some(forCommand) &&
        receivedAt('/late', 'meeting_summary.created').some(forCommand)
          ? true
          : undefined,
      20_000,
      'meeting_summary.created',
    );
    await idle();

    const [told, ...again] = receivedAt('/summaries', 'meeting_summary.created').filter(forCommand);
    expect(again).toEqual([]);
    const read = await call(runtime.url, 'GET', `/api/commands/${commandId}`, { key: runtime.apiKey });
    const summary = read.body.data?.meeting_summary as Record<string, unknown>;
    expect(summary).toMatchObject({ status: 'completed', generated_by: 'offline', decisions: [expect.stringContaining('We decided')] });
    expect(told!.body.data).toEqual({
      command_id: commandId,
      meeting_summary: summary,
      command: expect.objectContaining({ command_id: commandId, type: 'stakeholder_coordination', meeting_summary: summary }),
    });
    expect(told!.headers['switchboard-event-type']).toBe('meeting_summary.created');
    expect(
      receivedAt('/late', 'meeting_summary.created')
        .filter(forCommand)
        .map((item) => item.body.id),
    ).toEqual([told!.body.id]);

    // The stakeholder command ended (and was told, to whoever listened) before its summary began: the summary phase
    // tells neither its own ending nor, late, its parent's command.completed to the endpoint registered since.
    const commandEvents = receiver.received.filter((item) => item.body.type === 'command.completed' || item.body.type === 'command.failed');
    const ofCommand = (id: string) => commandEvents.filter((item) => (item.body.data.command as { command_id?: string }).command_id === id);
    expect(ofCommand(commandId)).toEqual([]);
    expect(ofCommand(String(summary.command_id))).toEqual([]);
    expect(commandEvents.filter((item) => (item.body.data.command as { type?: string }).type === 'post_call_summary')).toEqual([]);
    for (const id of [summaries, late]) await unregister(id);
  }, 60_000);
});

describe('follow_up.due', () => {
  it('reaches the endpoint once when the dispatcher makes a step due', async () => {
    const endpoint = await register('/due', ['follow_up.due']);
    const { commandId, steps } = await sequence();
    const first = steps[0]!.id;
    const inAnHour = new Date(clock.now() + HOUR).toISOString();
    expect(
      (await call(runtime.url, 'PATCH', `/api/follow-ups/${first}`, { key: runtime.apiKey, body: { scheduled_for: inAnHour } })).status,
    ).toBe(200);

    // Before its time, a run tells nothing.
    const forStep = (item: ReceivedWebhook) => item.body.data.follow_up_id === first;
    await runtime.runScheduled('followUpDispatcher');
    await idle();
    expect(receivedAt('/due')).toEqual([]);

    clock.advance(HOUR);
    await runtime.runScheduled('followUpDispatcher');
    await eventually(async () => (receivedAt('/due').some(forStep) ? true : undefined), 20_000, 'follow_up.due');
    // More runs, then nothing left to deliver: still one event.
    await runtime.runScheduled('followUpDispatcher');
    await runtime.runScheduled('followUpDispatcher');
    await idle();

    const told = receivedAt('/due').filter(forStep);
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toMatchObject({
      type: 'follow_up.due',
      data: { follow_up_id: first, lead_id: LEAD, site_id: SITE, command_id: commandId, follow_up: { id: first, status: 'due' } },
    });
    // Only the step whose time came was told.
    expect(
      receivedAt('/due')
        .filter((item) => item.body.data.command_id === commandId)
        .map((item) => item.body.data.follow_up_id),
    ).toEqual([first]);
    const listed = await call(runtime.url, 'GET', `/api/leads/${LEAD}/follow-ups?site_id=${SITE}&status=due`, { key: runtime.apiKey });
    expect((listed.body.data?.follow_ups as { id: string }[]).map((step) => step.id)).toContain(first);
    await unregister(endpoint);
  }, 60_000);
});

describe('sequence.adapted', () => {
  it('reaches the endpoint once for a lead event that changed the sequence, not for a repeat or one that changed nothing', async () => {
    const endpoint = await register('/adapted', ['sequence.adapted']);
    await sequence();

    const opened = await call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, {
      key: runtime.apiKey,
      body: { site_id: SITE, event: { type: 'opened' } },
    });
    expect(opened).toMatchObject({ status: 200, body: { data: { changes: [] } } });
    const reply = { site_id: SITE, event: { type: 'replied', channel: 'email', summary: 'Happy to talk on Friday.' } };
    const send = () =>
      call(runtime.url, 'POST', `/api/leads/${LEAD}/events`, {
        key: runtime.apiKey,
        body: reply,
        headers: { 'idempotency-key': 'feature-events-reply' },
      });
    const adapted = await send();
    expect(adapted.status).toBe(200);
    const eventId = String(adapted.body.data?.event_id);
    const changes = adapted.body.data?.changes as unknown[];
    expect(changes.length).toBeGreaterThan(0);
    expect((await send()).headers.get('idempotent-replayed')).toBe('true');

    await eventually(
      async () => (receivedAt('/adapted').some((item) => item.body.data.event_id === eventId) ? true : undefined),
      15_000,
      'sequence.adapted',
    );
    await idle();
    const told = receivedAt('/adapted');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toMatchObject({
      type: 'sequence.adapted',
      data: { event_id: eventId, lead_id: LEAD, site_id: SITE, event: { type: 'replied', channel: 'email' }, changes },
    });
    expect(told[0]!.headers['switchboard-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await unregister(endpoint);
  }, 60_000);
});
