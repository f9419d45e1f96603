import { EVENT_DELIVERY_QUEUE } from '../catalogue/event-publishing';
import type { EventPublisher, PublishedEvent } from '../commands/events';
import type { JobQueue } from '../commands/queue';
import type { Clock } from '../platform/clock';
import type { DeliveryStore } from './delivery-store';
import { deliveryJob } from './delivery-job';
import type { EndpointStore } from './endpoint-store';
import { isSubscribed } from './event-types';
import type { EventStore } from './event-store';
import { newEventId } from './ids';

/** What publishing writes through. */
export interface PublisherDependencies {
  endpoints: Pick<EndpointStore, 'list'>;
  events: Pick<EventStore, 'record' | 'markFannedOut'>;
  deliveries: Pick<DeliveryStore, 'create'>;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
}

/**
 * The EventPublisher of the completion webhooks. Publishing an event:
 * 1. reads the tenant's endpoints; with none subscribed to its type, nothing is stored;
 * 2. records the event once per idempotency key (a second publish gets the
 *    first one back, its id included);
 * 3. unless that event was already fanned out, creates a delivery per
 *    subscribed endpoint and queues its `webhook_delivery` job, then marks
 *    the event fanned out.
 * A failure throws (the caller's job is retried). A publish that died half
 * way is finished by the next one with the same key: existing deliveries are
 * kept and their first job queued again, which the worker runs only once.
 */
export function webhookEventPublisher(deps: PublisherDependencies): EventPublisher {
  return {
    async publish(event: PublishedEvent): Promise<void> {
      const subscribed = (await deps.endpoints.list(event.tenantId)).filter((endpoint) => isSubscribed(endpoint.events, event.type));
      if (subscribed.length === 0) return;
      const now = deps.clock.now();
      const stored = await deps.events.record(event, newEventId(), now);
      if (stored.fanned_out_at) return;
      const at = new Date(now).toISOString();
      for (const endpoint of subscribed) {
        await deps.deliveries.create({
          endpoint_id: endpoint.id,
          event_id: stored.id,
          tenant_id: event.tenantId,
          event_type: stored.type,
          event_key: stored.key,
          status: 'pending',
          attempt_count: 0,
          round_start: 0,
          attempts: [],
          next_attempt_at: at,
          created_at: at,
          updated_at: at,
        });
        await deps.queue.send(EVENT_DELIVERY_QUEUE, deliveryJob(event.tenantId, { endpoint_id: endpoint.id, event_id: stored.id, attempt: 1 }));
      }
      await deps.events.markFannedOut(stored.key, now);
    },
  };
}
