import type { TableGrant } from './table';

/**
 * What a function needs to queue write-backs to a tenant's CRM (`crm_sync`
 * jobs on the `crmsync` queue, which its entry's `sendsTo` names): whether
 * the tenant has a connection at all, read from the connection's item
 * (`CRM#<tenant>`, shared/crm/connected-check.ts), so a tenant without one
 * costs no job and no worker run.
 */
export const CRM_SYNC_PRODUCER_TABLE_GRANTS = [{ actions: ['GetItem'], keyPrefixes: ['CRM#'] }] as const satisfies readonly TableGrant[];
