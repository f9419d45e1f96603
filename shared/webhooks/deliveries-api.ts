import type { Principal } from '../access/api-keys';
import { EVENT_DELIVERY_QUEUE } from '../catalogue/event-publishing';
import type { JobQueue } from '../commands/queue';
import type { Clock } from '../platform/clock';
import { AppError } from '../platform/errors';
import { readPageLimit } from '../platform/http/page-limit';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { shownId } from '../platform/shown';
import type { DeliveryStore } from './delivery-store';
import { deliveryJob } from './delivery-job';
import type { EndpointStore } from './endpoint-store';
import { endpointFor, WEBHOOK_VALIDATION_CODE } from './endpoints-api';
import { EVENT_ID_PATTERN } from './ids';
import { deliveryView } from './presenter';

/** Deliveries listed when the caller names no `limit`, and the most it may name. */
export const DEFAULT_DELIVERIES_LISTED = 20;
export const MAX_DELIVERIES_LISTED = 100;

/** What the delivery routes work with. */
export interface DeliveriesApiDependencies {
  endpoints: Pick<EndpointStore, 'get'>;
  deliveries: DeliveryStore;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
}

/**
 * Use case: `GET /api/webhooks/{id}/deliveries[?limit=N]`: the endpoint's
 * latest deliveries, newest first (default 20, at most 100), each with its
 * status, attempts, last response status, next attempt and attempt log.
 */
export async function listDeliveries(
  deps: Pick<DeliveriesApiDependencies, 'endpoints' | 'deliveries'>,
  principal: Principal,
  id: string | undefined,
  query: Readonly<Record<string, string | undefined>> = {},
): Promise<HttpResult> {
  const limit = readPageLimit(query.limit, { defaultSize: DEFAULT_DELIVERIES_LISTED, max: MAX_DELIVERIES_LISTED }, WEBHOOK_VALIDATION_CODE);
  const endpoint = await endpointFor(deps.endpoints, principal, id);
  const deliveries = await deps.deliveries.list(endpoint.id, limit);
  return jsonResponse(200, { success: true, data: { endpoint_id: endpoint.id, deliveries: deliveries.map(deliveryView) } });
}

/**
 * Use case: `POST /api/webhooks/{id}/deliveries/{event_id}/redeliver`. The
 * delivery becomes `pending`, due now, with a fresh retry schedule; its
 * next attempt carries the same event (same id, same body), signed anew.
 * Any delivery may be redelivered, a delivered one too, except while an
 * attempt of it is in flight (409 INVALID_TRANSITION, a few seconds at
 * most). Answers 202 with the delivery.
 */
export async function redeliver(
  deps: DeliveriesApiDependencies,
  principal: Principal,
  id: string | undefined,
  eventId: string | undefined,
): Promise<HttpResult> {
  const endpoint = await endpointFor(deps.endpoints, principal, id);
  const notFound = () =>
    new AppError('NOT_FOUND', `No delivery of event ${shownId(eventId ?? '')} to webhook endpoint ${endpoint.id} was found.`);
  if (!eventId || !EVENT_ID_PATTERN.test(eventId)) throw notFound();
  // Two tries: an attempt recorded between our read and our write moves the count.
  for (let pass = 0; pass < 2; pass++) {
    const delivery = await deps.deliveries.get(endpoint.id, eventId);
    if (!delivery || delivery.tenant_id !== principal.tenantId) throw notFound();
    const now = deps.clock.now();
    if (delivery.lease_until !== undefined && delivery.lease_until > now) {
      throw new AppError('INVALID_TRANSITION', 'An attempt of this delivery is in progress; redeliver it once that attempt has ended.');
    }
    const requested = await deps.deliveries.requestRedelivery(endpoint.id, eventId, delivery.attempt_count, now);
    if (!requested) continue;
    await deps.queue.send(
      EVENT_DELIVERY_QUEUE,
      deliveryJob(principal.tenantId, { endpoint_id: endpoint.id, event_id: eventId, attempt: requested.attempt_count + 1 }),
    );
    return jsonResponse(202, { success: true, data: deliveryView(requested) });
  }
  throw new AppError('INVALID_TRANSITION', 'The delivery changed while it was being redelivered; try again.');
}
