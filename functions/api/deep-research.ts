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
import { acceptDeepResearch } from '../../shared/deep-research/accept';
import { processingTimer } from '../../shared/deep-research/processing-time';

/**
 * POST /api/deepResearch/operation: validate, start the command (record, then the research job); every error carries processing_time_ms.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('deepResearchApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('deepResearchApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    commands: dynamoCommandStore(db, tableName),
    idempotency: dynamoIdempotencyStore(db, tableName),
    admission: admissionOf(db, tableName, settings, clock),
    queue: jobQueueOf('deepResearchApi', settings, tracing),
    clock,
    metrics: metricsOf('deepResearchApi', settings),
    maxWaitSeconds: maxWaitSecondsOf('deepResearchApi'),
    ...readCommandRetention(settings),
  };
  const timer = processingTimer(deps.clock);
  const route = apiRoute(deps, { bodyErrorCode: 'VALIDATION_ERROR', errorExtra: timer.errorExtra }, ({ principal, body, headers }) =>
    acceptDeepResearch(deps, { principal, body, headers }),
  );
  return timer.timed(route);
}

export const handler = lambdaEntry(build);
