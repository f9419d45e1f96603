import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { JOB_ENVELOPE_VERSION } from '../../../shared/commands/job';
import { runDeliveryAttempt } from '../../../shared/webhooks/delivery';
import { dynamoDeliveryStore } from '../../../shared/webhooks/delivery-store';
import { dynamoEndpointStore, type WebhookEndpoint } from '../../../shared/webhooks/endpoint-store';
import { dynamoEventStore } from '../../../shared/webhooks/event-store';
import { pinnedPost } from '../../../shared/webhooks/http-post';
import { newEndpointId, newEventId, newSigningSecret, SECRET_PATTERN } from '../../../shared/webhooks/ids';
import { verifyWebhookSignature } from '../../../shared/webhooks/signature';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';
import Stripe from 'stripe';

/**
 * A real delivery (the worker's attempt, the real HTTP client, a loopback
 * receiver) verified as receivers verify it: with the `standardwebhooks`
 * library, with `svix`'s `Webhook.verify`, and with Stripe's scheme (the
 * `stripe` library's `webhooks.constructEvent`, and this service's own verifier). A tampered
 * body, id or timestamp is refused by each.
 */
const TENANT = 'verifiers';

let services: EmbeddedServices;
let receiver: WebhookReceiver;

beforeAll(async () => {
  services = await startEmbeddedServices();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await services.stop();
});

/** Delivers one event to an endpoint with these secrets and answers what the receiver got. */
async function deliver(path: string, endpointFields: Partial<WebhookEndpoint> = {}): Promise<ReceivedWebhook> {
  const endpoints = dynamoEndpointStore(services.db, services.aws.tableName);
  const events = dynamoEventStore(services.db, services.aws.tableName);
  const deliveries = dynamoDeliveryStore(services.db, services.aws.tableName);
  const at = new Date().toISOString();
  const endpoint: WebhookEndpoint = {
    id: newEndpointId(),
    tenant_id: TENANT,
    url: `${receiver.url}${path}`,
    events: ['*'],
    secret: newSigningSecret(),
    created_at: at,
    updated_at: at,
    ...endpointFields,
  };
  expect(await endpoints.create(endpoint)).toBe(true);
  const event = await events.record(
    { tenantId: TENANT, type: 'command.completed', data: { command: { command_id: 'c1', note: 'héllo ✓' } }, idempotencyKey: newEventId() },
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
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  });
  const outcome = await runDeliveryAttempt(
    {
      endpoints,
      events,
      deliveries,
      queue: { sendAgain: async () => undefined },
      clock: { now: () => Date.now() },
      post: pinnedPost,
      urlPolicy: { allowLoopback: true },
      retryDelaysSeconds: [30],
      leaseMs: 30_000,
    },
    {
      job: { version: JOB_ENVELOPE_VERSION, type: 'webhook_delivery', tenant_id: TENANT, request: {} },
      input: { endpoint_id: endpoint.id, event_id: event.id, attempt: 1 },
      attempt: 1,
      messageId: 'm',
    },
  );
  expect(outcome.outcome).toBe('delivered');
  const sent = receiver.received.filter((item) => item.path === path);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.headers['webhook-id']).toBe(event.id);
  return sent[0]!;
}

/** The request's headers as a receiver's framework hands them over. */
const headersOf = (sent: ReceivedWebhook) => Object.fromEntries(Object.entries(sent.headers).map(([name, value]) => [name, String(value)]));

/** Stripe's own verifier (`stripe.webhooks.constructEvent`), given the `Switchboard-Signature` value as Stripe's header. */
const stripe = new Stripe('sk_test_not_used_for_calls');
function stripeVerifies(secret: string, header: string, payload: string): boolean {
  try {
    stripe.webhooks.constructEvent(payload, header, secret);
    return true;
  } catch {
    return false;
  }
}

describe('a delivery verified by the libraries receivers use', () => {
  it('is accepted by standardwebhooks, svix and Stripe’s scheme with the secret the tenant was shown', async () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(SECRET_PATTERN);
    const sent = await deliver('/verify', { secret });
    const headers = headersOf(sent);
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    expect(new StandardWebhook(secret).verify(sent.rawBody, headers)).toEqual(JSON.parse(sent.rawBody));
    expect(new SvixWebhook(secret).verify(sent.rawBody, headers)).toEqual(JSON.parse(sent.rawBody));
    expect(stripeVerifies(secret, headers['switchboard-signature']!, sent.rawBody)).toBe(true);
    expect(verifyWebhookSignature(secret, headers['switchboard-signature'], sent.rawBody)).toBe(true);
  });

  it('is refused by each of them when the body, the id or the timestamp was changed, or with another secret', async () => {
    const secret = newSigningSecret();
    const sent = await deliver('/tampered', { secret });
    const headers = headersOf(sent);
    const body = sent.rawBody.replace('héllo', 'hello');
    expect(body).not.toBe(sent.rawBody);
    for (const Verifier of [StandardWebhook, SvixWebhook]) {
      expect(() => new Verifier(secret).verify(body, headers)).toThrow();
      expect(() => new Verifier(secret).verify(sent.rawBody, { ...headers, 'webhook-id': newEventId() })).toThrow();
      const earlier = String(Number(headers['webhook-timestamp']) - 1);
      expect(() => new Verifier(secret).verify(sent.rawBody, { ...headers, 'webhook-timestamp': earlier })).toThrow();
      expect(() => new Verifier(newSigningSecret()).verify(sent.rawBody, headers)).toThrow();
    }
    expect(stripeVerifies(secret, headers['switchboard-signature']!, body)).toBe(false);
    expect(verifyWebhookSignature(secret, headers['switchboard-signature'], body)).toBe(false);
    expect(stripeVerifies(newSigningSecret(), headers['switchboard-signature']!, sent.rawBody)).toBe(false);
  });

  it('carries one signature per valid secret during a rotation, each verifying with its own secret', async () => {
    const secret = newSigningSecret();
    const previous = newSigningSecret();
    const sent = await deliver('/rotation', {
      secret,
      previous_secret: previous,
      previous_secret_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const headers = headersOf(sent);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const key of [secret, previous]) {
      expect(() => new StandardWebhook(key).verify(sent.rawBody, headers)).not.toThrow();
      expect(() => new SvixWebhook(key).verify(sent.rawBody, headers)).not.toThrow();
      expect(stripeVerifies(key, headers['switchboard-signature']!, sent.rawBody)).toBe(true);
    }
  });

  it('still verifies for a secret made before (base64url): as is for Stripe’s scheme, in the standard alphabet for the libraries', async () => {
    // A secret of the earlier format, with both characters base64 spells otherwise.
    const old = `whsec_${Buffer.from('fb'.repeat(16) + 'ff'.repeat(16), 'hex').toString('base64url')}`;
    expect(old).toMatch(/[-_]/);
    expect(old).toMatch(SECRET_PATTERN);
    const sent = await deliver('/old-secret', { secret: old });
    const headers = headersOf(sent);
    expect(stripeVerifies(old, headers['switchboard-signature']!, sent.rawBody)).toBe(true);
    const standard = `whsec_${old.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/')}`;
    expect(new StandardWebhook(standard).verify(sent.rawBody, headers)).toEqual(JSON.parse(sent.rawBody));
    expect(new SvixWebhook(standard).verify(sent.rawBody, headers)).toEqual(JSON.parse(sent.rawBody));
  });
});
