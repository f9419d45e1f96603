import { createHmac } from 'node:crypto';
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { QUEUES } from '../../../shared/catalogue/job-types';
import { verifyWebhookSignature } from '../../../shared/webhooks/signature';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { movableClock } from '../../support/clock';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';
import { tempDir } from '../../support/temp-dir';

/**
 * Completion webhooks end to end under the local runtime: a command that
 * ends is told once, signed, to a loopback receiver; a receiver that fails
 * gets the event again after WEBHOOK_RETRY_DELAYS (1 s here), until the
 * last attempt; a redelivery sends the same event again; a job delivered
 * twice never makes a second event; calls add `call.status_changed`; a
 * retry an hour away survives a restart, and comes once the (moved) clock
 * says so.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const LEAD_FOLLOW_UP = '/api/agents/sales/leadFollowUp';

let runtime: LocalRuntime;
let receiver: WebhookReceiver;
let sqs: SQSClient;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    localRingTimeoutMs: 60_000,
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      LEAD_FOLLOW_UP_OUTPUT: 'channel_messages',
      WEBHOOK_RETRY_DELAYS: '1',
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

async function register(path: string, events?: string[]): Promise<{ id: string; secret: string }> {
  const answer = await call(runtime.url, 'POST', '/api/webhooks', {
    key: runtime.apiKey,
    body: { url: `${receiver.url}${path}`, ...(events ? { events } : {}) },
  });
  expect(answer.status).toBe(201);
  return { id: String(answer.body.data?.id), secret: String(answer.body.data?.secret) };
}

async function leadFollowUp(): Promise<string> {
  const answer = await call(runtime.url, 'POST', LEAD_FOLLOW_UP, {
    key: runtime.apiKey,
    body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    headers: { prefer: 'wait=20' },
  });
  expect(answer.status).toBe(200);
  return String(answer.body.data?.command_id);
}

const forCommand = (path: string, commandId: string) => (item: ReceivedWebhook) =>
  item.path === path && (item.body.data.command as { command_id?: string } | undefined)?.command_id === commandId;

async function deliveriesOf(endpointId: string): Promise<Record<string, unknown>[]> {
  const answer = await call(runtime.url, 'GET', `/api/webhooks/${endpointId}/deliveries`, { key: runtime.apiKey });
  expect(answer.status).toBe(200);
  return answer.body.data!.deliveries as Record<string, unknown>[];
}

/** Every queue empty (nothing visible, in flight or delayed), twice in a row: the runtime has nothing left to do. */
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

describe('a command that completes', () => {
  it('is told once as command.completed, signed, with data.command equal to GET /api/commands/{id}', async () => {
    const endpoint = await register('/leads', ['command.completed', 'command.failed']);
    const commandId = await leadFollowUp();

    const [delivered] = await eventually(
      async () => {
        const found = receiver.received.filter(forCommand('/leads', commandId));
        return found.length > 0 ? found : undefined;
      },
      15_000,
      'the command.completed event',
    );
    await idle();
    expect(receiver.received.filter(forCommand('/leads', commandId))).toHaveLength(1);

    const event = delivered!;
    expect(event.body).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'command.completed',
      created_at: expect.any(String),
      data: { command: expect.any(Object) },
    });
    expect(new Date(event.body.created_at).toISOString()).toBe(event.body.created_at);
    const read = await call(runtime.url, 'GET', `/api/commands/${commandId}`, { key: runtime.apiKey });
    // All of GET's answer but its usage, which goes on growing after the end (this very delivery adds to it).
    const { usage: _usage, ...readWithoutUsage } = read.body.data!;
    expect(event.body.data.command).toEqual(readWithoutUsage);
    expect(read.body.data).toMatchObject({ status: 'completed', type: 'lead_follow_up' });
    // The delivery counts once on the command's usage (the queue is idle: nothing more will add to it).
    expect((read.body.data!.usage as { webhook_deliveries: number }).webhook_deliveries).toBe(1);
    expect(event.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'switchboard-event-id': event.body.id,
      'switchboard-event-type': 'command.completed',
      'switchboard-delivery-attempt': '1',
    });

    // The signature, checked with the exported helper and with an HMAC computed here from the header alone.
    const header = String(event.headers['switchboard-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(endpoint.secret, header, event.rawBody, 300)).toBe(true);
    const [, timestamp, signature] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)!;
    expect(createHmac('sha256', endpoint.secret).update(`${timestamp}.${event.rawBody}`).digest('hex')).toBe(signature);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifyWebhookSignature(`${endpoint.secret}x`, header, event.rawBody, 300)).toBe(false);
    expect(verifyWebhookSignature(endpoint.secret, header, event.rawBody.replace('command.completed', 'command.failed'), 300)).toBe(false);

    // Its delivery, as the API shows it.
    const deliveries = await deliveriesOf(endpoint.id);
    expect(deliveries.filter((item) => item.event_id === event.body.id)).toEqual([
      expect.objectContaining({
        event_type: 'command.completed',
        status: 'delivered',
        attempts: 1,
        last_response_status: 200,
        next_attempt_at: null,
      }),
    ]);

    // The copywriter phase is internal: it is never announced, and its own ending told nothing more.
    expect(receiver.received.filter((item) => (item.body.data.command as { type?: string } | undefined)?.type === 'copywriter')).toEqual(
      [],
    );

    // The same jobs delivered again (a redelivery after a crash): the commands are finished, the event is not made twice.
    const childId = (read.body.data?.command_ids as { copywriter: string }).copywriter;
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: runtime.queues.sales.url,
        MessageBody: JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: runtime.tenantId, command_id: commandId }),
      }),
    );
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: runtime.queues.copywriter.url,
        MessageBody: JSON.stringify({ version: 1, type: 'copywriter', tenant_id: runtime.tenantId, command_id: childId }),
      }),
    );
    await idle();
    const all = receiver.received.filter(forCommand('/leads', commandId));
    expect(all.map((item) => item.body.id)).toEqual([event.body.id]);
    expect((await deliveriesOf(endpoint.id)).filter((item) => item.event_id === event.body.id)).toHaveLength(1);
    await call(runtime.url, 'DELETE', `/api/webhooks/${endpoint.id}`, { key: runtime.apiKey });
  });
});

