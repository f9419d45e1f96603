import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod/mini';
import '../platform/zod-messages';
import { finishCommand, type FinishDependencies } from '../commands/finish';
import { readCommand } from '../commands/kind';
import type { CommandRecord } from '../commands/record';
import type { JobDefinition, PhaseInput, PhaseOutcome } from '../commands/worker';
import { AppError, type ErrorInfo } from '../platform/errors';
import { describeError } from '../platform/logger';
import { memoize } from '../platform/memo';
import { LlmError, type LlmClient } from '../providers/llm/port';
import type { SiteDirectory } from '../sites/directory';
import type { Channel } from './channels';
import { isActiveAgent } from './checks';
import { agentSummary } from './context';
import { copyRulesFor } from './copy-rules';
import type { CopywriterRequest } from './copywriter-request';
import { generateChecked } from './generation';
import { checkChannelMessages, type ChannelMessages } from './message-checks';
import { offlineRefinement } from './offline-writer';
import { channelMessagesResult } from './presenter';
import { copywriterKind, leadFollowUpKind } from './kinds';
import {
  copywriterOutcomeSchema,
  type CopywriterCommandProgress,
  type CopywriterProgress,
  type LeadFollowUpProgress,
  type SalesProgress,
} from './progress';
import type { LeadFollowUpRequest } from './schema';
import { copywriterPrompt } from './prompts';

const REFINEMENT_MAX_TOKENS = 2_500;

