import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod/mini';
import '../platform/zod-messages';
import type { CommandRecord } from '../commands/record';
import { DEFAULT_COMMAND_RETENTION_MS } from '../commands/retention';
import { startCommand, type StartDependencies } from '../commands/start';
import type { JobDefinition, PhaseInput, PhaseOutcome } from '../commands/worker';
import type { CommandPatch } from '../commands/store';
import { epochSeconds } from '../platform/clock';
import { newId } from '../platform/ids';
import { memoize } from '../platform/memo';
import type { GeneratedBy, LlmClient } from '../providers/llm/port';
import type { SiteDirectory } from '../sites/directory';
import { leadReach, type Channel } from './channels';
import { checkLeadFollowUp, findActiveAgent, type CheckedLeadFollowUp } from './checks';
import type { LeadStates } from './lead-state';
import { writingContext, type WritingContext } from './context';
import type { CopywriterRequest } from './copywriter-request';
import type { FollowUpStore, StoredFollowUp } from './follow-up-store';
import { generateChecked } from './generation';
import type { LeadHistory } from './history';
import { followUpIntervalMs } from './interval';
import { copyRulesFor } from './copy-rules';
import { checkChannelMessages, type ChannelMessage, type ChannelMessages } from './message-checks';
import { offlineChannelMessages, offlineSequence } from './offline-writer';
import { channelMessagesResult, followUpSequenceResult } from './presenter';
import { leadFollowUpKind } from './kinds';
import type { LeadFollowUpProgress, SalesProgress } from './progress';
import { describeInterval, salesMessagesPrompt, salesSequencePrompt } from './prompts';
import { parseLeadFollowUpRequest, type LeadFollowUpRequest } from './schema';
import type { LeadFollowUpOutput } from './vocabulary';
import { buildSequence, checkWrittenSequence, planSequenceTypes, sequenceLength, type FollowUpItem } from './sequence';
import { writtenSequenceSchema } from './sequence-answer';

/** Upper bounds on answer length, in tokens. */
const MESSAGES_MAX_TOKENS = 2_500;
const SEQUENCE_MAX_TOKENS = 4_000;

