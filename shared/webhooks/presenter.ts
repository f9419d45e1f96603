import type * as z from 'zod';
import type { StoredDelivery } from './delivery-store';
import type { WebhookEndpoint } from './endpoint-store';
import type { webhookDeliverySchema, webhookEndpointSchema, webhookEndpointWithSecretSchema } from './openapi';

/**
 * An endpoint as the reference documents it: without its secret, or
 * (registration, rotation) with it. `events` is shown as stored: the store
 * reads strings, so a type retired after registration would still show.
 */
type EndpointAnswer = Omit<z.input<typeof webhookEndpointSchema>, 'events'> & { events: string[] } & Partial<
    Pick<z.input<typeof webhookEndpointWithSecretSchema>, 'secret'>
  >;
/** A delivery as the reference documents it. */
type DeliveryAnswer = z.input<typeof webhookDeliverySchema>;

/**
 * An endpoint as the API shows it: never its secrets, save the one answer
 * that creates a secret (registration, rotation), which adds `secret`.
 */
export function endpointView(endpoint: WebhookEndpoint, now: number, secret?: string): EndpointAnswer {
  const previous = endpoint.previous_secret_expires_at;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    ...(endpoint.description === undefined ? {} : { description: endpoint.description }),
    status: endpoint.disabled ? 'disabled' : 'enabled',
    disabled: endpoint.disabled === true,
    disabled_reason: endpoint.disabled ? (endpoint.disabled_reason ?? 'requested') : null,
    disabled_at: endpoint.disabled ? (endpoint.disabled_at ?? null) : null,
    failing_since: endpoint.failing_since ?? null,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
    previous_secret_expires_at: previous !== undefined && Date.parse(previous) > now ? previous : null,
    ...(secret === undefined ? {} : { secret }),
  };
}

/**
 * A delivery as the API shows it: its state, its attempts' count and last answer, when the next attempt is due, and the attempts
 * themselves.
 */
export function deliveryView(delivery: StoredDelivery): DeliveryAnswer {
  const last = delivery.attempts.at(-1);
  return {
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    endpoint_id: delivery.endpoint_id,
    status: delivery.status,
    attempts: delivery.attempt_count,
    last_attempt_at: last?.at ?? null,
    last_response_status: last?.status_code ?? null,
    last_error: last?.error ?? null,
    next_attempt_at: delivery.status === 'pending' ? (delivery.next_attempt_at ?? null) : null,
    delivered_at: delivery.delivered_at ?? null,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
    attempt_log: delivery.attempts.map((attempt) => ({
      number: attempt.number,
      at: attempt.at,
      trigger: attempt.trigger,
      response_status: attempt.status_code ?? null,
      duration_ms: attempt.duration_ms,
      ...(attempt.error === undefined ? {} : { error: attempt.error }),
      ...(attempt.response_excerpt === undefined ? {} : { response_excerpt: attempt.response_excerpt }),
    })),
  };
}
