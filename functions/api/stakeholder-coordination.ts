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
import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import { dynamoConversationStore } from '../../shared/sites/conversations';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';
import { dynamoSiteWorkStore } from '../../shared/sites/dynamo-site-work';
import { acceptStakeholderCoordination } from '../../shared/stakeholder-coordination/accept';

/** How long this function trusts a site and its agents before reading them again. */
const SITE_CACHE_TTL_MS = 30_000;

/** POST /api/agents/cmo/stakeholder-coordination: validate, check, build the prompts, start the command (record, then the call job). */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('stakeholderCoordinationApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('stakeholderCoordinationApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    commands: dynamoCommandStore(db, tableName),
    idempotency: dynamoIdempotencyStore(db, tableName),
    admission: admissionOf(db, tableName, settings, clock),
    queue: jobQueueOf('stakeholderCoordinationApi', settings, tracing),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS),
    conversations: dynamoConversationStore(db, tableName),
    siteWork: dynamoSiteWorkStore(db, tableName),
    clock,
    metrics: metricsOf('stakeholderCoordinationApi', settings),
    maxWaitSeconds: maxWaitSecondsOf('stakeholderCoordinationApi'),
    ...readCommandRetention(settings),
  };
  return apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ principal, body, headers }) =>
    acceptStakeholderCoordination(deps, { principal, body, headers }),
  );
}

export const handler = lambdaEntry(build);
