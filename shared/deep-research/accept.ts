import type { Principal } from '../access/api-keys';
import { respondWithCommand } from '../api/command-responses';
import { readIdempotencyKey } from '../api/idempotency-key';
import { startCommand, type StartDependencies } from '../commands/start';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import type { HttpResult } from '../platform/http/types';
import { deepResearchPresenter } from './presenter';
import { buildSearchQuery } from './query';
import { parseDeepResearchRequest } from './schema';

export interface DeepResearchApiDependencies extends StartDependencies {
  /** Longest `Prefer: wait` this route honours (below its function's timeout). */
  maxWaitSeconds: number;
}

export interface DeepResearchCall {
  principal: Principal;
  /** The parsed JSON body. */
  body: unknown;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * Use case: `POST /api/deepResearch/operation`. Validates the body, records
 * the command (it concerns no site: any key of the tenant may run one, and
 * only that tenant reads it) and queues the research job, once per
 * Idempotency-Key and body; answers 202 with the query that will run, or
 * the finished result when the caller sent `Prefer: wait=N`.
 */
export async function acceptDeepResearch(deps: DeepResearchApiDependencies, call: DeepResearchCall): Promise<HttpResult> {
  const request = parseDeepResearchRequest(call.body);
  const idempotencyKey = readIdempotencyKey(call.headers, 'VALIDATION_ERROR');
  const { command } = await startCommand(deps, {
    type: 'deep_research',
    tenantId: call.principal.tenantId,
    // Its key brought the tenant's own limits: admission reads no record.
    tenantLimits: call.principal.limits ?? null,
    request,
    ...(idempotencyKey ? { idempotency: { key: idempotencyKey, bodyHash: sha256Hex(canonicalJson(call.body)) } } : {}),
  });
  return respondWithCommand(
    deps.commands,
    command,
    call.headers.prefer,
    deepResearchPresenter(request, buildSearchQuery(request)),
    deps.maxWaitSeconds,
  );
}
