import type { Principal } from '../access/api-keys';
import { siteForPrincipal } from '../access/site-access';
import { respondWithCommand } from '../api/command-responses';
import { readIdempotencyKey } from '../api/idempotency-key';
import { startCommand, type StartDependencies } from '../commands/start';
import { AppError } from '../platform/errors';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import type { HttpResult } from '../platform/http/types';
import type { SiteDirectory } from '../sites/directory';
import { CRM_VALIDATION_CODE } from './connection-api';
import type { ConnectionStore } from './connection-store';
import { parseCrmImportRequest } from './import-request';

/** What starting an import works with. */
export interface ImportApiDependencies extends StartDependencies {
  connections: Pick<ConnectionStore, 'get'>;
  sites: SiteDirectory;
  /** Longest `Prefer: wait` honoured (below the function's timeout). */
  maxWaitSeconds: number;
}

/**
 * Use case: `POST /api/integrations/hubspot/import`. Checks the body (400),
 * the site (404 SITE_NOT_FOUND, 403 FORBIDDEN when the key does not cover
 * it) and the tenant's connection (404 NOT_FOUND), then starts a
 * `crm_import` command (once per Idempotency-Key and body) and answers 202
 * with its id.
 */
export async function startCrmImport(
  deps: ImportApiDependencies,
  call: { principal: Principal; body: unknown; headers: Readonly<Record<string, string | undefined>> },
): Promise<HttpResult> {
  const request = parseCrmImportRequest(call.body);
  const idempotencyKey = readIdempotencyKey(call.headers, CRM_VALIDATION_CODE);
  await siteForPrincipal(deps.sites, call.principal, request.site_id);
  if (!(await deps.connections.get(call.principal.tenantId, 'hubspot'))) {
    throw new AppError('NOT_FOUND', 'This tenant has no HubSpot connection; connect one with PUT /api/integrations/hubspot.');
  }
  const { command } = await startCommand(deps, {
    type: 'crm_import',
    tenantId: call.principal.tenantId,
    // Its key brought the tenant's own limits: admission reads no record.
    tenantLimits: call.principal.limits ?? null,
    siteId: request.site_id,
    request,
    ...(idempotencyKey ? { idempotency: { key: idempotencyKey, bodyHash: sha256Hex(canonicalJson(call.body)) } } : {}),
  });
  return respondWithCommand(
    deps.commands,
    command,
    call.headers.prefer,
    { accepted: () => ({ site_id: request.site_id, source: request.source.kind }) },
    deps.maxWaitSeconds,
  );
}
