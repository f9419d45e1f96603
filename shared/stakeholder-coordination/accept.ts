import type { Principal } from '../access/api-keys';
import { respondWithCommand } from '../api/command-responses';
import { startCommand, type StartDependencies } from '../commands/start';
import { AppError } from '../platform/errors';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import type { HttpResult } from '../platform/http/types';
import { newId } from '../platform/ids';
import { itemSize, valueSize } from '../platform/item-size';
import { cutText } from '../platform/text';
import type { ConversationStore } from '../sites/conversations';
import type { SiteDirectory } from '../sites/directory';
import type { SiteWorkStore } from '../sites/site-work';
import { checkStakeholderCoordination, type CheckedStakeholderCoordination } from './checks';
import { newCall, STAKEHOLDER_SUPERVISORS, STAKEHOLDER_TASK, stakeholderDescription, stakeholderTargets } from './command-object';
import { CONTEXT_SUMMARY_BOUNDS, contextSummary } from './context-summary';
import type { MeetingContext, MeetingDetails } from './context';
import { isDynamic, offlineMeetingDetails } from './offline-meeting';
import { stakeholderPresenter } from './presenter';
import { systemPrompts, type SystemPrompt } from './prompts';
import { parseStakeholderCoordinationRequest, type StakeholderCoordinationRequest } from './schema';