describe('retries', () => {
  it('a receiver answering 500 then 200 ends delivered with 2 attempts, the same event both times', async () => {
    const endpoint = await register('/flaky', ['command.completed']);
    receiver.answerNext(1, { status: 500, body: '{"error":"try later"}' }, '/flaky');
    const commandId = await leadFollowUp();

    const delivery = await eventually(
      async () => {
        const found = (await deliveriesOf(endpoint.id)).find((item) => item.status === 'delivered');
        return found;
      },
      15_000,
      'the delivery to succeed on its second attempt',
    );
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_response_status: 200,
      next_attempt_at: null,
      delivered_at: expect.any(String),
    });
    const log = delivery.attempt_log as Record<string, unknown>[];
    expect(log.map((attempt) => [attempt.number, attempt.trigger, attempt.response_status])).toEqual([
      [1, 'automatic', 500],
      [2, 'automatic', 200],
    ]);
    expect(log[0]).toMatchObject({ response_excerpt: '{"error":"try later"}', duration_ms: expect.any(Number) });

    const sent = receiver.received.filter(forCommand('/flaky', commandId));
    expect(sent).toHaveLength(2);
    expect(sent[1]!.rawBody).toBe(sent[0]!.rawBody);
    expect(sent.map((item) => item.headers['switchboard-delivery-attempt'])).toEqual(['1', '2']);
    // About a second apart: WEBHOOK_RETRY_DELAYS=1.
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(900);
    await call(runtime.url, 'DELETE', `/api/webhooks/${endpoint.id}`, { key: runtime.apiKey });
  });

  it('gives up after the last attempt (failed), and a redelivery sends the same event once more', async () => {
    const endpoint = await register('/down', ['command.completed']);
    receiver.answerAlways('/down', { status: 503 });
    const commandId = await leadFollowUp();

    const failed = await eventually(
      async () => (await deliveriesOf(endpoint.id)).find((item) => item.status === 'failed'),
      20_000,
      'the delivery to fail',
    );
    // Two attempts: the first, then one after the only wait of WEBHOOK_RETRY_DELAYS=1.
    expect(failed).toMatchObject({ attempts: 2, last_response_status: 503, next_attempt_at: null });
    await idle();
    expect(receiver.received.filter(forCommand('/down', commandId))).toHaveLength(2);

    receiver.heal();
    const eventId = String(failed.event_id);
    const redelivered = await call(runtime.url, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${eventId}/redeliver`, {
      key: runtime.apiKey,
    });
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data).toMatchObject({ event_id: eventId, status: 'pending', attempts: 2 });

    const done = await eventually(
      async () => (await deliveriesOf(endpoint.id)).find((item) => item.event_id === eventId && item.status === 'delivered'),
      15_000,
      'the redelivery',
    );
    expect(done).toMatchObject({ attempts: 3, last_response_status: 200 });
    expect((done.attempt_log as { trigger: string }[]).at(-1)?.trigger).toBe('redelivery');
    const sent = receiver.received.filter(forCommand('/down', commandId));
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((item) => item.body.id))).toEqual(new Set([eventId]));

    // A delivered delivery may be sent again too.
    expect(
      (await call(runtime.url, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${eventId}/redeliver`, { key: runtime.apiKey })).status,
    ).toBe(202);
    await eventually(
      async () => (receiver.received.filter(forCommand('/down', commandId)).length === 4 ? true : undefined),
      10_000,
      'the second redelivery',
    );
    await call(runtime.url, 'DELETE', `/api/webhooks/${endpoint.id}`, { key: runtime.apiKey });
  });
});

