import type { JobEnvelope } from '../../../shared/commands/job';
import { JOB_ENVELOPE_VERSION } from '../../../shared/commands/job';
import type { JobQueueId } from '../../../shared/catalogue/job-types';
import { runDeliveryAttempt, type DeliveryDependencies } from '../../../shared/webhooks/delivery';
import { dynamoDeliveryStore, type DeliveryStore } from '../../../shared/webhooks/delivery-store';
import { dynamoEndpointStore, type EndpointStore, type WebhookEndpoint } from '../../../shared/webhooks/endpoint-store';
import { dynamoEventStore, type EventStore } from '../../../shared/webhooks/event-store';
import { pinnedPost } from '../../../shared/webhooks/http-post';
import { newEndpointId, newEventId, newSigningSecret } from '../../../shared/webhooks/ids';
import { webhookEventPublisher } from '../../../shared/webhooks/publisher';
import { verifyWebhookSignature } from '../../../shared/webhooks/signature';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * Endpoints disabled for failing (WEBHOOK_DISABLE_AFTER, an hour here), run
 * as the `webhook_delivery` worker runs each attempt, on the embedded
 * DynamoDB, the real HTTP client and a loopback receiver, with a clock the
 * test moves: none before the window ends, none when a success comes in
 * between, then disabled with a `webhook_endpoint.disabled` notice to the
 * tenant's other enabled endpoints; and, re-enabled, it gets new events only.
 */
const HOUR = 3_600_000;
const MINUTE = 60_000;

let services: EmbeddedServices;
let receiver: WebhookReceiver;
let endpoints: EndpointStore;
let events: EventStore;
let deliveries: DeliveryStore;
let queued: { queue: JobQueueId; job: JobEnvelope }[];
let now: number;
let tenant: string;

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
let tenantCount = 0;
beforeEach(() => {
  queued = [];
  now = Date.now();
  tenant = `auto-disable-${++tenantCount}`;
  receiver.heal();
});

const clock = { now: () => now };
const publisher = () =>
  webhookEventPublisher({ endpoints, events, deliveries, queue: { send: async (queue, job) => void queued.push({ queue, job }) }, clock });

function deps(): DeliveryDependencies {
  return {
    endpoints,
    events,
    deliveries,
    queue: { sendAgain: async () => undefined },
    clock,
    post: pinnedPost,
    urlPolicy: { allowLoopback: true },
    retryDelaysSeconds: Array.from({ length: 20 }, () => 60),
    leaseMs: 30_000,
    health: { endpoints, disableAfterMs: HOUR, publisher: publisher() },
  };
}

async function endpoint(path: string, fields: Partial<WebhookEndpoint> = {}): Promise<WebhookEndpoint> {
  const at = new Date(now).toISOString();
  const stored: WebhookEndpoint = {
    id: newEndpointId(),
    tenant_id: tenant,
    url: `${receiver.url}${path}`,
    events: ['*'],
    secret: newSigningSecret(),
    created_at: at,
    updated_at: at,
    ...fields,
  };
  expect(await endpoints.create(stored)).toBe(true);
  return stored;
}

/** Publishes a `command.completed` event now; answers its id. */
async function publish(): Promise<string> {
  const idempotencyKey = newEventId();
  await publisher().publish({
    tenantId: tenant,
    type: 'command.completed',
    data: { command: { command_id: idempotencyKey } },
    idempotencyKey,
  });
  const job = queued.at(-1)!.job.request as { event_id: string };
  return job.event_id;
}

/** Runs the next attempt of the endpoint's delivery of the event, as its job would; answers the worker's outcome. */
async function attempt(target: WebhookEndpoint, eventId: string): Promise<string> {
  const delivery = await deliveries.get(target.id, eventId);
  expect(delivery).toBeDefined();
  if (delivery!.next_attempt_at && Date.parse(delivery!.next_attempt_at) > now) now = Date.parse(delivery!.next_attempt_at);
  const outcome = await runDeliveryAttempt(deps(), {
    job: { version: JOB_ENVELOPE_VERSION, type: 'webhook_delivery', tenant_id: tenant, request: {} },
    input: { endpoint_id: target.id, event_id: eventId, attempt: delivery!.attempt_count + 1 },
    attempt: 1,
    messageId: 'm',
  });
  return outcome.outcome;
}

const stored = async (target: WebhookEndpoint) => (await endpoints.get(tenant, target.id))!;
const noticesAt = (path: string) =>
  receiver.received.filter((item) => item.path === path && item.body.type === 'webhook_endpoint.disabled');

