import { createJobWorker } from '../../shared/commands/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { workerComposition } from '../../shared/composition/worker';
import { dynamoConnectionStore } from '../../shared/crm/dynamo-connection-store';
import { dynamoLeadLinks } from '../../shared/crm/dynamo-lead-links';
import { crmImportJob } from '../../shared/crm/import-phase';
import { crmSecretBoxOf, readCrmSettings } from '../../shared/crm/settings';
import { hubspotCrm } from '../../shared/providers/crm/hubspot';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';

/**
 * Composes the SQS handler of the `crm` queue (HubSpot lead imports): the
 * tenants' connections (their tokens opened with CRM_ENCRYPTION_KEY), the
 * HubSpot adapter at HUBSPOT_API_BASE_URL with the default CRM policy, the
 * contact ↔ lead links, and the sites' leads (read uncached: an import
 * updates what it just read).
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('crmImportWorker', settings, host);
  const { hubspotBaseUrl } = readCrmSettings(settings);
  const definition = crmImportJob({
    connections: dynamoConnectionStore(deps.db, deps.tableName, crmSecretBoxOf(deps.secrets)),
    crm: hubspotCrm(hubspotBaseUrl ? { baseUrl: hubspotBaseUrl } : {}),
    links: dynamoLeadLinks(deps.db, deps.tableName, 'hubspot'),
    sites: dynamoSiteDirectory(deps.db, deps.tableName),
    commands: deps.commands,
    queue: deps.queue,
    clock: deps.clock,
    logger: deps.logger,
  });
  return createJobWorker(definition, deps);
}

export const handler = lambdaEntry(build);
