import { readCommandRetention } from '../../shared/commands/retention';
import { createTaskWorker } from '../../shared/commands/task-worker';
import { secretsOf } from '../../shared/composition/secrets';
import type { HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { taskWorkerComposition } from '../../shared/composition/worker';
import { dynamoConnectionStore } from '../../shared/crm/dynamo-connection-store';
import { dynamoLeadLinks } from '../../shared/crm/dynamo-lead-links';
import { crmSecretBoxOf, readCrmSettings } from '../../shared/crm/settings';
import { dynamoCrmDeliveryStore } from '../../shared/crm/sync/dynamo-delivery-store';
import { crmSyncTask } from '../../shared/crm/sync/task';
import { deferredCrmProvider } from '../../shared/providers/crm/deferred';

/**
 * Composes the SQS handler of the `crm` queue: one write back to a tenant's
 * HubSpot per job (HUBSPOT_API_BASE_URL; CRM_ENCRYPTION_KEY opens the
 * token), once, retried with the queue's back-off while HubSpot is down.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = taskWorkerComposition('crmSyncWorker', settings, host);
  const { hubspotBaseUrl } = readCrmSettings(settings);
  const definition = crmSyncTask({
    connections: dynamoConnectionStore(deps.db, deps.tableName, crmSecretBoxOf(secretsOf('crmSyncWorker', settings))),
    links: dynamoLeadLinks(deps.db, deps.tableName, 'hubspot'),
    deliveries: dynamoCrmDeliveryStore(deps.db, deps.tableName),
    // Loaded by the first job that calls HubSpot, not at cold start (a lead with no linked contact needs no client).
    crm: deferredCrmProvider('hubspot', async () =>
      (await import('../../shared/providers/crm/hubspot')).hubspotCrm(hubspotBaseUrl ? { baseUrl: hubspotBaseUrl } : {}),
    ),
    clock: deps.clock,
    leaseMs: deps.leaseMs,
    retentionMs: readCommandRetention(settings).commandRetentionMs,
    requeue: (job, delaySeconds, attempt) => deps.queue.sendAgain('crmsync', JSON.stringify(job), delaySeconds, attempt),
    maxAttempts: deps.maxReceiveCount,
  });
  return createTaskWorker(definition, deps);
}

export const handler = lambdaEntry(build);