/** What the copywriter phase works with (it ends its parent command). */
export interface CopywriterPhaseDependencies extends FinishDependencies {
  sites: SiteDirectory;
  /** The model, resolved on first use. */
  llm: () => Promise<LlmClient>;
  /** The queue's maxReceiveCount: on the last attempt an unexpected error still lets the sales content stand. */
  maxReceiveCount: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

type MessagesProgress = Extract<SalesProgress, { output: 'channel_messages' }>;
type Refined = Partial<Record<Channel, { title: string; message: string }>>;
type LeadFollowUpCommand = CommandRecord<LeadFollowUpRequest, LeadFollowUpProgress>;
type CopywriterCommand = CommandRecord<CopywriterRequest, CopywriterCommandProgress>;

/** The copywriter worker's job. Only the sales phase starts copywriter commands; producers cannot. */
export function copywriterJob(deps: CopywriterPhaseDependencies): JobDefinition<CopywriterRequest, CopywriterCommandProgress> {
  return {
    type: 'copywriter',
    kind: copywriterKind,
    siteIdOf: (request) => request.siteId,
    run: (input) => runCopywriterPhase(deps, input),
  };
}

/**
 * Use case: phase 2 of a lead follow-up. Refines the sales messages (one
 * call, one repair, same checks) and completes the parent with the final
 * messages, in one write that also counts what the refinement used; then
 * finishes itself with the same outcome. When refinement fails, the sales
 * content stands: the parent completes with `copywriter: null` and the
 * reason in its warnings, and this command fails with that reason. Every
 * run looks at the parent first: a job redelivered after a crash between
 * the two completions reads its outcome off the finished parent (a crash
 * before the parent's completion runs the refinement again, as nothing of
 * it was written).
 */
export async function runCopywriterPhase(
  deps: CopywriterPhaseDependencies,
  input: PhaseInput<CopywriterRequest, CopywriterCommandProgress>,
): Promise<PhaseOutcome> {
  const { command: child, request } = input;
  const parent = await loadParent(deps, child, request);
  // An outcome kept by an earlier version of this phase, which recorded it before completing the parent.
  let outcome = child.progress?.copywriter;
  if (parent.status !== 'in_progress') return childOutcome(outcome ?? outcomeHeldBy(parent, child.id), parent);
  const sales = parent.progress?.sales;
  if (sales?.output !== 'channel_messages') {
    throw new AppError('SALES_COMMAND_FAILED', 'The sales phase left no messages to refine.');
  }

  outcome ??= await refine(deps, sales, request, input.attempt);
  const final = outcome.ok
    ? channelMessagesResult(sales.context, outcome.messages, outcome, { sales: parent.id, copywriter: child.id })
    : channelMessagesResult(sales.context, sales.messages, sales, { sales: parent.id, copywriter: null });
  const warnings = outcome.ok ? undefined : [...(parent.warnings ?? []), outcome.error];
  await finishCommand(deps, parent, { status: 'completed', result: { ...final }, ...(warnings ? { patch: { warnings } } : {}) });
  return childOutcome(outcome, parent);
}

/**
 * This phase's outcome as its finished parent holds it: the copy the parent completed with when it names this
 * command, the reason it completed with the sales content instead (its last warning), or, for a parent that ended
 * some other way, that the lead follow-up finished before this phase ran.
 */
function outcomeHeldBy(parent: LeadFollowUpCommand, childId: string): CopywriterProgress {
  const result = parent.status === 'completed' ? parent.result : undefined;
  const ids = result?.command_ids as { copywriter?: unknown } | undefined;
  if (ids?.copywriter === childId) {
    const copy = copywriterOutcomeSchema().safeParse({
      ok: true,
      messages: result?.messages,
      generated_by: result?.generated_by,
      model: result?.model,
    });
    if (copy.success) return copy.data;
  }
  const reason = parent.warnings?.at(-1);
  if (ids?.copywriter === null && reason) return { ok: false, error: reason };
  return { ok: false, error: { code: 'SALES_COMMAND_FAILED', message: 'The lead follow-up finished before the copywriter phase ran.' } };
}

async function loadParent(
  deps: CopywriterPhaseDependencies,
  child: CopywriterCommand,
  request: CopywriterRequest,
): Promise<LeadFollowUpCommand> {
  const refused = () => new AppError('INVALID_REQUEST', 'A copywriter command must come from the sales phase of a lead follow-up.');
  if (child.parent_id !== request.parentId) throw refused();
  const parent = await deps.commands.get(request.parentId);
  if (!parent || parent.tenant_id !== child.tenant_id || !parent.child_ids?.includes(child.id)) throw refused();
  return readCommand(leadFollowUpKind, parent);
}

function childOutcome(outcome: CopywriterProgress, parent: LeadFollowUpCommand): PhaseOutcome {
  if (!outcome.ok) return { status: 'failed', error: outcome.error };
  return {
    status: 'completed',
    result: { parent_id: parent.id, messages: outcome.messages, generated_by: outcome.generated_by, model: outcome.model },
  };
}

/**
 * The answer schema of a refinement: `{title, message}` for each channel; strategies stay the sales agent's (built once per channel list).
 */
export const refinementSchema: (channels: readonly Channel[]) => z.ZodMiniType<Refined> = memoize(
  (channels) => {
    const item = z.object({ title: z.string(), message: z.string() });
    return z.object(Object.fromEntries(channels.map((channel) => [channel, item])));
  },
  (channels) => channels.join(','),
);

/** The refined copy with each channel's strategy from the sales draft. */
export function withStrategies(refined: Refined, draft: ChannelMessages, channels: readonly Channel[]): ChannelMessages {
  const messages: ChannelMessages = {};
  for (const channel of channels) {
    const item = refined[channel];
    const original = draft[channel];
    if (item && original) messages[channel] = { title: item.title.trim(), message: item.message.trim(), strategy: original.strategy };
  }
  return messages;
}

async function refine(
  deps: CopywriterPhaseDependencies,
  sales: MessagesProgress,
  request: CopywriterRequest,
  attempt: number,
): Promise<CopywriterProgress> {
  const { context, messages: draft } = sales;
  try {
    const agent = await deps.sites.getItem(request.siteId, 'agents', request.agentId);
    if (!agent || !isActiveAgent(agent)) {
      return failed('AGENT_NOT_FOUND', `Copywriter agent ${request.agentId} is no longer active on the site.`);
    }
    const llm = await deps.llm();
    const answer = await generateChecked(
      llm,
      {
        schemaName: 'lead_follow_up_refinement',
        schema: refinementSchema(context.channels),
        messages: copywriterPrompt(context, agentSummary(agent), draft),
        offline: () => offlineRefinement(context, draft),
        maxTokens: REFINEMENT_MAX_TOKENS,
      },
      (value, generatedBy) =>
        checkChannelMessages(withStrategies(value, draft, context.channels), context.channels, copyRulesFor(context, generatedBy)),
    );
    return {
      ok: true,
      messages: withStrategies(answer.value, draft, context.channels),
      generated_by: answer.generatedBy,
      model: answer.model,
    };
  } catch (error) {
    if (error instanceof AppError) return failed(error.code, error.message, error.details);
    if (error instanceof LlmError) return failed('SALES_COMMAND_FAILED', error.message);
    if (attempt >= deps.maxReceiveCount) {
      deps.logger?.warn('Copywriter phase failed on its last delivery; the sales content stands', { error: describeError(error) });
      return failed('SYSTEM_ERROR', 'The copywriter phase failed unexpectedly.');
    }
    throw error;
  }
}

function failed(code: ErrorInfo['code'], reason: string, details?: ErrorInfo['details']): CopywriterProgress {
  const message = `Copywriter phase failed; the sales content stands. ${reason}`;
  return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
}