describe('an endpoint whose deliveries keep failing', () => {
  it('is not disabled before WEBHOOK_DISABLE_AFTER has passed since its first failure', async () => {
    receiver.answerAlways('/early', { status: 503 });
    const failing = await endpoint('/early');
    const eventId = await publish();
    expect(await attempt(failing, eventId)).toBe('pending');
    expect((await stored(failing)).failing_since).toBe(new Date(now).toISOString());
    now += HOUR - 2 * MINUTE;
    expect(await attempt(failing, eventId)).toBe('pending');
    expect(await stored(failing)).toMatchObject({ failing_since: expect.any(String) });
    expect((await stored(failing)).disabled).toBeUndefined();
  });

  it('is not disabled when a success came in between: the window starts again at the next failure', async () => {
    receiver.answerAlways('/flaky', { status: 500 });
    const flaky = await endpoint('/flaky');
    const first = await publish();
    expect(await attempt(flaky, first)).toBe('pending');
    now += 40 * MINUTE;
    receiver.heal();
    const second = await publish();
    expect(await attempt(flaky, second)).toBe('delivered');
    expect((await stored(flaky)).failing_since).toBeUndefined();
    receiver.answerAlways('/flaky', { status: 500 });
    now += 30 * MINUTE;
    expect(await attempt(flaky, first)).toBe('pending');
    const restarted = (await stored(flaky)).failing_since;
    expect(restarted).toBe(new Date(now).toISOString());
    // More than an hour after the first failure, but not after the one that followed the success.
    now += 40 * MINUTE;
    expect(await attempt(flaky, first)).toBe('pending');
    expect(await stored(flaky)).toMatchObject({ failing_since: restarted });
    expect((await stored(flaky)).disabled).toBeUndefined();
  });

  it('is disabled once the window has passed, and the tenant’s other enabled endpoints hear of it', async () => {
    receiver.answerAlways('/failing', { status: 502 });
    const failing = await endpoint('/failing');
    const watcher = await endpoint('/watcher', { events: ['webhook_endpoint.disabled'] });
    const uninterested = await endpoint('/uninterested', { events: ['command.failed'] });
    const disabledWatcher = await endpoint('/disabled-watcher', {
      disabled: true,
      disabled_reason: 'requested',
      disabled_at: new Date(now).toISOString(),
    });
    const eventId = await publish();
    const failedAt = now;
    expect(await attempt(failing, eventId)).toBe('pending');
    now = failedAt + HOUR;
    expect(await attempt(failing, eventId)).toBe('pending');

    const disabled = await stored(failing);
    expect(disabled).toMatchObject({ disabled: true, disabled_reason: 'failing', disabled_at: new Date(now).toISOString() });
    // The notice's delivery was queued for the watcher only; its attempt reaches it, signed.
    const notices = queued.filter(({ job }) => (job.request as { event_id: string }).event_id !== eventId);
    expect(notices.map(({ job }) => (job.request as { endpoint_id: string }).endpoint_id)).toEqual([watcher.id]);
    const noticeId = (notices[0]!.job.request as { event_id: string }).event_id;
    expect(await attempt(watcher, noticeId)).toBe('delivered');
    const [notice] = noticesAt('/watcher');
    expect(notice!.body.data).toEqual({
      webhook_endpoint: {
        id: failing.id,
        url: failing.url,
        description: null,
        disabled_reason: 'failing',
        disabled_at: disabled.disabled_at,
        failing_since: new Date(failedAt).toISOString(),
      },
    });
    expect(verifyWebhookSignature(watcher.secret, String(notice!.headers['switchboard-signature']), notice!.rawBody, Infinity)).toBe(true);
    for (const other of [uninterested, disabledWatcher]) expect(await deliveries.get(other.id, noticeId)).toBeUndefined();

    // Disabled, it gets no new deliveries, and its pending ones are not sent.
    const before = receiver.received.filter((item) => item.path === '/failing').length;
    expect(await attempt(failing, eventId)).toBe('skipped');
    expect(await deliveries.get(failing.id, eventId)).toMatchObject({
      status: 'failed',
      attempts: expect.arrayContaining([expect.objectContaining({ error: 'not sent: the endpoint is disabled' })]),
    });
    const later = await publish();
    expect(await deliveries.get(failing.id, later)).toBeUndefined();
    expect(receiver.received.filter((item) => item.path === '/failing')).toHaveLength(before);
  });
});

describe('an endpoint enabled again', () => {
  it('gets new events only: the deliveries of its disabled period are dropped unless redelivered', async () => {
    receiver.answerAlways('/resumed', { status: 500 });
    const resumed = await endpoint('/resumed');
    const old = await publish();
    expect(await attempt(resumed, old)).toBe('pending');
    now += HOUR;
    expect(await attempt(resumed, old)).toBe('pending');
    expect((await stored(resumed)).disabled).toBe(true);

    receiver.heal();
    now += HOUR;
    const enabled = await endpoints.update(tenant, resumed.id, { disabled: false }, now);
    expect(enabled).toMatchObject({ enabled_at: new Date(now).toISOString() });
    expect(enabled?.disabled).toBeUndefined();
    expect(enabled?.failing_since).toBeUndefined();

    // The pending retry from before is not sent (no burst of the past); a new event is.
    expect(await attempt(resumed, old)).toBe('skipped');
    const fresh = await publish();
    expect(await attempt(resumed, fresh)).toBe('delivered');
    const sent = receiver.received.filter((item) => item.path === '/resumed');
    expect(sent.filter((item) => item.body.id === old)).toHaveLength(2);
    expect(sent.filter((item) => item.body.id === fresh)).toHaveLength(1);

    // Asked for after the re-enabling, the old one goes.
    const delivery = (await deliveries.get(resumed.id, old))!;
    now += MINUTE;
    expect(await deliveries.requestRedelivery(resumed.id, old, delivery.attempt_count, now)).toBeDefined();
    expect(await attempt(resumed, old)).toBe('delivered');
  });
});
