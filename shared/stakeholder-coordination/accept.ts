import type { Principal } from '../access/api-keys';
import { respondWithCommand } from '../api/command-responses';
import { startCommand, type StartDependencies } from '../commands/start';
import { AppError } from '../platform/errors';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import type { HttpResult } from '../platform/http/types';
import { newId } from '../platform/ids';
import type { ConversationStore } from '../sites/conversations';
import type { SiteDirectory } from '../sites/directory';
import { checkStakeholderCoordination, type CheckedStakeholderCoordination } from './checks';
import { newCall, STAKEHOLDER_SUPERVISORS, STAKEHOLDER_TASK, stakeholderDescription, stakeholderTargets } from './command-object';
import { contextSummary } from './context-summary';
import type { MeetingContext, MeetingDetails } from './context';
import { isDynamic, offlineMeetingDetails } from './meeting-details';
import { stakeholderPresenter } from './presenter';
import { parseStakeholderCoordinationRequest, type StakeholderCoordinationRequest } from './schema';

/** Longest Idempotency-Key accepted (the job envelope's limit). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface StakeholderApiDependencies extends StartDependencies {
  sites: SiteDirectory;
  conversations: ConversationStore;
  /** Longest `Prefer: wait` this route honours (below its function's timeout). */
  maxWaitSeconds: number;
}

export interface StakeholderCall {
  principal: Principal;
  /** The parsed JSON body. */
  body: unknown;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * Use case: `POST /api/agents/cmo/stakeholder-coordination`. Validates the
 * body, runs the checks in ARCHITECTURE.md's order, reads the site's
 * context summary (bounded queries), starts a conversation when none was
 * named, builds the meeting details and both system prompts, and records
 * the command with its call (`pending`, when numbers were given), then
 * queues the call job (once per Idempotency-Key and body). Answers 202 at
 * once, or the finished result when the caller sent `Prefer: wait=N`.
 * A missing title or objective is written now by the deterministic writer
 * and marked `dynamic`; the worker settles it (the model, when configured)
 * before the command completes.
 */
export async function acceptStakeholderCoordination(deps: StakeholderApiDependencies, call: StakeholderCall): Promise<HttpResult> {
  const request = parseStakeholderCoordinationRequest(call.body);
  const checked = await checkStakeholderCoordination(deps, request, call.principal);
  const idempotencyKey = readIdempotencyKey(call.headers);
  const summary = await contextSummary(deps.sites, checked.site);

  const commandId = newId();
  const conversationId = checked.conversation?.id ?? (await startConversation(deps, checked, call.principal.tenantId, commandId));
  const context = meetingContext(request, checked, conversationId, summary);
  const meeting: MeetingDetails = {
    ...offlineMeetingDetails(context, { title: request.meeting_title, objective: request.meeting_objective }),
    dynamic: isDynamic({ title: request.meeting_title, objective: request.meeting_objective }),
  };
  const { command } = await startCommand(deps, {
    type: 'stakeholder_coordination',
    id: commandId,
    tenantId: call.principal.tenantId,
    siteId: request.site_id,
    request,
    ...(idempotencyKey ? { idempotency: { key: idempotencyKey, bodyHash: sha256Hex(canonicalJson(call.body)) } } : {}),
    initial: {
      targets: stakeholderTargets(context, meeting),
      context,
      supervisors: STAKEHOLDER_SUPERVISORS.map((supervisor) => ({ ...supervisor })),
      task: STAKEHOLDER_TASK,
      description: stakeholderDescription(context),
      ...(context.phone_number ? { call: newCall(context.phone_number, deps.clock.now()) } : {}),
    },
  });
  return respondWithCommand(deps.commands, command, call.headers.prefer, stakeholderPresenter(request), deps.maxWaitSeconds);
}

/**
 * A request that names no conversation starts one. It is written before
 * the command, so the id the answer shows can be named by the next request
 * at once; a replayed request (same Idempotency-Key) leaves an unused one
 * behind, which is harmless.
 */
async function startConversation(deps: StakeholderApiDependencies, checked: CheckedStakeholderCoordination, tenantId: string, commandId: string): Promise<string> {
  const id = newId();
  await deps.conversations.create({ id, site_id: checked.site.id, tenant_id: tenantId, command_id: commandId, created_at: new Date(deps.clock.now()).toISOString() });
  return id;
}

/** The command's context: what its prompts are built from, read from the site now. */
function meetingContext(
  request: StakeholderCoordinationRequest,
  checked: CheckedStakeholderCoordination,
  conversationId: string,
  summary: MeetingContext['summary'],
): MeetingContext {
  const { site, agent, lead } = checked;
  return {
    conversation_id: conversationId,
    user_id: checked.userId ?? null,
    site: { id: site.id, name: site.name, url: site.url ?? null },
    agent: agent ? { id: agent.id, name: agent.name, instructions: agent.instructions ?? null } : null,
    lead: lead ? { id: lead.id, name: lead.name, company: lead.company ?? null } : null,
    visitor_id: checked.visitor?.id ?? null,
    participants: request.participants,
    agenda: request.meeting_agenda,
    phone_number: request.phone_numbers[0] ?? null,
    summary,
  };
}

function readIdempotencyKey(headers: StakeholderCall['headers']): string | undefined {
  const key = headers['idempotency-key']?.trim();
  if (key === undefined || key === '') return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError('INVALID_REQUEST', `The Idempotency-Key header is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, [
      { code: 'too_big', message: `At most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, path: ['Idempotency-Key'] },
    ]);
  }
  return key;
}
