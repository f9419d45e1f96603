import type { CrmProviderName } from '../providers/crm/port';
import type { LeadStatusTrigger } from './lead-status';

/** A tenant's connection to its CRM, as stored, without its secrets. */
export interface CrmConnection {
  tenant_id: string;
  provider: CrmProviderName;
  /** The CRM's account id (HubSpot's portal id), as the token check reported it. */
  portal_id: string;
  /** The scopes the token carried when it was checked, sorted. */
  scopes: string[];
  /** The tenant's overrides of the default lead status table (lead-status.ts); only the triggers it set. */
  lead_status_map: Partial<Record<LeadStatusTrigger, string>>;
  /** When the tenant (last) connected. */
  connected_at: string;
  updated_at: string;
  /** When an import or a write-back last reached the CRM. */
  last_sync_at?: string;
  /** The last failure talking to the CRM, cleared by the next success. */
  last_error?: { at: string; message: string };
  /** True when a client secret is kept (HubSpot's webhook calls can be checked); read from the stored secrets, never stored itself. */
  has_client_secret: boolean;
}

/** The connection's secrets, in plaintext: only ever in memory, sealed in the table. */
export interface CrmConnectionSecrets {
  /** The private app's access token. */
  accessToken: string;
  /** The private app's client secret, which signs HubSpot's webhook calls (signature v3). */
  clientSecret?: string;
}

/** What a sync reports of itself on the connection. */
export interface SyncOutcome {
  at: string;
  /** The failure, when it failed (safe to show: never a secret); absent on success, which clears the last error. */
  error?: string;
}

/**
 * Port: the tenants' CRM connections, one per tenant and provider. The
 * secrets are sealed per tenant (shared/platform/secret-box.ts) before they
 * reach the table and opened only by {@link credentials}. A connection is
 * also findable by its portal (`tenantsOfPortal`), for the provider's
 * webhook calls, which name the portal and not the tenant.
 */
export interface ConnectionStore {
  /** The tenant's connection, without secrets; undefined when it has none. */
  get(tenantId: string, provider: CrmProviderName): Promise<CrmConnection | undefined>;
  /** The tenant's connection and its secrets, opened; undefined when it has none. */
  credentials(
    tenantId: string,
    provider: CrmProviderName,
  ): Promise<{ connection: CrmConnection; secrets: CrmConnectionSecrets } | undefined>;
  /**
   * Stores the tenant's connection with its secrets (replacing one it had),
   * and its portal's entry, in one transaction (the entry of a portal it
   * was connected to before goes in the same transaction). Throws
   * `ConnectionChangedError` when another request changed the connection
   * since `previous` was read.
   */
  save(connection: CrmConnection, secrets: CrmConnectionSecrets, previous: CrmConnection | undefined): Promise<void>;
  /** Forgets the tenant's connection and its secrets (and its portal's entry); the connection it removed, or undefined when none. */
  remove(tenantId: string, provider: CrmProviderName): Promise<CrmConnection | undefined>;
  /** The tenants connected to a portal (usually one), by tenant id. */
  tenantsOfPortal(provider: CrmProviderName, portalId: string): Promise<string[]>;
  /** Records an import's or a write-back's outcome on the connection (last sync, last error); false when the connection is gone. */
  recordSync(tenantId: string, provider: CrmProviderName, outcome: SyncOutcome): Promise<boolean>;
}

/** The connection changed between its read and a write that depended on it. */
export class ConnectionChangedError extends Error {
  constructor() {
    super('The CRM connection was changed by another request');
    this.name = 'ConnectionChangedError';
  }
}
