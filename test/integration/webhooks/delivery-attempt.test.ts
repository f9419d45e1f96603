import type { JobQueueId } from '../../../shared/catalogue/job-types';
import { JOB_ENVELOPE_VERSION, type JobEnvelope } from '../../../shared/commands/job';
import type { TaskInput } from '../../../shared/commands/task-worker';
import type { HostLookup } from '../../../shared/platform/http/public-address';
import { runDeliveryAttempt, type DeliveryDependencies } from '../../../shared/webhooks/delivery';
import type { DeliveryJobRequest } from '../../../shared/webhooks/delivery-job';
import { dynamoDeliveryStore, type DeliveryStore } from '../../../shared/webhooks/delivery-store';
import { dynamoEndpointStore, type EndpointStore, type WebhookEndpoint } from '../../../shared/webhooks/endpoint-store';
import { dynamoEventStore, type EventStore } from '../../../shared/webhooks/event-store';
import { pinnedPost, EXCERPT_CHARACTERS } from '../../../shared/webhooks/http-post';
import { newEndpointId, newEventId, newSigningSecret } from '../../../shared/webhooks/ids';
import { verifyWebhookSignature } from '../../../shared/webhooks/signature';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * One delivery attempt (the `webhook_delivery` worker's task) against the
 * embedded DynamoDB, the real HTTP client and a loopback receiver: what an
 * attempt sends and records, what it refuses to send, and which jobs it drops
 * or puts back on the queue. Queued jobs are recorded, not sent.
 */
const TENANT = 'acme';

let services: EmbeddedServices;
let receiver: WebhookReceiver;
let endpoints: EndpointStore;
let events: EventStore;
let deliveries: DeliveryStore;
let requeued: { queue: JobQueueId; body: Record<string, unknown>; delaySeconds: number }[];

beforeAll(async () => {
  services = await startEmbeddedServices();
  receiver = await startWebhookReceiver();
  endpoints = dynamoEndpointStore(services.db, services.aws.tableName);
  events = dynamoEventStore(services.db, services.aws.tableName);
  deliveries = dynamoDeliveryStore(services.db, services.aws.tableName);
});
afterAll(async () => {
  await receiver.close();
  await services.stop();
});
beforeEach(() => {
  requeued = [];
});

function deps(overrides: Partial<DeliveryDependencies> = {}): DeliveryDependencies {
  return {
    endpoints,
    events,
    deliveries,
    queue: {
      sendAgain: async (queue, body, delaySeconds) =>
        void requeued.push({ queue, body: JSON.parse(body) as Record<string, unknown>, delaySeconds }),
    },
    clock: { now: () => Date.now() },
    post: pinnedPost,
    urlPolicy: { allowLoopback: true },
    retryDelaysSeconds: [30, 120],
    leaseMs: 30_000,
    ...overrides,
  };
}

/** An endpoint (stored directly: some of these URLs registration would refuse), an event, and its pending delivery. */
async function pending(url: string, endpointOverrides: Partial<WebhookEndpoint> = {}, dueInMs = 0) {
  const at = new Date().toISOString();
  const endpoint: WebhookEndpoint = {
    id: newEndpointId(),
    tenant_id: TENANT,
    url,
    events: ['*'],
    secret: newSigningSecret(),
    created_at: at,
    updated_at: at,
    ...endpointOverrides,
  };
  expect(await endpoints.create(endpoint)).toBe(true);
  const event = await events.record(
    {
      tenantId: TENANT,
      type: 'command.completed',
      data: { command: { command_id: 'c1', status: 'completed' } },
      idempotencyKey: newEventId(),
    },
    newEventId(),
    Date.now(),
  );
  await deliveries.create({
    endpoint_id: endpoint.id,
    event_id: event.id,
    tenant_id: TENANT,
    event_type: event.type,
    event_key: event.key,
    status: 'pending',
    attempt_count: 0,
    round_start: 0,
    attempts: [],
    next_attempt_at: new Date(Date.now() + dueInMs).toISOString(),
    created_at: at,
    updated_at: at,
  });
  const job: JobEnvelope = { version: JOB_ENVELOPE_VERSION, type: 'webhook_delivery', tenant_id: TENANT, request: {} };
  const input = (attempt = 1): TaskInput<DeliveryJobRequest> => ({
    job,
    input: { endpoint_id: endpoint.id, event_id: event.id, attempt },
    attempt: 1,
    messageId: 'm',
  });
  return { endpoint, event, input, read: () => deliveries.get(endpoint.id, event.id) };
}

afterEach(async () => {
  // Endpoints count against the tenant's bound: clear them.
  for (const endpoint of await endpoints.list(TENANT)) await endpoints.remove(TENANT, endpoint.id);
  receiver.heal();
});

describe('a delivery attempt', () => {
  it('POSTs the event signed, records a 2xx as delivered, and queues nothing more', async () => {
    const { endpoint, event, input, read } = await pending(`${receiver.url}/ok`);
    const outcome = await runDeliveryAttempt(deps(), input());
    expect(outcome.outcome).toBe('delivered');
    const [sent] = receiver.received.filter((item) => item.path === '/ok');
    expect(JSON.parse(sent!.rawBody)).toEqual({ id: event.id, type: 'command.completed', created_at: event.created_at, data: event.data });
    expect(verifyWebhookSignature(endpoint.secret, String(sent!.headers['switchboard-signature']), sent!.rawBody)).toBe(true);
    expect(await read()).toMatchObject({
      status: 'delivered',
      attempt_count: 1,
      attempts: [{ number: 1, trigger: 'automatic', status_code: 200 }],
    });
    expect(requeued).toEqual([]);
  });

  it('signs with both secrets while a rotated one is in its grace period, and with the new one only after', async () => {
    const previous = newSigningSecret();
    const inGrace = await pending(`${receiver.url}/grace`, {
      previous_secret: previous,
      previous_secret_expires_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    await runDeliveryAttempt(deps(), inGrace.input());
    const header = String(receiver.received.filter((item) => item.path === '/grace').at(-1)!.headers['switchboard-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const body = receiver.received.filter((item) => item.path === '/grace').at(-1)!.rawBody;
    expect(verifyWebhookSignature(inGrace.endpoint.secret, header, body)).toBe(true);
    expect(verifyWebhookSignature(previous, header, body)).toBe(true);

    const expired = await pending(`${receiver.url}/expired`, {
      previous_secret: previous,
      previous_secret_expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    await runDeliveryAttempt(deps(), expired.input());
    const late = receiver.received.filter((item) => item.path === '/expired').at(-1)!;
    expect(String(late.headers['switchboard-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(previous, String(late.headers['switchboard-signature']), late.rawBody)).toBe(false);
  });

  it('counts a timeout as a failed attempt, and queues the next one after its delay', async () => {
    receiver.answerAlways('/slow', { slowMs: 3_000 });
    const { input, read } = await pending(`${receiver.url}/slow`);
    const started = Date.now();
    const outcome = await runDeliveryAttempt(deps({ timeoutMs: 300 }), input());
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(outcome).toMatchObject({ outcome: 'pending', extra: { retryInSeconds: 30 } });
    const delivery = await read();
    expect(delivery).toMatchObject({
      status: 'pending',
      attempt_count: 1,
      attempts: [{ number: 1, error: expect.stringMatching(/^no answer within/) }],
    });
    expect(delivery?.attempts[0]).not.toHaveProperty('status_code');
    expect(Date.parse(delivery!.next_attempt_at!) - Date.now()).toBeGreaterThan(25_000);
    expect(requeued).toEqual([
      {
        queue: 'webhooks',
        delaySeconds: 30,
        body: expect.objectContaining({
          request: { endpoint_id: input().input.endpoint_id, event_id: input().input.event_id, attempt: 2 },
        }),
      },
    ]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and the other address is never asked', async () => {
    receiver.answerAlways('/moved', { status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    const { input, read } = await pending(`${receiver.url}/moved`);
    await runDeliveryAttempt(deps(), input());
    expect(await read()).toMatchObject({ status: 'pending', attempts: [{ status_code: 302 }] });
    expect(receiver.received.filter((item) => item.path === '/elsewhere')).toEqual([]);
  });

  it('keeps only a short excerpt of what the endpoint answered', async () => {
    receiver.answerAlways('/chatty', { status: 500, body: `${'e'.repeat(10_000)}\u0000` });
    const { input, read } = await pending(`${receiver.url}/chatty`);
    await runDeliveryAttempt(deps(), input());
    const excerpt = (await read())!.attempts[0]!.response_excerpt!;
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARACTERS + 1);
    expect(excerpt.endsWith('…')).toBe(true);
  });

  it('checks the address again before sending: a name that now resolves to a private address is never sent to', async () => {
    const rebound: HostLookup = async () => [{ address: '10.0.0.5', family: 4 }];
    const { input, read } = await pending('https://hooks.example.test/in');
    await runDeliveryAttempt(deps({ urlPolicy: { allowLoopback: false, lookup: rebound } }), input());
    expect(await read()).toMatchObject({
      status: 'pending',
      attempts: [{ error: 'not sent: hooks.example.test is not a public internet address.' }],
    });
  });

  it('refuses loopback where it is not allowed (AWS), even for an endpoint stored before', async () => {
    const { input, read } = await pending(`${receiver.url}/aws`);
    await runDeliveryAttempt(deps({ urlPolicy: { allowLoopback: false } }), input());
    expect((await read())!.attempts[0]!.error).toMatch(/^not sent: The URL must start with https:\/\//);
    expect(receiver.received.filter((item) => item.path === '/aws')).toEqual([]);
  });

  it('fails the delivery after the attempt that follows the last delay', async () => {
    receiver.answerAlways('/down', { status: 503 });
    const { input, read } = await pending(`${receiver.url}/down`);
    const fast = deps({ retryDelaysSeconds: [0] });
    expect((await runDeliveryAttempt(fast, input(1))).outcome).toBe('pending');
    expect((await runDeliveryAttempt(fast, input(2))).outcome).toBe('failed');
    expect(await read()).toMatchObject({ status: 'failed', attempt_count: 2 });
    expect((await read())?.next_attempt_at).toBeUndefined();
    expect(requeued).toHaveLength(1);
  });
});

describe('a delivery job', () => {
  it('that is early (waits longer than SQS allows) goes back on the queue for at most 15 minutes, sending nothing', async () => {
    const { input, read } = await pending(`${receiver.url}/later`, {}, 6 * 3600_000);
    expect((await runDeliveryAttempt(deps(), input())).outcome).toBe('waiting');
    expect(requeued).toEqual([{ queue: 'webhooks', delaySeconds: 900, body: expect.objectContaining({ request: input().input }) }]);
    expect(await read()).toMatchObject({ attempt_count: 0, attempts: [] });
    expect(receiver.received.filter((item) => item.path === '/later')).toEqual([]);
  });

  it('for an attempt already made, or of a delivery no longer pending, or of a deleted endpoint, is dropped', async () => {
    const { endpoint, input } = await pending(`${receiver.url}/once`);
    await runDeliveryAttempt(deps(), input(1));
    expect((await runDeliveryAttempt(deps(), input(1))).outcome).toBe('duplicate');
    expect((await runDeliveryAttempt(deps(), input(5))).outcome).toBe('duplicate');
    expect(receiver.received.filter((item) => item.path === '/once')).toHaveLength(1);

    const gone = await pending(`${receiver.url}/gone`);
    await endpoints.remove(TENANT, gone.endpoint.id);
    expect((await runDeliveryAttempt(deps(), gone.input())).outcome).toBe('endpoint_deleted');
    expect(receiver.received.filter((item) => item.path === '/gone')).toEqual([]);
    // Another tenant's job naming this delivery finds nothing.
    const foreign = input(2);
    expect((await runDeliveryAttempt(deps(), { ...foreign, job: { ...foreign.job, tenant_id: 'other' } })).outcome).toBe('missing');
    expect(endpoint.id).toMatch(/^we_/);
  });

  it('while another attempt holds the delivery comes back when the hold ends, and never sends twice', async () => {
    const { endpoint, event, input } = await pending(`${receiver.url}/held`);
    expect(await deliveries.claim(endpoint.id, event.id, 0, Date.now(), Date.now() + 5_000)).toBeDefined();
    expect((await runDeliveryAttempt(deps(), input())).outcome).toBe('busy');
    expect(requeued).toHaveLength(1);
    expect(requeued[0]!.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(receiver.received.filter((item) => item.path === '/held')).toEqual([]);
  });
});
