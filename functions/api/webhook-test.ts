import { apiRoute } from '../../shared/api/route';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { dynamoEndpointStore } from '../../shared/webhooks/endpoint-store';
import { pinnedPost } from '../../shared/webhooks/http-post';
import { readWebhookSettings } from '../../shared/webhooks/settings';
import { sendTestEvent } from '../../shared/webhooks/test-event';

/**
 * POST /api/webhooks/{id}/test: one signed `webhook.test` to the endpoint
 * while the caller waits, in a function of its own so the other webhook
 * routes keep their short timeout. The URL is checked against
 * WEBHOOK_ALLOW_LOOPBACK and WEBHOOK_RESERVED_PORTS, as for a delivery.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('webhookTestApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const { allowLoopback, reservedPorts } = readWebhookSettings(settings);
  const deps = {
    logger: loggerOf('webhookTestApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    endpoints: dynamoEndpointStore(db, tableName),
    clock,
    post: pinnedPost,
    urlPolicy: { allowLoopback, reservedPorts },
  };
  return apiRoute(deps, {}, ({ event, principal }) => sendTestEvent(deps, principal, event.pathParameters?.id));
}

export const handler = lambdaEntry(build);
