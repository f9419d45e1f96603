import { COMMAND_ACCEPT_TABLE_GRANTS } from '../catalogue/command-start';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';

/**
 * The CRM integration in the service catalogue, all in this one file: its
 * job types (the lead import, and the write-backs to the CRM) with their
 * queues and workers, its functions behind
 * routes with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const CRM_CATALOGUE = {
  jobTypes: [
    {
      type: 'crm_import',
      commandType: 'crm_import',
      startsCommand: true,
      fromProducers: false,
      // An import reads the CRM and writes leads: no model, no search.
      spends: [],
      // Two imports at once at most: each client keeps to half of HubSpot's rate (shared/providers/crm/policy.ts), and the
      // write-backs share the rest.
      queue: { ...workQueue('crm', 'CRM'), batchSize: 1, maxConcurrency: 2 },
      worker: {
        id: 'crmImportWorker',
        kind: 'worker',
        entry: 'functions/workers/crm-import.ts',
        description: "HubSpot lead import: reads the tenant's contacts page by page and upserts them as the site's leads",
        // No page starts after IMPORT_PAGE_BUDGET_MS (60 s; the rest goes to a fresh job); a page is at most five HubSpot calls
        // of at most 53 s each (crmCallWorstCaseMs) and 100 leads' table writes: 60 + 265 + ~20 s < 360 s.
        timeoutSeconds: 360,
        memoryMb: 256,
        access: {
          table: [
            // Its command: claimed, its progress kept after each page, released when it re-queues itself, ended.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
            // The tenant's connection: its token opened, its last sync recorded.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CRM#'] },
            // The links of contacts and leads: a contact's leads (Query), a link written both ways (a transaction of two Puts),
            // read back (Query) when that transaction is refused.
            { actions: ['Query', 'PutItem'], keyPrefixes: ['CRMLINK#'] },
            // The site's leads: read (one by id, or a bounded Query of them to match contacts by e-mail), then written whole.
            { actions: ['GetItem', 'Query', 'BatchWriteItem'], keyPrefixes: ['SITE#'] },
            // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
            ...EVENT_PUBLISHER_TABLE_GRANTS,
          ],
          // Its own queue: a job that hit a fault, that HubSpot asked to wait, or that spent its page budget is queued again.
          sendsTo: ['crm', EVENT_DELIVERY_QUEUE],
          sendsToDeadLetterOf: ['crm'],
          // CRM_ENCRYPTION_KEY: to open the tenant's token.
          secrets: ['crm'],
        },
        settings: ['HUBSPOT_API_BASE_URL'],
      },
    },
    {
      type: 'crm_sync',
      // No command: each write back to the CRM keeps its own delivery record (CRMSYNC#), and its worker is a task worker.
      startsCommand: false,
      fromProducers: false,
      // Few at once: every tenant's writes share HubSpot's per-portal rate limit, and none of them is urgent.
      queue: { ...workQueue('crmsync', 'CRM_SYNC'), maxConcurrency: 2 },
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
            // A write about a command counts on its usage (its usage item read for its tenant, type and site) and its tenant's totals.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['USAGE#'] },
          ],
          // Its own queue: the next attempt after a fault (delayed).
          sendsTo: ['crmsync'],
          sendsToDeadLetterOf: ['crmsync'],
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
        "/api/integrations/hubspot: connect (token checked against HubSpot, kept encrypted), show and forget the tenant's HubSpot connection; start a lead import",
      // It waits for HubSpot's token check at most 6.5 s (CONNECT_POLICY in shared/providers/crm/policy.ts: 2 attempts of 3 s and a
      // 0.5 s wait), then makes two or three table calls; GET and DELETE never call HubSpot. Starting an import honours
      // Prefer: wait like every POST that starts a command, hence the API's own 29 s.
      timeoutSeconds: 29,
      memoryMb: 256,
      access: {
        table: [
          // The key, the Idempotency-Key and the import's command (command-start.ts).
          ...COMMAND_ACCEPT_TABLE_GRANTS,
          // The import's site: it must exist and the key cover it.
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // The tenant's connection: read, replaced or deleted in a transaction with its portal's entry.
          { actions: ['GetItem', 'PutItem', 'DeleteItem'], keyPrefixes: ['CRM#'] },
          // The portal's entry (which tenants a portal's webhook calls concern), written and deleted with the connection.
          { actions: ['PutItem', 'DeleteItem'], keyPrefixes: ['CRMPORTAL#'] },
        ],
        // The import's first job.
        sendsTo: ['crm'],
        sendsToDeadLetterOf: [],
        // CRM_ENCRYPTION_KEY: the service key each tenant's sealing key is derived from.
        secrets: ['crm'],
      },
      settings: ['HUBSPOT_API_BASE_URL'],
    },
    {
      id: 'hubspotWebhook',
      kind: 'webhook',
      entry: 'functions/webhooks/hubspot.ts',
      description:
        "POST /webhooks/hubspot: HubSpot's signed webhook calls (signature v3): a linked contact's change queues its re-import; a reply or bounce becomes a lead event",
      // Per tenant of the portal: its connection opened, a Query per event's contact, a command started per site, and a lead
      // event per reply or bounce (a few writes each): well under a second for HubSpot's usual few events; 8 s leaves room for a
      // batch of 100 on a slow table.
      timeoutSeconds: 8,
      memoryMb: 256,
      access: {
        table: [
          // The tenants of the portal the events name, and each one's connection (its client secret opened).
          { actions: ['Query'], keyPrefixes: ['CRMPORTAL#'] },
          { actions: ['GetItem'], keyPrefixes: ['CRM#'] },
          // The leads each event's contact is linked to, and the tenant's sites (it must still cover the lead's).
          { actions: ['Query'], keyPrefixes: ['CRMLINK#'] },
          { actions: ['GetItem'], keyPrefixes: ['TENANT#'] },
          // The re-import's command, once per batch of events (an Idempotency-Key made of their ids).
          { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
          // A reply or a bounce, reported as POST /api/leads/{id}/events does (shared/composition/lead-events.ts): the lead
          // read, the tenant's history of it and its state beside it (stage, unsubscribes), the steps it cancels, the event's
          // record, and the lead follow-up a reply starts (its command and Idempotency-Key above).
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          { actions: ['PutItem', 'UpdateItem'], keyPrefixes: ['LEADHISTORY#'] },
          { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['FOLLOWUP#'] },
          { index: 'gsi2', actions: ['Query'], keyPrefixes: ['FOLLOWUP#LEAD#'] },
          // sequence.adapted for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // And the lead status the event moves, to the tenant's CRM by a crm_sync job; a reply's sales job.
        sendsTo: ['crm', EVENT_DELIVERY_QUEUE, 'crmsync', 'sales'],
        sendsToDeadLetterOf: [],
        // CRM_ENCRYPTION_KEY: to open the connections' client secrets.
        secrets: ['crm'],
      },
    },
  ],
  routes: [
    // A lead's writes back to the tenant's CRM (its delivery log).
    { method: 'GET', path: '/api/leads/{leadId}/crm-syncs', function: 'crmSyncsApi' },
    // The tenant's HubSpot connection (docs/crm.md).
    { method: 'PUT', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    { method: 'GET', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    { method: 'DELETE', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    // A lead import from the tenant's HubSpot (a crm_import command).
    { method: 'POST', path: '/api/integrations/hubspot/import', function: 'crmConnectionApi' },
    // Outside /api and without a key: HubSpot signs each call (X-HubSpot-Signature-v3), and the webhook checks that.
    { method: 'POST', path: '/webhooks/hubspot', function: 'hubspotWebhook' },
  ],
} as const satisfies FeatureCatalogue;
