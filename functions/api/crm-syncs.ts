import { apiRoute } from '../../shared/api/route';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { dynamoCrmDeliveryStore } from '../../shared/crm/sync/dynamo-delivery-store';
import { answerCrmSyncLog } from '../../shared/crm/sync/log-api';

/** GET /api/leads/{leadId}/crm-syncs: the lead's writes back to the tenant's CRM (its delivery log). */
export function build(settings: Settings, host: HostPorts = {}) {
  const tracing = tracingOf('crmSyncsApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('crmSyncsApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clockOf(host)),
    deliveries: dynamoCrmDeliveryStore(db, tableName),
  };
  return apiRoute(deps, {}, ({ event, principal }) =>
    answerCrmSyncLog(deps, principal, event.pathParameters?.leadId, event.queryStringParameters),
  );
}

export const handler = lambdaEntry(build);
