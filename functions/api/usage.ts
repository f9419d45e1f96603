import { apiRoute } from '../../shared/api/route';
import { answerUsage } from '../../shared/api/usage';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { dynamoUsageTotals } from '../../shared/usage/dynamo-usage-totals';

/** GET /api/usage: the caller's tenant's usage totals over a range of days, from its daily totals. */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('usageApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('usageApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    totals: dynamoUsageTotals(db, tableName),
    clock,
  };
  return apiRoute(deps, {}, ({ principal, event }) => answerUsage(deps, principal, event.queryStringParameters));
}

export const handler = lambdaEntry(build);
