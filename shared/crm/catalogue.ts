import type { FeatureCatalogue } from '../catalogue/feature';

/**
 * The CRM integration in the service catalogue, all in this one file: its
 * functions behind routes with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const CRM_CATALOGUE = {
  jobTypes: [],
  functions: [
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
    // The tenant's HubSpot connection (docs/crm.md).
    { method: 'PUT', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    { method: 'GET', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
    { method: 'DELETE', path: '/api/integrations/hubspot', function: 'crmConnectionApi' },
  ],
} as const satisfies FeatureCatalogue;
