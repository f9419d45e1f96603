import { apiRoute } from '../../shared/api/route';
import { maxWaitSecondsOf } from '../../shared/catalogue/limits';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import {
  admissionOf,
  authenticatorOf,
  documentClientOf,
  loggerOf,
  metricsOf,
  tableNameOf,
  tracingOf,
} from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { secretsOnFirstReadOf } from '../../shared/composition/secrets-on-first-read';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { dynamoConnectionStore } from '../../shared/crm/dynamo-connection-store';
import { answerCrmRoute } from '../../shared/crm/routes';
import { crmSecretBoxOf, readCrmSettings } from '../../shared/crm/settings';
import { deferredCrmProvider } from '../../shared/providers/crm/deferred';
import { CONNECT_POLICY } from '../../shared/providers/crm/policy';
import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';

/** How long this function trusts a site before reading it again. */
const SITE_CACHE_TTL_MS = 30_000;

/**
 * /api/integrations/hubspot: the tenant's HubSpot connection (connect,
 * show, disconnect) and the start of a lead import (a crm_import command). HUBSPOT_API_BASE_URL points the token check at HubSpot
 * or a compatible server; CRM_ENCRYPTION_KEY (the `crm` secret) seals the
 * token and client secret.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('crmConnectionApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const { hubspotBaseUrl, local } = readCrmSettings(settings);
  const deps = {
    logger: loggerOf('crmConnectionApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    connections: dynamoConnectionStore(db, tableName, crmSecretBoxOf(secretsOnFirstReadOf('crmConnectionApi', settings))),
    // Loaded by the first connect (its token check), not at cold start: showing or removing a connection needs no client.
    crm: deferredCrmProvider('hubspot', async () =>
      (await import('../../shared/providers/crm/hubspot')).hubspotCrm({
        ...(hubspotBaseUrl ? { baseUrl: hubspotBaseUrl } : {}),
        policy: CONNECT_POLICY,
      }),
    ),
    clock,
    local,
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS),
    commands: dynamoCommandStore(db, tableName),
    idempotency: dynamoIdempotencyStore(db, tableName),
    admission: admissionOf(db, tableName, settings, clock),
    queue: jobQueueOnFirstSendOf('crmConnectionApi', settings, tracing),
    metrics: metricsOf('crmConnectionApi', settings),
    maxWaitSeconds: maxWaitSecondsOf('crmConnectionApi'),
    ...readCommandRetention(settings),
  };
  return apiRoute(deps, {}, (call) => answerCrmRoute(deps, call));
}

export const handler = lambdaEntry(build);
