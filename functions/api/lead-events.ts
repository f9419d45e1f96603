import { apiRoute } from '../../shared/api/route';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { crmSyncProducerOf, historyWithCrmSync } from '../../shared/composition/crm-sync';
import { dynamoConnectedCheck } from '../../shared/crm/connected-check';
import { eventPublisherOf } from '../../shared/composition/events';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { dynamoLeadHistory } from '../../shared/lead-follow-up/history';
import { dynamoLeadStates } from '../../shared/lead-follow-up/lead-state';
import { dynamoLeadEventRecords } from '../../shared/lead-follow-up/sequences/event-records';
import { answerLeadEvent } from '../../shared/lead-follow-up/sequences/lead-events';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';
import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';

/** How long this function trusts a site before reading it again (leads are never cached). */
const SITE_CACHE_TTL_MS = 30_000;

/**
 * POST /api/leads/{leadId}/events: records what a lead did, adapts the
 * lead's remaining follow-ups and publishes `sequence.adapted` to the
 * tenant's completion webhooks.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('leadEventsApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const logger = loggerOf('leadEventsApi', settings);
  const queue = jobQueueOnFirstSendOf('leadEventsApi', settings, tracing);
  const idempotency = dynamoIdempotencyStore(db, tableName);
  const retention = readCommandRetention(settings);
  const deps = {
    logger,
    authenticate: authenticatorOf(db, tableName, settings, clock),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS),
    steps: dynamoStepStore(db, tableName),
    records: dynamoLeadEventRecords(db, tableName),
    // An event that moves a lead status queues it for the tenant's CRM (crm_sync) once recorded, without waiting on the CRM.
    history: historyWithCrmSync(
      dynamoLeadHistory(db, tableName),
      crmSyncProducerOf('leadEventsApi', queue, logger, dynamoConnectedCheck(db, tableName, clock)),
    ),
    idempotency,
    leadStates: dynamoLeadStates(db, tableName),
    // A reply starts a lead follow-up command that drafts the answer (its sales job queued like the leadFollowUp route's).
    replies: { commands: dynamoCommandStore(db, tableName), idempotency, queue, clock, ...retention },
    events: eventPublisherOf('leadEventsApi', { db, tableName, queue, clock }),
    clock,
    ...retention,
  };
  return apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ event, principal, body, headers }) =>
    answerLeadEvent(deps, { principal, leadId: event.pathParameters?.leadId, body, headers }),
  );
}

export const handler = lambdaEntry(build);
