import * as z from 'zod/mini';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import { MAX_BODY_BYTES } from '../../shared/catalogue/limits';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import { documentClientOf, loggerOf, metricsOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOf } from '../../shared/composition/job-queue';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import { secretsOf } from '../../shared/composition/secrets';
import type { Settings } from '../../shared/composition/settings';
import { dynamoConnectionStore } from '../../shared/crm/dynamo-connection-store';
import { dynamoLeadLinks } from '../../shared/crm/dynamo-lead-links';
import { crmSecretBoxOf } from '../../shared/crm/settings';
import { answerHubSpotWebhook, type ReportedLeadEvent } from '../../shared/crm/webhook-receiver';
import { readConfig } from '../../shared/platform/config';
import { onFirstUse } from '../../shared/platform/memo';
import { AppError } from '../../shared/platform/errors';
import { withMiddleware } from '../../shared/platform/handler-chain';
import { bodySizeLimit, errorEnvelope } from '../../shared/platform/http/middleware';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';
import { invocationLogging } from '../../shared/platform/invocation-logging';

/**
 * POST /webhooks/hubspot: HubSpot's webhook calls, without an API key. Its
 * own check is the signature v3 with the client secret of the connections
 * of the portal the events name (opened with CRM_ENCRYPTION_KEY), against
 * PUBLIC_BASE_URL. A linked contact's change starts a crm_import of it; a
 * reply or bounce is reported through the lead events use case
 * (`POST /api/leads/{id}/events`), as the tenant itself would.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const tracing = tracingOf('hubspotWebhook', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const logger = loggerOf('hubspotWebhook', settings);
  const clock = clockOf(host);
  const queue = jobQueueOf('hubspotWebhook', settings, tracing);
  // Optional: without it no signature can be checked, so every call is refused.
  const { PUBLIC_BASE_URL } = readConfig({ PUBLIC_BASE_URL: z.optional(z.url()) }, settings);
  const retention = readCommandRetention(settings);
  const idempotency = dynamoIdempotencyStore(db, tableName);
  // Most calls are contact changes (a crm_import); only a reply or bounce is a lead event. Its use case and stores (the
  // sequence steps, event records, history, the lead's state, the reply's lead follow-up, the tenant's webhooks) are read on
  // the first one, not at every cold start.
  const leadEventAnswerer = onFirstUse(async () => {
    const { reportedLeadEventsOf } = await import('../../shared/composition/lead-events');
    return reportedLeadEventsOf('hubspotWebhook', { db, tableName, queue, idempotency, clock, logger, retention });
  });
  const reportLeadEvent = async (event: ReportedLeadEvent) => {
    try {
      const answerLeadEvent = await leadEventAnswerer();
      await answerLeadEvent({
        principal: { tenantId: event.tenantId, siteIds: [event.siteId], keyId: 'hubspot' },
        leadId: event.leadId,
        body: { site_id: event.siteId, type: event.type, occurred_at: event.occurredAt, channel: 'email' },
        headers: { 'idempotency-key': event.idempotencyKey },
      });
    } catch (error) {
      // A lead gone from its site (or an event its rules refuse) is not HubSpot's to retry.
      if (!(error instanceof AppError)) throw error;
      logger.warn('HubSpot signal not reported as a lead event', { type: event.type, code: error.code });
    }
  };
  const deps = {
    connections: dynamoConnectionStore(db, tableName, crmSecretBoxOf(secretsOf('hubspotWebhook', settings))),
    links: dynamoLeadLinks(db, tableName, 'hubspot'),
    tenants: dynamoTenantStore(db, tableName),
    reportLeadEvent,
    ...(PUBLIC_BASE_URL ? { publicBaseUrl: PUBLIC_BASE_URL } : {}),
    commands: dynamoCommandStore(db, tableName),
    idempotency,
    queue,
    clock,
    metrics: metricsOf('hubspotWebhook', settings),
    logger,
    ...retention,
  };
  return withMiddleware<HttpEvent, HttpResult>(
    async (event) => answerHubSpotWebhook(deps, event),
    [invocationLogging(logger), errorEnvelope({ logger }), bodySizeLimit(MAX_BODY_BYTES)],
  );
}

export const handler = lambdaEntry(build);
