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
import { WEBHOOK_VALIDATION_CODE } from './endpoints-api';
import { EVENT_RETENTION_MS, type EventStore } from './event-store';
import { EVENT_TYPES, isSubscribed } from './event-types';
import { EVENT_ID_PATTERN } from './ids';

/** Events listed when the caller names no `limit`, and the most it may name. */
export const DEFAULT_EVENTS_LISTED = 20;
export const MAX_EVENTS_LISTED = 100;

/** What the event routes work with. */
export interface EventsApiDependencies {
  events: Pick<EventStore, 'list' | 'find' | 'get'>;
  endpoints: Pick<EndpointStore, 'list'>;
  deliveries: Pick<DeliveryStore, 'create' | 'get' | 'requestRedelivery'>;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
}

function invalid(path: string, message: string): AppError {
  return new AppError(WEBHOOK_VALIDATION_CODE, `${path}: ${message}`, [{ code: 'invalid_value', message, path: [path] }]);
}

/** The cursor a page ends with: the last event's id, opaque to the caller. */
const cursorOf = (eventId: string) => Buffer.from(JSON.stringify({ after: eventId }), 'utf8').toString('base64url');

function afterOf(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const after = parsed && typeof parsed === 'object' && 'after' in parsed ? parsed.after : undefined;
    if (typeof after === 'string' && EVENT_ID_PATTERN.test(after)) return after;
  } catch {
    // Not JSON: refused below like any other malformed cursor.
  }
  throw invalid('cursor', 'must be the next_cursor of an earlier page');
}

const sinceOf = (now: number) => new Date(now - EVENT_RETENTION_MS).toISOString();

/**
 * Use case: `GET /api/events[?type=…&limit=N&cursor=…]`: the tenant's
 * events of the last 30 days (those sent to at least one endpoint), newest
 * first, each with its payload; `next_cursor` reads the next page (null on
 * the last). Served by one Query of the tenant's (or the type's) partition.
 */
export async function listEvents(
  deps: Pick<EventsApiDependencies, 'events' | 'clock'>,
  principal: Principal,
  query: Readonly<Record<string, string | undefined>> = {},
): Promise<HttpResult> {
  const limit = readPageLimit(query.limit, { defaultSize: DEFAULT_EVENTS_LISTED, max: MAX_EVENTS_LISTED }, WEBHOOK_VALIDATION_CODE);
  const after = afterOf(query.cursor);
  const type = query.type === undefined || query.type === '' ? undefined : query.type;
  if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) {
    throw invalid('type', `must be one of ${EVENT_TYPES.join(', ')}`);
  }
  const page = await deps.events.list(principal.tenantId, {
    limit,
    since: sinceOf(deps.clock.now()),
    ...(type === undefined ? {} : { type }),
    ...(after === undefined ? {} : { after }),
  });
  const stored = await Promise.all(page.events.map((listed) => deps.events.get(listed.event_key)));
  const events = page.events.flatMap((listed, index) => {
    const event = stored[index];
    return event ? [{ id: listed.id, type: listed.type, created_at: listed.created_at, data: event.data }] : [];
  });
  return jsonResponse(200, { success: true, data: { events, next_cursor: page.next === undefined ? null : cursorOf(page.next) } });
}

/**
 * Use case: `POST /api/events/{id}/redeliver` sends the tenant's event
 * again to every endpoint enabled now that subscribes to its type: each
 * gets a delivery due now with a fresh retry schedule (the same event id and
 * body, signed anew), whether or not it had one. Answers 202 with the
 * endpoints queued, and those skipped because an attempt was in flight.
 */
export async function redeliverEvent(deps: EventsApiDependencies, principal: Principal, eventId: string | undefined): Promise<HttpResult> {
  const notFound = () => new AppError('NOT_FOUND', `Event ${shownId(eventId ?? '')} was not found.`);
  if (!eventId || !EVENT_ID_PATTERN.test(eventId)) throw notFound();
  const now = deps.clock.now();
  const listed = await deps.events.find(principal.tenantId, eventId, sinceOf(now));
  const event = listed && (await deps.events.get(listed.event_key));
  if (!listed || !event || event.tenant_id !== principal.tenantId) throw notFound();
  const subscribed = (await deps.endpoints.list(principal.tenantId)).filter(
    (endpoint) => !endpoint.disabled && isSubscribed(endpoint.events, event.type),
  );
  const at = new Date(now).toISOString();
  const queued: { endpoint_id: string }[] = [];
  const skipped: { endpoint_id: string; reason: string }[] = [];
  for (const endpoint of subscribed) {
    const created = await deps.deliveries.create({
      endpoint_id: endpoint.id,
      event_id: event.id,
      tenant_id: event.tenant_id,
      event_type: event.type,
      event_key: event.key,
      status: 'pending',
      attempt_count: 0,
      round_start: 0,
      attempts: [],
      next_attempt_at: at,
      redelivery_requested_at: at,
      created_at: at,
      updated_at: at,
    });
    let attempt = 1;
    if (!created) {
      const delivery = await deps.deliveries.get(endpoint.id, event.id);
      const requested = delivery && (await deps.deliveries.requestRedelivery(endpoint.id, event.id, delivery.attempt_count, now));
      if (!requested) {
        skipped.push({ endpoint_id: endpoint.id, reason: 'an attempt of this event to the endpoint is in flight; try again shortly' });
        continue;
      }
      attempt = requested.attempt_count + 1;
    }
    await deps.queue.send(EVENT_DELIVERY_QUEUE, deliveryJob(principal.tenantId, { endpoint_id: endpoint.id, event_id: event.id, attempt }));
    queued.push({ endpoint_id: endpoint.id });
  }
  return jsonResponse(202, { success: true, data: { event_id: event.id, type: event.type, queued, skipped } });
}