describe('a stakeholder call', () => {
  it('tells call.status_changed once per callback applied, to endpoints that asked for it only', async () => {
    const calls = await register('/calls', ['call.status_changed']);
    const commandsOnly = await register('/commands-only', ['command.completed']);
    const accepted = await call(runtime.url, 'POST', '/api/agents/cmo/stakeholder-coordination', {
      key: runtime.apiKey,
      body: { site_id: DEMO_SITE, lead_id: DEMO_LEAD, phone_numbers: ['+14155550123'] },
    });
    expect(accepted.status).toBe(202);
    const commandId = String(accepted.body.data?.command_id);
    const local = runtime.localTelephony!;
    const placed = await eventually(async () => local.calls().find((item) => item.status === 'ringing'), 15_000, 'the call to ring');
    await local.answer(placed.sid);
    await local.hangUp(placed.sid);

    const events = await eventually(
      async () => {
        const found = receiver.received.filter((item) => item.path === '/calls' && item.body.data.command_id === commandId);
        return found.some((item) => (item.body.data.call as { status: string }).status === 'completed') ? found : undefined;
      },
      15_000,
      'the completed call event',
    );
    await idle();
    const told = receiver.received.filter((item) => item.path === '/calls' && item.body.data.command_id === commandId);
    expect(told.every((item) => item.body.type === 'call.status_changed')).toBe(true);
    expect(new Set(told.map((item) => item.body.id)).size).toBe(told.length);
    const sequences = told.map((item) => (item.body.data.call as { last_sequence: number }).last_sequence);
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(told.map((item) => (item.body.data.call as { status: string }).status)).toEqual(
      expect.arrayContaining(['in_progress', 'completed']),
    );
    expect(events.length).toBeGreaterThanOrEqual(2);
    // The endpoint that asked for command events heard of the command, not of its call.
    expect(receiver.received.filter((item) => item.path === '/commands-only').every((item) => item.body.type === 'command.completed')).toBe(
      true,
    );
    for (const endpoint of [calls, commandsOnly])
      await call(runtime.url, 'DELETE', `/api/webhooks/${endpoint.id}`, { key: runtime.apiKey });
  });
});

describe('a restart with DATA_DIR', () => {
  it('keeps a pending delivery and makes its next attempt after the restart, when it is due', async () => {
    const dataDir = tempDir('webhooks');
    const settings = {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      LEAD_FOLLOW_UP_OUTPUT: 'channel_messages',
      WEBHOOK_RETRY_DELAYS: '3600',
    };
    const apiKey = 'sbk_webhooks-restart-test-key-0001';
    receiver.answerAlways('/restart', { status: 503 });
    const clock = movableClock();

    const first = await startLocalRuntime({ port: 0, dataDir, apiKey, scheduleEveryMs: 0, settings, clock });
    let endpointId = '';
    try {
      const registered = await call(first.url, 'POST', '/api/webhooks', {
        key: apiKey,
        body: { url: `${receiver.url}/restart`, events: ['command.completed'] },
      });
      endpointId = String(registered.body.data?.id);
      await call(first.url, 'POST', LEAD_FOLLOW_UP, {
        key: apiKey,
        body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
        headers: { prefer: 'wait=20' },
      });
      const pending = await eventually(
        async () => {
          const answer = await call(first.url, 'GET', `/api/webhooks/${endpointId}/deliveries`, { key: apiKey });
          return (answer.body.data?.deliveries as Record<string, unknown>[] | undefined)?.find((item) => item.attempts === 1);
        },
        15_000,
        'the first attempt to fail',
      );
      // The next attempt waits its hour (WEBHOOK_RETRY_DELAYS=3600).
      const [attempt] = pending.attempt_log as { at: string; duration_ms: number }[];
      expect(pending).toMatchObject({ status: 'pending', next_attempt_at: expect.any(String) });
      expect(Date.parse(String(pending.next_attempt_at)) - Date.parse(attempt!.at) - attempt!.duration_ms).toBeGreaterThanOrEqual(
        3_600_000,
      );
      expect(receiver.received.filter((item) => item.path === '/restart')).toHaveLength(1);
    } finally {
      await first.stop();
    }

    receiver.heal();
    clock.advance(3_600_000);
    const second = await startLocalRuntime({ port: 0, dataDir, apiKey, scheduleEveryMs: 0, settings, clock });
    try {
      const delivered = await eventually(
        async () => {
          const answer = await call(second.url, 'GET', `/api/webhooks/${endpointId}/deliveries`, { key: apiKey });
          return (answer.body.data?.deliveries as Record<string, unknown>[]).find((item) => item.status === 'delivered');
        },
        20_000,
        'the delivery to complete after the restart',
      );
      expect(delivered).toMatchObject({ attempts: 2, last_response_status: 200 });
    } finally {
      await second.stop();
    }
  }, 60_000);
});
