import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FunctionId } from '../catalogue/function-definitions';
import { dynamoCommandStore } from '../commands/dynamo-store';
import type { IdempotencyStore } from '../commands/idempotency';
import type { JobQueue } from '../commands/queue';
import type { CommandRetention } from '../commands/retention';
import { dynamoConnectedCheck } from '../crm/connected-check';
import { dynamoLeadHistory } from '../lead-follow-up/history';
import { dynamoLeadStates } from '../lead-follow-up/lead-state';
import { dynamoLeadEventRecords } from '../lead-follow-up/sequences/event-records';
import { answerLeadEvent, type LeadEventCall, type LeadEventDependencies } from '../lead-follow-up/sequences/lead-events';
import { dynamoStepStore } from '../lead-follow-up/sequences/step-store';
import type { Clock } from '../platform/clock';
import type { HttpResult } from '../platform/http/types';
import type { SiteDirectory } from '../sites/directory';
import { dynamoSiteDirectory } from '../sites/dynamo-directory';
import { crmSyncProducerOf, historyWithCrmSync } from './crm-sync';
import { eventPublisherOf } from './events';

/** What a function that takes lead events already holds. */
export interface LeadEventPorts {
  db: DynamoDBDocumentClient;
  tableName: string;
  queue: Pick<JobQueue, 'send'>;
  idempotency: IdempotencyStore;
  clock: Clock;
  logger: Logger;
  retention: CommandRetention;
}

/**
 * Everything the lead events use case (`POST /api/leads/{id}/events`)
 * works with, from a function's own table and queue: the lead's steps, the
 * event records, the tenant's history of the lead (an event that moves its
 * CRM lead status queues a crm_sync job), the tenant's state of the lead
 * (stage, unsubscribes), the lead follow-up a reply starts, and
 * `sequence.adapted` for the tenant's webhooks. One composition for the
 * route and for a provider's webhook reporting what a lead did, so both
 * do the same. `sites` defaults to the table's site directory.
 */
export function leadEventDependenciesOf(
  functionId: FunctionId,
  ports: LeadEventPorts,
  sites: SiteDirectory = dynamoSiteDirectory(ports.db, ports.tableName),
): LeadEventDependencies {
  const { db, tableName, queue, idempotency, clock, logger, retention } = ports;
  return {
    sites,
    steps: dynamoStepStore(db, tableName),
    records: dynamoLeadEventRecords(db, tableName),
    history: historyWithCrmSync(
      dynamoLeadHistory(db, tableName),
      crmSyncProducerOf(functionId, queue, logger, dynamoConnectedCheck(db, tableName, clock)),
    ),
    idempotency,
    leadStates: dynamoLeadStates(db, tableName),
    // A reply starts a lead follow-up command that drafts the answer (its sales job queued like the leadFollowUp route's).
    replies: { commands: dynamoCommandStore(db, tableName), idempotency, queue, clock, ...retention },
    events: eventPublisherOf(functionId, { db, tableName, queue, clock }),
    clock,
    logger,
    ...retention,
  };
}

/**
 * The lead events use case for a function that reports what a lead did on
 * a tenant's behalf (a provider's webhook), exactly as the route takes it.
 * A module of its own so that such a function can `import()` it on the
 * first event it reports rather than read it at every cold start.
 */
export function reportedLeadEventsOf(functionId: FunctionId, ports: LeadEventPorts): (call: LeadEventCall) => Promise<HttpResult> {
  const deps = leadEventDependenciesOf(functionId, ports);
  return (call) => answerLeadEvent(deps, call);
}
