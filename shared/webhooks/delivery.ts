import type { Logger } from '@aws-lambda-powertools/logger';
import { EVENT_DELIVERY_QUEUE } from '../catalogue/event-publishing';
import type { JobQueue } from '../commands/queue';
import type { TaskDefinition, TaskInput, TaskOutcome } from '../commands/task-worker';
import type { Clock } from '../platform/clock';
import type { ResolvedAddress } from '../platform/http/public-address';
import { noMetrics, type OperationMetrics } from '../platform/metrics';
import type { EventPublisher } from '../commands/events';
import type { DeliveryAttempt, DeliveryStore, StoredDelivery } from './delivery-store';
import { DELIVERY_JOB_TYPE, deliveryJob, deliveryJobRequestSchema, type DeliveryJobRequest } from './delivery-job';
import { signingSecretsOf, type EndpointStore, type WebhookEndpoint } from './endpoint-store';
import { parseEndpointUrl, resolveEndpointAddress } from './endpoint-url';
import { EndpointUrlError, type EndpointUrlPolicy } from './endpoint-url-policy';
import type { EventStore, StoredEvent } from './event-store';
import type { PostOutcome, PostSender } from './http-post';
import { hopDelaySeconds, nextRetryDelaySeconds } from './retry-schedule';
import { signedHeaders } from './signature';

/** How long an endpoint has to answer: connect, TLS, status and the first bytes of its body. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** A due time this close counts as now (a hop's whole seconds round up; clocks differ a little). */
const DUE_TOLERANCE_MS = 1_000;

/** What a delivery attempt works with. */
export interface DeliveryDependencies {
  endpoints: Pick<EndpointStore, 'get'>;
  events: Pick<EventStore, 'get'>;
  deliveries: DeliveryStore;
  queue: Pick<JobQueue, 'sendAgain'>;
  clock: Clock;
  /** Sends the request (pinnedPost in production). */
  post: PostSender;
  /** WEBHOOK_ALLOW_LOOPBACK, and the lookup (tests inject one). */
  urlPolicy: EndpointUrlPolicy;
  /** WEBHOOK_RETRY_DELAYS. */
  retryDelaysSeconds: readonly number[];
  /** How long one attempt holds its delivery; longer than the request timeout. */
  leaseMs: number;
  /** @default DELIVERY_TIMEOUT_MS */
  timeoutMs?: number;
  metrics?: OperationMetrics;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Tracks each endpoint's failures and disables one failing too long (WEBHOOK_DISABLE_AFTER). @default no tracking */
  health?: EndpointHealth;
}

/** What tracking an endpoint's health works with. */
export interface EndpointHealth {
  endpoints: Pick<EndpointStore, 'noteFailure' | 'noteSuccess' | 'disableFailing'>;
  /** WEBHOOK_DISABLE_AFTER, in ms. */
  disableAfterMs: number;
  /** Publishes the `webhook_endpoint.disabled` notice (to the tenant's other enabled endpoints). */
  publisher: Pick<EventPublisher, 'publish'>;
}

/** The event that tells a tenant's other endpoints that one was disabled. */
export const ENDPOINT_DISABLED_EVENT = 'webhook_endpoint.disabled';

/** The `webhook_delivery` worker's task. */
export function deliveryTask(deps: DeliveryDependencies): TaskDefinition<DeliveryJobRequest> {
  return {
    type: DELIVERY_JOB_TYPE,
    parse: (request) => deliveryJobRequestSchema().parse(request),
    run: (input) => runDeliveryAttempt(deps, input),
  };
}

