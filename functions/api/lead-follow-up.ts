import { apiRoute } from '../../shared/api/route';
import { maxWaitSecondsOf } from '../../shared/catalogue/limits';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import {
  admissionOf,
  authenticatorOf,
  documentClientOf,
  loggerOf,
  metricsOf,
  tableNameOf,
  tracingOf,
} from '../../shared/composition/adapters';
import { jobQueueOf } from '../../shared/composition/job-queue';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { acceptLeadFollowUp } from '../../shared/lead-follow-up/accept';
import { dynamoLeadStates } from '../../shared/lead-follow-up/lead-state';
import { readLeadFollowUpSettings } from '../../shared/lead-follow-up/settings';
import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';

/** How long this function trusts a site and its agents before reading them again. */
const SITE_CACHE_TTL_MS = 30_000;

/** POST /api/agents/sales/leadFollowUp: validate, check, start the command (record, then the sales job). */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('leadFollowUpApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('leadFollowUpApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    commands: dynamoCommandStore(db, tableName),
    idempotency: dynamoIdempotencyStore(db, tableName),
    admission: admissionOf(db, tableName, settings, clock),
    queue: jobQueueOf('leadFollowUpApi', settings, tracing),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS),
    leadStates: dynamoLeadStates(db, tableName),
    clock,
    metrics: metricsOf('leadFollowUpApi', settings),
    maxWaitSeconds: maxWaitSecondsOf('leadFollowUpApi'),
    ...readLeadFollowUpSettings(settings),
    ...readCommandRetention(settings),
  };
  return apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ principal, body, headers }) =>
    acceptLeadFollowUp(deps, { principal, body, headers }),
  );
}

export const handler = lambdaEntry(build);
