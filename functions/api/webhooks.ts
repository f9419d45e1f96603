import { apiRoute } from '../../shared/api/route';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { dynamoDeliveryStore } from '../../shared/webhooks/delivery-store';
import { dynamoEndpointStore } from '../../shared/webhooks/endpoint-store';
import { dynamoEventStore } from '../../shared/webhooks/event-store';
import { answerWebhookRoute } from '../../shared/webhooks/routes';
import { readWebhookSettings } from '../../shared/webhooks/settings';

/**
 * /api/webhooks and below: the tenant's completion webhooks (register,
 * list, update, delete, rotate a secret, list and redeliver deliveries),
 * and /api/events (list, redeliver). Endpoint
 * URLs are checked against WEBHOOK_ALLOW_LOOPBACK and WEBHOOK_RESERVED_PORTS.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('webhooksApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const { allowLoopback, reservedPorts } = readWebhookSettings(settings);
  const deps = {
    logger: loggerOf('webhooksApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    endpoints: dynamoEndpointStore(db, tableName),
    deliveries: dynamoDeliveryStore(db, tableName),
    events: dynamoEventStore(db, tableName),
    queue: jobQueueOnFirstSendOf('webhooksApi', settings, tracing),
    clock,
    urlPolicy: { allowLoopback, reservedPorts },
  };
  return apiRoute(deps, {}, (call) => answerWebhookRoute(deps, call));
}

export const handler = lambdaEntry(build);