/**
 * Use case: one attempt of one delivery. The job names the attempt it is
 * for; a job for an attempt already made, a delivery no longer pending, or
 * an endpoint deleted is dropped. A job early for its attempt (SQS delays
 * a message 15 minutes at most) is queued again for the rest of the wait.
 * Otherwise the attempt is claimed (a lease, so two jobs never both send
 * it), the endpoint's address is resolved and checked again, the signed
 * event is POSTed, and the outcome recorded: 2xx `delivered`; anything else
 * (another status, a redirect, a timeout, a refused address) waits its turn
 * in WEBHOOK_RETRY_DELAYS, and the delivery is `failed` after the last.
 * The next attempt's job is queued only once the outcome is recorded, so
 * it finds its predecessor written down whenever it runs (a zero wait may
 * run it at once). A run that stops in between (a fault, a crash) leaves its
 * own job to come back (queued again, or redelivered by SQS): finding its
 * attempt recorded and the delivery still pending, it queues the next one.
 * A duplicate job's first run does not, so duplicates do not multiply.
 */
export async function runDeliveryAttempt(
  deps: DeliveryDependencies,
  { job, input, attempt: run }: TaskInput<DeliveryJobRequest>,
): Promise<TaskOutcome> {
  const now = deps.clock.now();
  const ids = { endpointId: input.endpoint_id, eventId: input.event_id, attempt: input.attempt };
  const delivery = await deps.deliveries.get(input.endpoint_id, input.event_id);
  if (!delivery || delivery.tenant_id !== job.tenant_id) return { outcome: 'missing', extra: ids };
  if (delivery.status !== 'pending' || input.attempt !== delivery.attempt_count + 1) {
    const leftUnqueued =
      run > 1 && delivery.status === 'pending' && input.attempt === delivery.attempt_count && (delivery.lease_until ?? 0) <= now;
    if (!leftUnqueued) return { outcome: 'duplicate', extra: { ...ids, status: delivery.status } };
    // This job's attempt is recorded but its earlier run may have stopped before queuing the next: queue it (a second copy is dropped).
    const dueIn = Date.parse(delivery.next_attempt_at ?? new Date(now).toISOString()) - now;
    await queueAttempt(deps, job.tenant_id, { ...input, attempt: input.attempt + 1 }, dueIn);
    return { outcome: 'next_queued', extra: { ...ids, dueInSeconds: hopDelaySeconds(dueIn) } };
  }

  const dueIn = Date.parse(delivery.next_attempt_at ?? new Date(now).toISOString()) - now;
  const heldFor = (delivery.lease_until ?? 0) - now;
  if (dueIn > DUE_TOLERANCE_MS || heldFor > 0) {
    // Not yet due (a wait longer than SQS's 15 minutes goes in hops), or held by an attempt in flight: come back then.
    const waitMs = Math.max(dueIn, heldFor + DUE_TOLERANCE_MS);
    await queueAttempt(deps, job.tenant_id, input, waitMs);
    return { outcome: heldFor > 0 ? 'busy' : 'waiting', extra: { ...ids, dueInSeconds: Math.ceil(waitMs / 1000) } };
  }

  const endpoint = await deps.endpoints.get(delivery.tenant_id, delivery.endpoint_id);
  if (!endpoint) return { outcome: 'endpoint_deleted', extra: ids };
  const skipped = skipReasonOf(endpoint, delivery);
  const event = skipped ? undefined : await deps.events.get(delivery.event_key);

  const leaseUntil = now + deps.leaseMs;
  const claimed = await deps.deliveries.claim(delivery.endpoint_id, delivery.event_id, delivery.attempt_count, now, leaseUntil);
  if (!claimed) return { outcome: 'busy', extra: ids };

  const started = deps.clock.now();
  const outcome = skipped
    ? { error: skipped, durationMs: 0 }
    : event
      ? await sendEvent(deps, endpoint.url, signingSecretsOf(endpoint, started), event, input.attempt)
      : gone();
  const record: DeliveryAttempt = {
    number: input.attempt,
    at: new Date(started).toISOString(),
    trigger: claimed.redelivery_requested_at ? 'redelivery' : 'automatic',
    duration_ms: outcome.durationMs,
    ...(outcome.statusCode === undefined ? {} : { status_code: outcome.statusCode }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(outcome.excerpt === undefined ? {} : { response_excerpt: outcome.excerpt }),
  };
  const delivered = outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode <= 299;
  const metrics = deps.metrics ?? noMetrics;
  const ended = deps.clock.now();
  const waitSeconds = delivered || !event ? undefined : nextRetryDelaySeconds(deps.retryDelaysSeconds, input.attempt - claimed.round_start);
  const recorded = await deps.deliveries.recordAttempt(
    delivery.endpoint_id,
    delivery.event_id,
    { expectedCount: claimed.attempt_count, leaseUntil },
    [...claimed.attempts, record],
    delivered
      ? { status: 'delivered' }
      : waitSeconds === undefined
        ? { status: 'failed' }
        : { status: 'pending', nextAttemptAt: ended + waitSeconds * 1000 },
    ended,
    event ? commandIdOf(event) : undefined,
  );
  if (!recorded) {
    // The lease ran out before the attempt was written down (a very slow store): the next holder repeats it.
    deps.logger?.warn('Webhook attempt not recorded: its lease had run out', ids);
    return { outcome: 'unrecorded', extra: ids };
  }
  if (skipped) return { outcome: 'skipped', extra: { ...ids, reason: skipped } };
  metrics.count(delivered ? 'WebhookDelivered' : 'WebhookAttemptFailed', delivery.event_type);
  if (!delivered && waitSeconds === undefined) metrics.count('WebhookDeliveryFailed', delivery.event_type);
  // Counted first: should this send fail, the job's later run queues the attempt, and nothing counts this one again.
  if (waitSeconds !== undefined) await queueAttempt(deps, job.tenant_id, { ...input, attempt: input.attempt + 1 }, waitSeconds * 1000);
  // After the next attempt is queued: should this fail, the job's later run finds the attempt recorded and drops itself.
  if (event) await trackHealth(deps, endpoint, delivered, started);
  const status = delivered ? 'delivered' : waitSeconds === undefined ? 'failed' : 'pending';
  return {
    outcome: status,
    extra: {
      ...ids,
      eventType: delivery.event_type,
      ...(outcome.statusCode === undefined ? {} : { statusCode: outcome.statusCode }),
      ...(outcome.error === undefined ? {} : { reason: outcome.error }),
      ...(waitSeconds === undefined ? {} : { retryInSeconds: waitSeconds }),
    },
  };
}

/**
 * Why an attempt is not sent, if it is not: its endpoint is disabled, or was re-enabled after the delivery began (re-enabling resumes
 * with new events; a redelivery asked for since is sent). Such a delivery ends `failed`, with the reason as its last attempt's error.
 */
function skipReasonOf(endpoint: WebhookEndpoint, delivery: StoredDelivery): string | undefined {
  if (endpoint.disabled) return 'not sent: the endpoint is disabled';
  const resumed = endpoint.enabled_at;
  if (resumed === undefined || delivery.created_at >= resumed) return undefined;
  if (delivery.redelivery_requested_at !== undefined && delivery.redelivery_requested_at >= resumed) return undefined;
  return 'not sent: the endpoint was disabled when this event was to be delivered; redeliver it to send it';
}

/**
 * After a sent attempt: a success clears the endpoint's failures; a failure notes the first since the last success, and when that was
 * WEBHOOK_DISABLE_AFTER ago or more, disables the endpoint (one caller wins) and tells the tenant's other enabled endpoints.
 */
async function trackHealth(deps: DeliveryDependencies, endpoint: WebhookEndpoint, delivered: boolean, at: number): Promise<void> {
  const health = deps.health;
  if (!health) return;
  if (delivered) {
    if (endpoint.failing_since !== undefined) await health.endpoints.noteSuccess(endpoint.tenant_id, endpoint.id);
    return;
  }
  if (endpoint.failing_since === undefined) {
    await health.endpoints.noteFailure(endpoint.tenant_id, endpoint.id, at);
    return;
  }
  if (at - Date.parse(endpoint.failing_since) < health.disableAfterMs) return;
  const disabled = await health.endpoints.disableFailing(endpoint.tenant_id, endpoint.id, endpoint.failing_since, deps.clock.now());
  if (!disabled) return;
  deps.logger?.warn('Webhook endpoint disabled: its deliveries kept failing', {
    endpointId: endpoint.id,
    failingSince: endpoint.failing_since,
  });
  await health.publisher.publish({
    tenantId: disabled.tenant_id,
    type: ENDPOINT_DISABLED_EVENT,
    idempotencyKey: `${ENDPOINT_DISABLED_EVENT}:${disabled.id}:${disabled.disabled_at ?? ''}`,
    data: {
      webhook_endpoint: {
        id: disabled.id,
        url: disabled.url,
        description: disabled.description ?? null,
        disabled_reason: 'failing',
        disabled_at: disabled.disabled_at ?? null,
        failing_since: endpoint.failing_since,
      },
    },
  });
}

/** Queues the job of an attempt to run `waitMs` from now (a longer wait than SQS allows goes in hops: see the early-job check). */
async function queueAttempt(deps: DeliveryDependencies, tenantId: string, request: DeliveryJobRequest, waitMs: number): Promise<void> {
  await deps.queue.sendAgain(EVENT_DELIVERY_QUEUE, JSON.stringify(deliveryJob(tenantId, request)), hopDelaySeconds(waitMs), 1);
}

/** What sending one signed event needs. */
export type SendDependencies = Pick<DeliveryDependencies, 'clock' | 'post' | 'urlPolicy' | 'timeoutMs'>;

/**
 * One signed POST of `event` to `endpointUrl`, after its address is resolved and checked again (never sent to a refused address);
 * `number` is the attempt it is (`Switchboard-Delivery-Attempt`). Never throws for the endpoint's sake: its outcome says what happened.
 */
export async function sendEvent(
  deps: SendDependencies,
  endpointUrl: string,
  secrets: string[],
  event: Pick<StoredEvent, 'id' | 'type' | 'created_at' | 'data'>,
  number: number,
): Promise<PostOutcome> {
  const started = deps.clock.now();
  let url: URL;
  let address: ResolvedAddress;
  try {
    url = parseEndpointUrl(endpointUrl, deps.urlPolicy);
    address = await resolveEndpointAddress(url, deps.urlPolicy);
  } catch (error) {
    if (!(error instanceof EndpointUrlError)) throw error;
    return { error: `not sent: ${error.message}`, durationMs: deps.clock.now() - started };
  }
  const body = eventBody(event);
  const timestamp = Math.floor(deps.clock.now() / 1000);
  return deps.post({
    url,
    address,
    body,
    timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Switchboard-Webhooks/1.0',
      ...signedHeaders(secrets, event.id, timestamp, body),
      'switchboard-event-id': event.id,
      'switchboard-event-type': event.type,
      'switchboard-delivery-attempt': String(number),
    },
  });
}

/** The command an event is about (`data.command.command_id`, else `data.command_id`), whose usage its deliveries count on. */
function commandIdOf(event: Pick<StoredEvent, 'data'>): string | undefined {
  const command = event.data.command as { command_id?: unknown } | undefined;
  const id = command?.command_id ?? event.data.command_id;
  return typeof id === 'string' ? id : undefined;
}

/** The payload every delivery of an event sends: `{id, type, created_at, data}`. */
export function eventBody(event: Pick<StoredEvent, 'id' | 'type' | 'created_at' | 'data'>): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });
}

/** The event is no longer kept (past its retention): nothing can be sent, and no retry would change that. */
function gone(): PostOutcome {
  return { error: 'not sent: the event is no longer kept', durationMs: 0 };
}
