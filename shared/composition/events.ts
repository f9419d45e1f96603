import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EVENT_DELIVERY_QUEUE } from '../catalogue/event-publishing';
import { functionById, type FunctionId } from '../catalogue/function-definitions';
import type { Logger } from '@aws-lambda-powertools/logger';
import { noEvents, type EventPublisher } from '../commands/events';
import type { FinishAnnouncer } from '../commands/finish';
import type { JobQueue } from '../commands/queue';
import type { Clock } from '../platform/clock';
import { commandEventAnnouncer } from '../webhooks/command-events';
import { dynamoDeliveryStore } from '../webhooks/delivery-store';
import { cachedEndpointLists } from '../webhooks/endpoint-cache';
import { dynamoEndpointStore } from '../webhooks/endpoint-store';
import { dynamoEventStore } from '../webhooks/event-store';
import { webhookEventPublisher } from '../webhooks/publisher';

/** What publishing reads and writes through: the function's table client and queue. */
export interface EventPublishingPorts {
  db: DynamoDBDocumentClient;
  tableName: string;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
  /** Where an event recorded but not yet handed on is told (the janitor's sweep hands it on). @default none */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * True when the function's catalogue entry lets it publish: it sends to the
 * webhook delivery queue and may record events (EVENT_PUBLISHER_TABLE_GRANTS).
 */
export function publishesEvents(functionId: FunctionId): boolean {
  const { access } = functionById(functionId);
  return (
    access.sendsTo.includes(EVENT_DELIVERY_QUEUE) &&
    access.table.some((grant) => grant.index === undefined && grant.keyPrefixes.some((prefix) => prefix === 'EVENT#'))
  );
}

/**
 * The function's EventPublisher: the completion webhooks' when its catalogue
 * entry grants publishing, `noEvents` otherwise (a function composed without
 * the grants would fail every publish in AWS).
 */
export function eventPublisherOf(functionId: FunctionId, ports: EventPublishingPorts): EventPublisher {
  if (!publishesEvents(functionId)) return noEvents;
  return webhookPublisherOf(ports);
}

/** The completion webhooks' publisher on the table and queue given (also the outbox sweep's hand-on). */
export function webhookPublisherOf(ports: EventPublishingPorts) {
  return webhookEventPublisher({
    // Which endpoints an event goes to, read at most every few seconds: nearly every tenant has none.
    endpoints: cachedEndpointLists(dynamoEndpointStore(ports.db, ports.tableName), ports.clock),
    events: dynamoEventStore(ports.db, ports.tableName),
    deliveries: dynamoDeliveryStore(ports.db, ports.tableName),
    queue: ports.queue,
    clock: ports.clock,
    ...(ports.logger ? { logger: ports.logger } : {}),
  });
}

/**
 * How a function that ends commands announces them: `command.completed` / `command.failed` with the terminal write, when it may publish.
 */
export function commandAnnouncerOf(functionId: FunctionId, ports: EventPublishingPorts): FinishAnnouncer | undefined {
  if (!publishesEvents(functionId)) return undefined;
  return commandEventAnnouncer(eventPublisherOf(functionId, ports));
}
