import type * as z from 'zod';
import type { CrmConnection } from './connection-store';
import { leadStatusMapOf } from './lead-status';
import type { hubspotConnectionViewSchema } from './openapi';

/** A connection as the reference documents it. */
type ConnectionAnswer = z.input<typeof hubspotConnectionViewSchema>;

/**
 * A connection as the API shows it: never its token nor its client secret (only whether one is kept); the lead status table whole;
 * `local: true` when the connection goes to the local CRM of `npm start` (LOCAL_CRM), not to HubSpot (absent otherwise).
 */
export function connectionView(connection: CrmConnection, local: boolean): ConnectionAnswer {
  return {
    provider: connection.provider,
    ...(local ? { local: true as const } : {}),
    connected: true,
    portal_id: connection.portal_id,
    scopes: connection.scopes,
    connected_at: connection.connected_at,
    last_sync_at: connection.last_sync_at ?? null,
    last_error: connection.last_error ?? null,
    client_secret_set: connection.has_client_secret,
    lead_status_map: leadStatusMapOf(connection.lead_status_map),
  };
}
