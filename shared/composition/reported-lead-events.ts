import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FunctionId } from '../catalogue/function-definitions';
import type { IdempotencyStore } from '../commands/idempotency';
import type { JobQueue } from '../commands/queue';
import type { CommandRetention } from '../commands/retention';
import { dynamoLeadHistory } from '../lead-follow-up/history';
import { dynamoLeadEventRecords } from '../lead-follow-up/sequences/event-records';
import { answerLeadEvent, type LeadEventCall } from '../lead-follow-up/sequences/lead-events';
import { dynamoStepStore } from '../lead-follow-up/sequences/step-store';
import type { Clock } from '../platform/clock';
import type { HttpResult } from '../platform/http/types';
import { dynamoSiteDirectory } from '../sites/dynamo-directory';
import { eventPublisherOf } from './events';

/** What a function that reports lead events already holds. */
export interface ReportedLeadEventPorts {
  db: DynamoDBDocumentClient;
  tableName: string;
  queue: Pick<JobQueue, 'send'>;
  idempotency: IdempotencyStore;
  clock: Clock;
  logger: Logger;
  retention: CommandRetention;
}

/**
 * The lead events use case (`POST /api/leads/{id}/events`) for a function
 * that reports what a lead did on a tenant's behalf (a provider's webhook):
 * the lead's steps, the event records, the history and `sequence.adapted`
 * for the tenant's webhooks, from the function's own table and queue. A
 * module of its own so that such a function can `import()` it on the first
 * event it reports rather than read it at every cold start.
 */
export function reportedLeadEventsOf(functionId: FunctionId, ports: ReportedLeadEventPorts): (call: LeadEventCall) => Promise<HttpResult> {
  const { db, tableName, queue, clock } = ports;
  const deps = {
    sites: dynamoSiteDirectory(db, tableName),
    steps: dynamoStepStore(db, tableName),
    records: dynamoLeadEventRecords(db, tableName),
    history: dynamoLeadHistory(db, tableName),
    idempotency: ports.idempotency,
    events: eventPublisherOf(functionId, { db, tableName, queue, clock }),
    clock,
    logger: ports.logger,
    ...ports.retention,
  };
  return (call) => answerLeadEvent(deps, call);
}
