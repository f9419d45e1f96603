import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';

/**
 * The CRM integration in the service catalogue, all in this one file: its
 * functions behind routes with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const CRM_CATALOGUE = {
  jobTypes: [
    {
      type: 'crm_sync',
      // No command: each write back to the CRM keeps its own delivery record (CRMSYNC#), and its worker is a task worker.
      startsCommand: false,
      fromProducers: false,
      // Few at once: every tenant's writes share HubSpot's per-portal rate limit, and none of them is urgent.
      queue: { ...workQueue('crm', 'CRM_SYNC'), maxConcurrency: 2 },
      worker: {
        id: 'crmSyncWorker',
        kind: 'worker',
        entry: 'functions/workers/crm-sync.ts',
        description:
          "CRM write-backs: one note, logged e-mail or call, or one lead status, on the lead's contact in the tenant's HubSpot, once",
        // At most three HubSpot calls (after an unknown outcome: the contact's engagements, their bodies, then the write), each at
        // most 53 s under DEFAULT_CRM_POLICY (crmCallWorstCaseMs), plus a few table calls; the claim's lease is this long too.
        timeoutSeconds: 180,
        memoryMb: 256,
        access: {
          table: [
            // The tenant's connection (its sealed token), and its last sync or error.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CRM#'] },
            // The lead's contact.
            { actions: ['GetItem'], keyPrefixes: ['CRMLINK#'] },
            // The delivery record: claimed, completed, released or failed (conditional updates).
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CRMSYNC#'] },
          ],
          // Its own queue: the next attempt after a fault (delayed).
          sendsTo: ['crm'],
          sendsToDeadLetterOf: ['crm'],
          secrets: ['crm'],
        },
        settings: ['HUBSPOT_API_BASE_URL'],
      },
    },
  ],
  functions: [
    {
      id: 'crmSyncsApi',
      kind: 'api',
      entry: 'functions/api/crm-syncs.ts',
      description: "GET /api/leads/{leadId}/crm-syncs: the lead's writes back to the tenant's CRM, each with its state and CRM record id",
      // It never waits: a key read and one Query of the lead's deliveries, each bounded by the SDK's 3 s request timeout.
      timeoutSeconds: 5,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The lead's deliveries, in the tenant's own partition of the lead.
          { actions: ['Query'], keyPrefixes: ['CRMSYNC#'] },
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'crmConnectionApi',
      kind: 'api',
      entry: 'functions/api/crm-connection.ts',
      description:
        "/api/integrations/hubspot: connect (token checked against HubSpot, kept encrypted), show and forget the tenant's HubSpot connection",
      // It waits for HubSpot's token check at most 6.5 s (CONNECT_POLICY in shared/providers/crm/policy.ts: 2 attempts of 3 s and a
      // 0.5 s wait), then makes two or three table calls; GET and DELETE never call HubSpot.
      timeoutSeconds: 8,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The tenant's connection: read, replaced or deleted in a transaction with its portal's entry.
          { actions: ['GetItem', 'PutItem', 'DeleteItem'], keyPrefixes: ['CRM#'] },
          // The portal's entry (which tenants a portal's webhook calls concern), written and deleted with the connection.
          { actions: ['PutItem', 'DeleteItem'], keyPrefixes: ['CRMPORTAL#'] },
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        // CRM_ENCRYPTION_KEY: the service key each tenant's sealing key is derived from.
        secrets: ['crm'],
      },
      settings: ['HUBSPOT_API_BASE_URL'],
    },
  ],
  routes: [
    // A lead's writes back to the tenant's CRM (its delivery log).
    { method: 'GET', path: '/api/leads/{leadId}/crm-syncs', function: 'crmSyncsApi' },
    // The tenant's HubSpot connection (docs/crm.md).
    { method: 'PUT', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    { method: 'GET', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    { method: 'DELETE', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
  ],
} as const satisfies FeatureCatalogue;