/** What the sales phase works with (it starts the copywriter phase's command). */
export interface SalesPhaseDependencies extends StartDependencies {
  sites: SiteDirectory;
  followUps: FollowUpStore;
  /** What each tenant reported about its leads: the command's tenant's window of it joins the lead's interactions. */
  history: LeadHistory;
  /** The tenant's stage of the lead and its unsubscribes (left-out channels), moved by its lead events. @default none read */
  leadStates?: Pick<LeadStates, 'get'>;
  /** The model, resolved on first use (its key may come from Secrets Manager). */
  llm: () => Promise<LlmClient>;
  /** LEAD_FOLLOW_UP_OUTPUT: the `output` of a producer's job that names none. */
  defaultOutput: LeadFollowUpOutput;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

type LeadFollowUpCommand = CommandRecord<LeadFollowUpRequest, LeadFollowUpProgress>;

/**
 * The sales worker's job: runs the sales phase of a lead follow-up command.
 * A producer's request is validated with the route's schema.
 */
export function salesJob(deps: SalesPhaseDependencies): JobDefinition<LeadFollowUpRequest, LeadFollowUpProgress> {
  return {
    type: 'lead_follow_up',
    kind: leadFollowUpKind,
    parseProducerRequest: (raw) => parseLeadFollowUpRequest(raw, deps.defaultOutput),
    siteIdOf: (request) => request.siteId,
    run: (input) => runSalesPhase(deps, input),
  };
}

/**
 * Use case: phase 1 of a lead follow-up. Runs the checks again against the
 * stored data, reads the command's tenant's window of the lead's history
 * (another tenant's reports never reach it), makes one model call for every channel (or the sequence),
 * checks the copy with one repair, and keeps the output in `progress.sales`
 * before anything else, so a redelivered job never calls the model again.
 * Then: a sequence is saved and the command completes; messages go to the
 * site's active copywriter (phase 2, `handed_off`) or, without one, complete
 * the command.
 */
export async function runSalesPhase(
  deps: SalesPhaseDependencies,
  input: PhaseInput<LeadFollowUpRequest, LeadFollowUpProgress>,
): Promise<PhaseOutcome> {
  const { command, request } = input;
  // The first attempt at the command (the claim counted none before it) can have saved nothing yet.
  const firstAttempt = command.attempts <= 1 && command.progress?.sales === undefined;
  let progress = command.progress?.sales;
  let childId = command.child_ids?.[0];
  // What this command's record takes with the hand-off, when it has not kept its sales output yet.
  let handOff: CommandPatch | undefined;
  if (!progress) {
    const owner = { tenantId: command.tenant_id, siteId: request.siteId, leadId: request.leadId };
    // Read beside the site and the lead (the checks await it last).
    const pendingState = deps.leadStates?.get(owner);
    pendingState?.catch(() => undefined);
    const checked = await checkLeadFollowUp(deps.sites, request, undefined, pendingState);
    const state = await pendingState;
    // The stage the tenant's own lead events moved the lead to stands over the site's.
    if (state?.lead_stage) checked.lead = { ...checked.lead, lead_stage: state.lead_stage };
    const history = await deps.history.window(
      { tenantId: command.tenant_id, siteId: checked.site.id, leadId: checked.lead.id },
      deps.clock.now(),
    );
    const context = writingContext(checked, request, history);
    const llm = await deps.llm();
    progress =
      request.output === 'follow_up_sequence'
        ? await writeSequence(deps, llm, command, request, checked, context)
        : await writeMessages(deps, llm, context, checked.site.id);
    if (progress.output === 'channel_messages' && progress.copywriter_agent_id) childId = newId();
    // Kept so a redelivery never calls the model again: a sequence before it is saved; messages handed to the copywriter
    // in the same write as its command (one write of this command's item, not two); messages that complete the command
    // at once need no keeping, as the completion holds them in its result.
    if (progress.output === 'follow_up_sequence') await keepProgress(deps, command, progress);
    else if (childId) handOff = { progress: { ...command.progress, sales: progress }, child_ids: [childId] };
  }
  if (progress.output === 'follow_up_sequence') {
    const items = progress.follow_ups.map((item) => stored(item, command, deps.commandRetentionMs ?? DEFAULT_COMMAND_RETENTION_MS));
    const result = { ...followUpSequenceResult(request.siteId, request.leadId, progress.follow_ups, progress) };
    // The first attempt writes the follow-ups with the completion (one transaction, under its condition on the command);
    // an attempt after one that may have saved some saves them item by item, each only if absent, then completes.
    if (firstAttempt) return { status: 'completed', result, also: deps.followUps.firstSaveItems(items) };
    await deps.followUps.saveSequence(items);
    return { status: 'completed', result };
  }
  if (progress.copywriter_agent_id && childId) {
    const childRequest = { parentId: command.id, siteId: request.siteId, leadId: request.leadId, agentId: progress.copywriter_agent_id };
    await handOffToCopywriter(deps, command, childId, childRequest, handOff);
    return { status: 'handed_off' };
  }
  return {
    status: 'completed',
    result: { ...channelMessagesResult(progress.context, progress.messages, progress, { sales: command.id, copywriter: null }) },
  };
}

async function keepProgress(deps: SalesPhaseDependencies, command: LeadFollowUpCommand, sales: SalesProgress): Promise<void> {
  const recorded = await deps.commands.recordProgress(command.id, { progress: { ...command.progress, sales } }, deps.clock.now());
  if (!recorded) throw new Error(`Command ${command.id} is no longer in progress; its sales output was not kept`);
}

/** The answer schema for a set of channels: each exactly once, each `{title, message, strategy}` (built once per channel list). */
export const channelMessagesSchema: (channels: readonly Channel[]) => z.ZodMiniType<ChannelMessages> = memoize(
  (channels) => {
    const message: z.ZodMiniType<ChannelMessage> = z.object({ title: z.string(), message: z.string(), strategy: z.string() });
    return z.object(Object.fromEntries(channels.map((channel) => [channel, message])));
  },
  (channels) => channels.join(','),
);

async function writeMessages(
  deps: SalesPhaseDependencies,
  llm: LlmClient,
  context: WritingContext,
  siteId: string,
): Promise<SalesProgress> {
  const answer = await generateChecked(
    llm,
    {
      schemaName: 'lead_follow_up_messages',
      schema: channelMessagesSchema(context.channels),
      messages: salesMessagesPrompt(context),
      offline: () => offlineChannelMessages(context),
      maxTokens: MESSAGES_MAX_TOKENS,
    },
    (value, generatedBy) => checkChannelMessages(value, context.channels, copyRulesFor(context, generatedBy)),
  );
  warnAboutLanguage(deps, context, answer.generatedBy);
  const copywriter = await findActiveAgent(deps.sites, siteId, 'copywriter');
  return {
    output: 'channel_messages',
    context,
    messages: pickChannels(answer.value, context.channels),
    generated_by: answer.generatedBy,
    model: answer.model,
    copywriter_agent_id: copywriter?.id ?? null,
  };
}

async function writeSequence(
  deps: SalesPhaseDependencies,
  llm: LlmClient,
  command: LeadFollowUpCommand,
  request: LeadFollowUpRequest,
  checked: CheckedLeadFollowUp,
  context: WritingContext,
): Promise<SalesProgress> {
  const reach = { channels: checked.channels, hasPhone: leadReach(checked.lead, request.phone_number).hasPhone };
  const types = planSequenceTypes(checked.followUpType, reach, sequenceLength(context.lead.lead_stage));
  const intervalMs = followUpIntervalMs(request.followUpInterval);
  const answer = await generateChecked(
    llm,
    {
      schemaName: 'lead_follow_up_sequence',
      schema: writtenSequenceSchema(types.length),
      messages: salesSequencePrompt(context, types, describeInterval(intervalMs)),
      offline: () => offlineSequence(context, types),
      maxTokens: SEQUENCE_MAX_TOKENS,
    },
    (value, generatedBy) => checkWrittenSequence(value, types, copyRulesFor(context, generatedBy)),
  );
  warnAboutLanguage(deps, context, answer.generatedBy);
  const followUps = buildSequence({
    commandId: command.id,
    siteId: checked.site.id,
    leadId: checked.lead.id,
    userId: request.userId ?? checked.agent.user_id ?? null,
    leadStage: context.lead.lead_stage,
    startMs: deps.clock.now(),
    intervalMs,
    types,
    written: answer.value.follow_ups,
  });
  return { output: 'follow_up_sequence', follow_ups: followUps, generated_by: answer.generatedBy, model: answer.model };
}

/**
 * Phase 2 starts: the child command is started once, in one transaction with
 * `parentPatch` (the parent's sales output and the child's id in
 * `child_ids`) when the parent has not kept them yet; a second start (a
 * redelivery, the parent already keeping them) finds the child and queues
 * its job only if no worker has taken it up. The copywriter runs the
 * child's stored request, never a job's.
 */
async function handOffToCopywriter(
  deps: SalesPhaseDependencies,
  parent: LeadFollowUpCommand,
  childId: string,
  request: CopywriterRequest,
  parentPatch: CommandPatch | undefined,
): Promise<void> {
  await startCommand(deps, {
    type: 'copywriter',
    id: childId,
    parentId: parent.id,
    tenantId: parent.tenant_id,
    ...(parent.site_id === undefined ? {} : { siteId: parent.site_id }),
    request,
    ...(parentPatch ? { parentPatch } : {}),
  });
  deps.logger?.info('Lead follow-up handed to the copywriter', { commandId: parent.id, childId });
}

/**
 * A follow-up as saved: its owner and origin, and its expiry, COMMAND_RETENTION_DAYS after its schedule (like its command's, after its
 * creation).
 */
function stored(item: FollowUpItem, command: LeadFollowUpCommand, retentionMs: number): StoredFollowUp {
  return {
    ...item,
    tenant_id: command.tenant_id,
    command_id: command.id,
    created_at: command.created_at,
    updated_at: command.created_at,
    expires_at: epochSeconds(Date.parse(item.scheduled_for) + retentionMs),
  };
}

function pickChannels(messages: ChannelMessages, channels: readonly Channel[]): ChannelMessages {
  const picked: ChannelMessages = {};
  for (const channel of channels) {
    const item = messages[channel];
    if (item) picked[channel] = { title: item.title.trim(), message: item.message.trim(), strategy: item.strategy.trim() };
  }
  return picked;
}

function warnAboutLanguage(deps: SalesPhaseDependencies, context: WritingContext, generatedBy: GeneratedBy): void {
  if (copyRulesFor(context, generatedBy).language === null && context.lead.language) {
    deps.logger?.warn('The offline writer wrote English for a lead in another language', { language: context.lead.language });
  }
}
