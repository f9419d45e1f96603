import type { CrmClient, CrmProvider } from '../providers/crm/port';
import type { ConnectionStore, CrmConnection, CrmConnectionSecrets } from './connection-store';

/** A tenant's connection, opened: the record, its secrets, and a client of the CRM on its token. */
export interface ConnectedCrm {
  connection: CrmConnection;
  secrets: CrmConnectionSecrets;
  client: CrmClient;
}

/**
 * The tenant's own CRM client (its token, never another tenant's), for
 * the import, the write-backs and the webhook receiver; undefined when the
 * tenant has no connection. Each call opens the secrets anew, so a
 * disconnect or a new token takes effect at the next job.
 */
export async function connectedCrm(
  deps: { connections: Pick<ConnectionStore, 'credentials'>; crm: CrmProvider },
  tenantId: string,
): Promise<ConnectedCrm | undefined> {
  const found = await deps.connections.credentials(tenantId, deps.crm.name);
  if (!found) return undefined;
  return { ...found, client: deps.crm.connect({ accessToken: found.secrets.accessToken }) };
}
