import type { Logger } from '@aws-lambda-powertools/logger';
import { EVENT_DELIVERY_QUEUE } from '../catalogue/event-publishing';
import type { EventDraft, EventPublisher, PublishedEvent, StagedEvents } from '../commands/events';
import type { JobQueue } from '../commands/queue';
import type { Clock } from '../platform/clock';
import type { TransactionItem } from '../platform/dynamodb';
import { describeError } from '../platform/logger';
import type { DeliveryStore } from './delivery-store';
import { deliveryJob } from './delivery-job';
import type { EndpointStore, WebhookEndpoint } from './endpoint-store';
import { isSubscribed } from './event-types';
import type { EventStore } from './event-store';
import { newEventId } from './ids';

/** What publishing writes through. */
export interface PublisherDependencies {
  endpoints: Pick<EndpointStore, 'list'>;
  events: Pick<EventStore, 'record' | 'recordItem' | 'markFannedOut' | 'get' | 'index'>;
  deliveries: Pick<DeliveryStore, 'create'>;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
  /** Where a hand-on that failed after its event was recorded is told (the sweep hands it on later). @default none */
  logger?: Pick<Logger, 'warn'>;
}

/** The completion webhooks' publisher, with the hand-on the outbox sweep uses. */
export interface WebhookEventPublisher extends EventPublisher {
  /**
   * Hands a recorded event on: lists it among its tenant's events, then one
   * delivery per endpoint subscribed to it (given, or listed now), each with
   * its first `webhook_delivery` job, then marks it fanned out. Idempotent: existing deliveries are kept and their
   * first job queued again, which the worker runs only once.
   */
  fanOut(key: string, subscribed?: readonly WebhookEndpoint[]): Promise<void>;
}

/**
 * The EventPublisher of the completion webhooks. An event is stored only
 * when one of the tenant's enabled endpoints subscribes to its type, once per
 * idempotency key (the first record wins, its id included), and listed as
 * pending until every subscribed endpoint has its delivery queued.
 * `stage` gives that record as a transaction item for the caller's own
 * write (the outbox); `publish` writes it alone. Either way a hand-on that
 * died half way is finished by the janitor's sweep of pending events.
 */
export function webhookEventPublisher(deps: PublisherDependencies): WebhookEventPublisher {
  const subscribersOf = async (tenantId: string, type: string) =>
    (await deps.endpoints.list(tenantId)).filter((endpoint) => !endpoint.disabled && isSubscribed(endpoint.events, type));

  const fanOut = async (key: string, given?: readonly WebhookEndpoint[]): Promise<void> => {
    const stored = await deps.events.get(key);
    if (!stored || stored.fanned_out_at) return;
    const subscribed = given ?? (await subscribersOf(stored.tenant_id, stored.type));
    await deps.events.index(stored);
    const now = deps.clock.now();
    const at = new Date(now).toISOString();
    for (const endpoint of subscribed) {
      await deps.deliveries.create({
        endpoint_id: endpoint.id,
        event_id: stored.id,
        tenant_id: stored.tenant_id,
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
      await deps.queue.send(
        EVENT_DELIVERY_QUEUE,
        deliveryJob(stored.tenant_id, { endpoint_id: endpoint.id, event_id: stored.id, attempt: 1 }),
      );
    }
    await deps.events.markFannedOut(stored.key, now);
  };

  return {
    fanOut,

    async stage(drafts: readonly EventDraft[]): Promise<StagedEvents> {
      const items: TransactionItem[] = [];
      const recorded: { key: string; subscribed: WebhookEndpoint[] }[] = [];
      for (const draft of drafts) {
        const subscribed = await subscribersOf(draft.tenantId, draft.type);
        if (subscribed.length === 0) continue;
        const data = typeof draft.data === 'function' ? await draft.data() : draft.data;
        const { key, item } = deps.events.recordItem({ ...draft, data }, newEventId(), deps.clock.now());
        items.push(item);
        recorded.push({ key, subscribed });
      }
      return {
        items,
        async deliver() {
          for (const { key, subscribed } of recorded) {
            try {
              await fanOut(key, subscribed);
            } catch (error) {
              deps.logger?.warn('A recorded event could not be handed to delivery yet; the janitor sweep will', {
                eventKey: key,
                error: describeError(error),
              });
            }
          }
        },
      };
    },

    async publish(event: PublishedEvent): Promise<void> {
      const subscribed = await subscribersOf(event.tenantId, event.type);
      if (subscribed.length === 0) return;
      const stored = await deps.events.record(event, newEventId(), deps.clock.now());
      if (stored.fanned_out_at) return;
      await fanOut(stored.key, subscribed);
    },
  };
}
