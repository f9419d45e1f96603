import { apiRoute } from '../../shared/api/route';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { leadEventDependenciesOf } from '../../shared/composition/lead-events';
import type { Settings } from '../../shared/composition/settings';
import { answerLeadEvent } from '../../shared/lead-follow-up/sequences/lead-events';
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
  const ports = {
    db,
    tableName,
    queue,
    idempotency: dynamoIdempotencyStore(db, tableName),
    clock,
    logger,
    retention: readCommandRetention(settings),
  };
  const sites = cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS);
  const deps = {
    ...leadEventDependenciesOf('leadEventsApi', ports, sites),
    logger,
    authenticate: authenticatorOf(db, tableName, settings, clock),
  };
  return apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ event, principal, body, headers }) =>
    answerLeadEvent(deps, { principal, leadId: event.pathParameters?.leadId, body, headers }),
  );
}

export const handler = lambdaEntry(build);