/** Longest Idempotency-Key accepted (the job envelope's limit). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface StakeholderApiDependencies extends StartDependencies {
  sites: SiteDirectory;
  conversations: ConversationStore;
  /** The tasks and requirements the tenant's earlier calls made on the site, for the context summary. */
  siteWork: Pick<SiteWorkStore, 'listTasks' | 'listRequirements'>;
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
 * body, runs the checks in the order of docs/voice-calls.md "Errors", reads the site's
 * context summary (bounded queries; with what the tenant's earlier calls made), starts a conversation when none was
 * named, builds the meeting details and both system prompts, and records
 * the command with its call (`pending`, when numbers were given), then
 * queues the call job (once per Idempotency-Key and body). Answers 202 at
 * once, or the finished result when the caller sent `Prefer: wait=N`.
 * A missing title or objective is written now by the deterministic writer
 * and marked `dynamic`; the worker settles it (the model, when configured)
 * before the command completes.
 */
export async function acceptStakeholderCoordination(deps: StakeholderApiDependencies, call: StakeholderCall): Promise<HttpResult> {
  const request = await parseStakeholderCoordinationRequest(call.body);
  const checked = await checkStakeholderCoordination(deps, request, call.principal);
  const idempotencyKey = readIdempotencyKey(call.headers);
  const summary = await contextSummary(deps.sites, checked.site, { store: deps.siteWork, tenantId: call.principal.tenantId });

  const commandId = newId();
  const conversationId = checked.conversation?.id ?? newId();
  const context = meetingContext(request, checked, conversationId, summary);
  const meeting: MeetingDetails = {
    ...offlineMeetingDetails(context, { title: request.meeting_title, objective: request.meeting_objective }),
    dynamic: isDynamic({ title: request.meeting_title, objective: request.meeting_objective }),
  };
  const initial = {
    targets: stakeholderTargets(context, meeting),
    context,
    supervisors: STAKEHOLDER_SUPERVISORS.map((supervisor) => ({ ...supervisor })),
    task: STAKEHOLDER_TASK,
    description: stakeholderDescription(context),
    ...(context.phone_number ? { call: newCall(context.phone_number, deps.clock.now()) } : {}),
  };
  checkKeptSize(request, initial, { prompts: systemPrompts(context, meeting), meeting });
  if (!checked.conversation) await startConversation(deps, checked, { id: conversationId, tenantId: call.principal.tenantId, commandId });
  const { command } = await startCommand(deps, {
    type: 'stakeholder_coordination',
    id: commandId,
    tenantId: call.principal.tenantId,
    // Its key brought the tenant's own limits: admission reads no record.
    tenantLimits: call.principal.limits ?? null,
    siteId: request.site_id,
    request,
    ...(idempotencyKey ? { idempotency: { key: idempotencyKey, bodyHash: sha256Hex(canonicalJson(call.body)) } } : {}),
    initial,
  });
  return respondWithCommand(deps.commands, command, call.headers.prefer, stakeholderPresenter(request), deps.maxWaitSeconds);
}

/**
 * A request that names no conversation starts one. It is written before
 * the command, so the id the answer shows can be named by the next request
 * at once; a replayed request (same Idempotency-Key) leaves an unused one
 * behind, which is harmless.
 */
async function startConversation(
  deps: StakeholderApiDependencies,
  checked: CheckedStakeholderCoordination,
  started: { id: string; tenantId: string; commandId: string },
): Promise<void> {
  await deps.conversations.create({
    id: started.id,
    site_id: checked.site.id,
    tenant_id: started.tenantId,
    command_id: started.commandId,
    created_at: new Date(deps.clock.now()).toISOString(),
  });
}

/**
 * Most bytes a stakeholder command may take when accepted: its request, its
 * command object (context, targets with both system prompts, …), and what
 * its result will copy of them (the prompts, the meeting details, the
 * context summary when asked for). The rest of DynamoDB's 400 KB is the
 * call's: its transcript (at most 64 KiB), its meeting summary (at most
 * 16 KiB) and the call record. A request at every limit in plain Latin text
 * on an ordinary site takes about 100 KB; only several limits at once in
 * wide characters (Chinese, Japanese, Korean: three bytes each) meet it.
 * Bound: ≤ 240 KiB accepted, ≤ 340 KB once the call is summarized.
 */
export const ACCEPTED_MEETING_MAX_BYTES = 240 * 1024;

/** Refuses (INVALID_REQUEST, nothing kept) a meeting whose command would pass {@link ACCEPTED_MEETING_MAX_BYTES}. */
function checkKeptSize(
  request: StakeholderCoordinationRequest,
  initial: { context: MeetingContext } & Record<string, unknown>,
  copied: { prompts: readonly SystemPrompt[]; meeting: MeetingDetails },
): void {
  const bytes =
    itemSize({ request, ...initial }) +
    valueSize(copied.prompts) +
    valueSize({ title: copied.meeting.title, objective: copied.meeting.objective }) +
    (request.include_context_summary ? valueSize(initial.context.summary) : 0);
  if (bytes <= ACCEPTED_MEETING_MAX_BYTES) return;
  throw new AppError('INVALID_REQUEST', 'The meeting is too large to keep: shorten its agenda, its participants or its objective.', [
    {
      code: 'too_big',
      message: `The meeting would take ${Math.ceil(bytes / 1024)} KiB of the ${ACCEPTED_MEETING_MAX_BYTES / 1024} KiB a command keeps for it`,
      path: ['meeting_agenda'],
    },
  ]);
}

/** The agent's standing instructions as the meeting context keeps them (a site's text may hold 10,000 characters). */
const INSTRUCTIONS_CHARACTERS = 2_000;

/**
 * The command's context: what its prompts are built from, read from the
 * site now; the site's names cut like the summary's titles
 * (CONTEXT_SUMMARY_BOUNDS), so the context and both prompts stay bounded.
 */
function meetingContext(
  request: StakeholderCoordinationRequest,
  checked: CheckedStakeholderCoordination,
  conversationId: string,
  summary: MeetingContext['summary'],
): MeetingContext {
  const { site, agent, lead } = checked;
  const name = (value: string) => cutText(value, CONTEXT_SUMMARY_BOUNDS.titleCharacters);
  return {
    conversation_id: conversationId,
    user_id: checked.userId ?? null,
    site: { id: site.id, name: name(site.name), url: site.url ?? null },
    agent: agent
      ? {
          id: agent.id,
          name: name(agent.name),
          instructions: agent.instructions === undefined ? null : cutText(agent.instructions, INSTRUCTIONS_CHARACTERS),
        }
      : null,
    lead: lead ? { id: lead.id, name: name(lead.name), company: lead.company === undefined ? null : name(lead.company) } : null,
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
