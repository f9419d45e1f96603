import type { Principal } from '../access/api-keys';
import type { Clock } from '../platform/clock';
import { AppError, type IssueDetail } from '../platform/errors';
import { errorResponse, jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { onFirstUse } from '../platform/memo';
import { describeFirstIssue, toIssueDetails } from '../platform/validation';
import { CrmCredentialsError, CrmRateLimitedError, CrmUnavailableError } from '../providers/crm/errors';
import type { CrmProvider } from '../providers/crm/port';
import { ConnectionChangedError, type ConnectionStore, type CrmConnection } from './connection-store';
import { connectionView } from './presenter';

/**
 * Every input error of the integration routes answers 400 INVALID_REQUEST,
 * a token HubSpot refuses included (with HubSpot's reason); a tenant
 * without a connection answers 404 NOT_FOUND.
 */
export const CRM_VALIDATION_CODE = 'INVALID_REQUEST' as const;

/** The connect body's schema, imported once by the first connect (a failed import is tried again by the next). */
const connectionBody = onFirstUse(() => import('./connection-body'));

/** What the connection routes work with. */
export interface ConnectionApiDependencies {
  connections: ConnectionStore;
  /** The CRM adapter (HubSpot), pointed at HUBSPOT_API_BASE_URL with the token check's policy. */
  crm: CrmProvider;
  clock: Clock;
  /** The CRM is the local CRM of `npm start` (LOCAL_CRM): every answer then carries `local: true`. @default false */
  local?: boolean;
}

function invalid(message: string, details?: IssueDetail[]): AppError {
  return new AppError(CRM_VALIDATION_CODE, message, details);
}

/** The tenant's connection, or 404 NOT_FOUND. */
async function connectionOf(deps: Pick<ConnectionApiDependencies, 'connections'>, principal: Principal): Promise<CrmConnection> {
  const connection = await deps.connections.get(principal.tenantId, 'hubspot');
  if (!connection)
    throw new AppError('NOT_FOUND', 'This tenant has no HubSpot connection; connect one with PUT /api/integrations/hubspot.');
  return connection;
}

/**
 * Use case: `PUT /api/integrations/hubspot`. The token is checked against
 * HubSpot first (its portal, its scopes); a refused token answers 400
 * INVALID_REQUEST with HubSpot's reason and keeps nothing. Then the
 * connection replaces the tenant's (its secrets sealed with the tenant's
 * key): reconnecting the same portal keeps when it was first connected and
 * its last sync, and clears its last error. Answers 200 with the view.
 */
export async function connectHubSpot(deps: ConnectionApiDependencies, principal: Principal, body: unknown): Promise<HttpResult> {
  const { hubspotConnectionSchema } = await connectionBody();
  const parsed = hubspotConnectionSchema.safeParse(body);
  if (!parsed.success) throw invalid(describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const request = parsed.data;

  let account;
  try {
    account = await deps.crm.connect({ accessToken: request.access_token }).verify();
  } catch (error) {
    if (error instanceof CrmCredentialsError) {
      throw invalid(`HubSpot refused the access token: ${error.reason}`, [
        { code: 'refused_by_hubspot', message: error.reason, path: ['access_token'] },
      ]);
    }
    if (error instanceof CrmRateLimitedError) {
      return errorResponse(
        { code: 'RATE_LIMITED', message: `HubSpot is rate limiting this portal; try again in ${error.retryAfterSeconds} s.` },
        { 'retry-after': String(error.retryAfterSeconds) },
      );
    }
    if (error instanceof CrmUnavailableError) {
      throw new AppError('SYSTEM_ERROR', `HubSpot could not check the token now (${error.message}); nothing was kept. Try again.`);
    }
    throw error;
  }

  for (let pass = 0; ; pass++) {
    const previous = await deps.connections.get(principal.tenantId, 'hubspot');
    const at = new Date(deps.clock.now()).toISOString();
    const samePortal = previous?.portal_id === account.accountId;
    const connection: CrmConnection = {
      tenant_id: principal.tenantId,
      provider: 'hubspot',
      portal_id: account.accountId,
      scopes: account.scopes,
      lead_status_map: request.lead_status_map ?? {},
      connected_at: samePortal && previous ? previous.connected_at : at,
      updated_at: at,
      ...(samePortal && previous?.last_sync_at ? { last_sync_at: previous.last_sync_at } : {}),
      has_client_secret: request.client_secret !== undefined,
    };
    try {
      await deps.connections.save(
        connection,
        { accessToken: request.access_token, ...(request.client_secret ? { clientSecret: request.client_secret } : {}) },
        previous,
      );
      return jsonResponse(200, { success: true, data: connectionView(connection, deps.local ?? false) });
    } catch (error) {
      if (!(error instanceof ConnectionChangedError) || pass >= 1) {
        if (error instanceof ConnectionChangedError) {
          throw new AppError('INVALID_TRANSITION', 'The HubSpot connection was changed by another request at the same time; try again.');
        }
        throw error;
      }
    }
  }
}

/** Use case: `GET /api/integrations/hubspot`, the tenant's connection (never a secret), or 404 NOT_FOUND. */
export async function showHubSpotConnection(
  deps: Pick<ConnectionApiDependencies, 'connections' | 'local'>,
  principal: Principal,
): Promise<HttpResult> {
  const connection = await connectionOf(deps, principal);
  return jsonResponse(200, { success: true, data: connectionView(connection, deps.local ?? false) });
}

/** Use case: `DELETE /api/integrations/hubspot`: forgets the connection and its secrets; 404 NOT_FOUND when there is none. */
export async function disconnectHubSpot(
  deps: Pick<ConnectionApiDependencies, 'connections' | 'local'>,
  principal: Principal,
): Promise<HttpResult> {
  const removed = await deps.connections.remove(principal.tenantId, 'hubspot');
  if (!removed) throw new AppError('NOT_FOUND', 'This tenant has no HubSpot connection.');
  return jsonResponse(200, {
    success: true,
    data: { provider: 'hubspot', ...(deps.local ? { local: true as const } : {}), portal_id: removed.portal_id, deleted: true },
  });
}
