import type { Principal } from '../access/api-keys';
import { respondWithCommand } from '../api/command-responses';
import { readIdempotencyKey } from '../api/idempotency-key';
import { startCommand, type StartDependencies } from '../commands/start';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import type { HttpResult } from '../platform/http/types';
import type { SiteDirectory } from '../sites/directory';
import { checkLeadFollowUp } from './checks';
import type { LeadStates } from './lead-state';
import { leadFollowUpPresenter } from './presenter';
import { parseLeadFollowUpRequest } from './schema';
import type { LeadFollowUpOutput } from './vocabulary';

export interface LeadFollowUpApiDependencies extends StartDependencies {
  sites: SiteDirectory;
  /** LEAD_FOLLOW_UP_OUTPUT. */
  defaultOutput: LeadFollowUpOutput;
  /** Longest `Prefer: wait` this route honours (below its function's timeout). */
  maxWaitSeconds: number;
  /** The tenant's unsubscribes of the lead, whose channels are left out. @default none read */
  leadStates?: Pick<LeadStates, 'get'>;
}

export interface LeadFollowUpCall {
  principal: Principal;
  /** The parsed JSON body. */
  body: unknown;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * Use case: `POST /api/agents/sales/leadFollowUp`. Validates the body, runs
 * the synchronous checks in the order, records the command and
 * queues the sales job (once per Idempotency-Key and body), then answers
 * 202, or the finished result when the caller sent `Prefer: wait=N`.
 */
export async function acceptLeadFollowUp(deps: LeadFollowUpApiDependencies, call: LeadFollowUpCall): Promise<HttpResult> {
  const request = parseLeadFollowUpRequest(call.body, deps.defaultOutput);
  const owner = { tenantId: call.principal.tenantId, siteId: request.siteId, leadId: request.leadId };
  // The tenant's state of the lead is read beside the site and the lead (checks await it last), not before them.
  const state = deps.leadStates?.get(owner);
  state?.catch(() => undefined);
  await checkLeadFollowUp(deps.sites, request, call.principal, state);
  const idempotencyKey = readIdempotencyKey(call.headers, 'INVALID_REQUEST');
  const { command } = await startCommand(deps, {
    type: 'lead_follow_up',
    tenantId: call.principal.tenantId,
    // Its key brought the tenant's own limits: admission reads no record.
    tenantLimits: call.principal.limits ?? null,
    siteId: request.siteId,
    request,
    ...(idempotencyKey ? { idempotency: { key: idempotencyKey, bodyHash: sha256Hex(canonicalJson(call.body)) } } : {}),
  });
  return respondWithCommand(deps.commands, command, call.headers.prefer, leadFollowUpPresenter(request), deps.maxWaitSeconds);
}
