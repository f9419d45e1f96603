import { createTaskWorker } from '../../shared/commands/task-worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { webhookPublisherOf } from '../../shared/composition/events';
import { taskWorkerComposition } from '../../shared/composition/worker';
import { deliveryTask } from '../../shared/webhooks/delivery';
import { dynamoDeliveryStore } from '../../shared/webhooks/delivery-store';
import { dynamoEndpointStore } from '../../shared/webhooks/endpoint-store';
import { dynamoEventStore } from '../../shared/webhooks/event-store';
import { pinnedPost } from '../../shared/webhooks/http-post';
import { readWebhookSettings } from '../../shared/webhooks/settings';

/**
 * Composes the SQS handler of the `webhooks` queue: one signed POST per job
 * to a tenant's endpoint, its address checked again before each attempt
 * (WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_RESERVED_PORTS), retried after
 * WEBHOOK_RETRY_DELAYS; an endpoint failing for WEBHOOK_DISABLE_AFTER is
 * disabled, and the tenant's other endpoints told.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = taskWorkerComposition('webhookDeliveryWorker', settings, host);
  const { retryDelaysSeconds, allowLoopback, reservedPorts, disableAfterMs } = readWebhookSettings(settings);
  const endpoints = dynamoEndpointStore(deps.db, deps.tableName);
  const publisher = webhookPublisherOf({
    db: deps.db,
    tableName: deps.tableName,
    queue: deps.queue,
    clock: deps.clock,
    logger: deps.logger,
  });
  const definition = deliveryTask({
    endpoints,
    events: dynamoEventStore(deps.db, deps.tableName),
    deliveries: dynamoDeliveryStore(deps.db, deps.tableName),
    queue: deps.queue,
    clock: deps.clock,
    post: pinnedPost,
    urlPolicy: { allowLoopback, reservedPorts },
    retryDelaysSeconds,
    leaseMs: deps.leaseMs,
    metrics: deps.metrics,
    logger: deps.logger,
    health: { endpoints, disableAfterMs, publisher },
  });
  return createTaskWorker(definition, deps);
}

export const handler = lambdaEntry(build);
