import type { Logger } from '@aws-lambda-powertools/logger';
import { commandView } from '../api/command-responses';
import { noEvents, type EventPublisher } from '../commands/events';
import type { CommandRecord } from '../commands/record';
import type { CallCommand, CallCommandFields, MeetingSummaryRecord, TranscriptEntry } from '../calls/record';
import type { CommandStore } from '../commands/store';
import type { JobDefinition, PhaseInput, PhaseOutcome } from '../commands/worker';
import type { Clock } from '../platform/clock';
import { AppError } from '../platform/errors';
import { LlmUnavailableError, type ChatMessage, type LlmClient } from '../providers/llm/port';
import { callerTurns, NotACallError, readCallBrief, type CallBrief } from './call-brief';
import { NOTHING_SAID_REASON } from './end-of-call';
import { postCallSummaryKind, type PostCallSummaryProgress, type PostCallSummaryRequest } from './kinds';
import type { SiteWorkStore } from '../sites/site-work';
import { offlineMeetingSummary } from './summary-offline';
import {
  boundedMeetingSummary,
  emptyMeetingSummary,
  isEmptyMeetingSummary,
  meetingSummarySchema,
  type WrittenMeetingSummary,
} from './summary-schema';
import type { MeetingSummaryStore } from './summary-store';
import { NOTHING_USABLE_REASON, usableStatements } from './summary-usable';
import { siteWorkOf } from './summary-site-work';

/** Upper bound on the summary's length in tokens. */
const SUMMARY_MAX_TOKENS = 2_000;
/** Most transcript characters sent to the model (a call's transcript is bounded; this bounds a prompt). */
const MAX_TRANSCRIPT_CHARACTERS = 60_000;
/** Why a summary written from a usable transcript still holds nothing. */
export const NOTHING_NOTED_REASON = 'The call held no key point, decision, action item or requirement to note.';
/** The offline writer's label, on the summaries it writes. */
const OFFLINE_WRITER = 'offline-writer-v1';

/** What the post-call phase works with. */
export interface PostCallSummaryDependencies {
  commands: CommandStore;
  summaries: MeetingSummaryStore;
  /** Where the call's action items and requirements become the tenant's tasks and requirements of the site. */
  siteWork: Pick<SiteWorkStore, 'recordItems'>;
  clock: Clock;
  /** The model, resolved on first use. */
  llm: () => Promise<LlmClient>;
  /** Where `meeting_summary.created` goes (the completion webhooks). @default noEvents */
  events?: EventPublisher;
  /** The queue's maxReceiveCount: on the last attempt an unavailable model gives way to the offline writer. */
  maxReceiveCount: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

type SummaryCommand = CommandRecord<PostCallSummaryRequest, PostCallSummaryProgress>;
type KeptSummary = NonNullable<PostCallSummaryProgress['summary']>;

/** The post-call summary worker's job (queued by the end of a call; producers cannot). */
export function postCallSummaryJob(deps: PostCallSummaryDependencies): JobDefinition<PostCallSummaryRequest, PostCallSummaryProgress> {
  return {
    type: 'post_call_summary',
    kind: postCallSummaryKind,
    siteIdOf: () => undefined,
    run: (input) => runPostCallSummary(deps, input),
  };
}

/**
 * Use case: turns a finished call's transcript into the meeting summary
 * the POST_CALL prompt asks for (key points, decisions, action items,
 * requirements), stores it on the stakeholder command as `meeting_summary`
 * (once, by the child the command named), publishes
 * `meeting_summary.created`, and completes with the summary. The model
 * writes it with structured output; when it declines or answers unusably
 * the offline writer does (labelled `offline`, with the reason); an
 * unavailable model is retried with the job, and on the last attempt the
 * offline writer stands in, so a call never ends without its summary.
 * A transcript in which the person called said nothing usable (greetings,
 * fillers, noise) gets an empty summary with its `reason`, and no model.
 * The summary's action items and requirements become the tenant's tasks and
 * requirements of the site, in the same transaction as the summary's write:
 * they exist once exactly when the summary was stored once, however often
 * the job runs or the end of the call is reported.
 * A redelivered job reuses the summary it kept and repeats only the writes.
 * It reads the transcript only once its grace is over (the job is queued
 * that late; one that comes early is retried): a turn being answered as the
 * call ended may still add to it until then. A call in which the person
 * called said nothing is then `skipped`, with the reason, as the end of a
 * call without a grace decides at once.
 */
export async function runPostCallSummary(
  deps: PostCallSummaryDependencies,
  input: PhaseInput<PostCallSummaryRequest, PostCallSummaryProgress>,
): Promise<PhaseOutcome> {
  const { command: child, request } = input;
  const parent = await loadParent(deps, child, request);
  const openUntil = parent.transcript_open_until;
  if (typeof openUntil === 'number' && openUntil > deps.clock.now())
    throw new Error(`The transcript of ${parent.id} still takes the last turn for ${openUntil - deps.clock.now()} ms`);
  let brief: CallBrief;
  try {
    brief = readCallBrief(parent);
  } catch (error) {
    if (error instanceof NotACallError)
      throw new AppError('INVALID_OPERATION', 'The stakeholder command of this summary cannot be read as a call.');
    throw error;
  }

  let kept = child.progress?.summary;
  if (!kept && callerTurns(brief.transcript) === 0) return skip(deps, parent, child.id);
  if (!kept) {
    kept = await writeSummary(deps, brief, input.attempt);
    if (!(await deps.commands.recordProgress(child.id, { progress: { ...child.progress, summary: kept } }, deps.clock.now()))) {
      throw new Error(`Post-call summary ${child.id} is no longer in progress`);
    }
    if (kept.fallback_reason)
      deps.logger?.warn('Meeting summary written by the offline writer', { commandId: parent.id, reason: kept.fallback_reason });
  }

  const { fallback_reason: _reason, ...summary } = kept;
  const now = deps.clock.now();
  const written: MeetingSummaryRecord = {
    ...parent.meeting_summary!,
    ...summary,
    status: 'completed',
    created_at: new Date(now).toISOString(),
  };
  // The event commits with the summary's write (the outbox): a summary stored once is announced once.
  const staged = await (deps.events ?? noEvents).stage([
    {
      tenantId: parent.tenant_id,
      type: 'meeting_summary.created',
      data: {
        command_id: parent.id,
        meeting_summary: written,
        command: commandView({ ...parent, meeting_summary: written }).data as Record<string, unknown>,
      },
      idempotencyKey: `${parent.id}:meeting_summary.created`,
    },
  ]);
  const work =
    parent.site_id === undefined ? [] : deps.siteWork.recordItems(...siteWorkOf(parent.id, parent.tenant_id, parent.site_id, summary, now));
  const stored = await deps.summaries.markWritten(parent.id, child.id, summary, now, [...staged.items, ...work]);
  if (stored) {
    await staged.deliver();
    return { status: 'completed', result: { parent_id: parent.id, meeting_summary: written } };
  }
  // A redelivered job whose earlier attempt stored the summary (and its event) ends with it.
  const current = await deps.commands.get<CallCommandFields>(parent.id);
  if (current?.meeting_summary?.status !== 'completed')
    throw new AppError('INVALID_OPERATION', 'The stakeholder command no longer waits for this summary.');
  return { status: 'completed', result: { parent_id: parent.id, meeting_summary: current.meeting_summary } };
}

/** The person called said nothing: the summary is skipped, with the reason, and the child completes with it. */
async function skip(deps: PostCallSummaryDependencies, parent: CallCommand, childId: string): Promise<PhaseOutcome> {
  await deps.summaries.markSkipped(parent.id, NOTHING_SAID_REASON, deps.clock.now(), childId);
  // Skipped by this child now, or by an earlier delivery of its job.
  const current = await deps.commands.get<CallCommandFields>(parent.id);
  if (current?.meeting_summary?.status !== 'skipped' || current.meeting_summary.command_id !== childId)
    throw new AppError('INVALID_OPERATION', 'The stakeholder command no longer waits for this summary.');
  deps.logger?.info('Call ended without a word from the person called: no summary', { commandId: parent.id });
  return { status: 'completed', result: { parent_id: parent.id, meeting_summary: current.meeting_summary } };
}

/** The stakeholder command this summary belongs to: same tenant, and naming this child as its summary's writer. */
async function loadParent(deps: PostCallSummaryDependencies, child: SummaryCommand, request: PostCallSummaryRequest): Promise<CallCommand> {
  const refused = () => new AppError('INVALID_OPERATION', 'A post-call summary must come from the end of a stakeholder call.');
  if (child.parent_id !== request.parent_id) throw refused();
  const parent = await deps.commands.get<CallCommandFields>(request.parent_id);
  if (
    !parent ||
    parent.tenant_id !== child.tenant_id ||
    parent.type !== 'stakeholder_coordination' ||
    parent.meeting_summary?.command_id !== child.id
  )
    throw refused();
  return parent;
}

async function writeSummary(deps: PostCallSummaryDependencies, brief: CallBrief, attempt: number): Promise<KeptSummary> {
  if (usableStatements(brief.transcript).length === 0) {
    const outcome = `Objective: ${brief.meeting.objective} Nothing usable was said on the call, so it was not met.`;
    return {
      ...boundedMeetingSummary(emptyMeetingSummary(outcome)),
      generated_by: 'offline',
      model: OFFLINE_WRITER,
      reason: NOTHING_USABLE_REASON,
    };
  }
  const summary = await writeFromTranscript(deps, brief, attempt);
  return isEmptyMeetingSummary(summary) ? { ...summary, reason: NOTHING_NOTED_REASON } : summary;
}

async function writeFromTranscript(deps: PostCallSummaryDependencies, brief: CallBrief, attempt: number): Promise<KeptSummary> {
  const offline = () => offlineMeetingSummary(brief.transcript, brief.meeting.objective);
  const llm = await deps.llm();
  try {
    const answer = await llm.completeJson({
      schemaName: 'post_call_meeting_summary',
      schema: meetingSummarySchema,
      messages: summaryMessages(brief),
      offline,
      maxTokens: SUMMARY_MAX_TOKENS,
    });
    return { ...boundedMeetingSummary(plain(answer.value)), generated_by: answer.generatedBy, model: answer.model };
  } catch (error) {
    if (error instanceof LlmUnavailableError && attempt < deps.maxReceiveCount) throw error;
    const reason =
      error instanceof Error ? `${error.name}: the model could not write the summary` : 'the model could not write the summary';
    return { ...boundedMeetingSummary(offline()), generated_by: 'offline', model: OFFLINE_WRITER, fallback_reason: reason };
  }
}

/** The POST_CALL prompt as the system message, the transcript as the user message. */
export function summaryMessages(brief: Pick<CallBrief, 'postCallPrompt' | 'transcript'>): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${brief.postCallPrompt}\n\nAnswer with the sections as JSON fields: key_points, decisions, action_items (title, assignee, due_date, priority high, medium or low, description), requirements (title, description, estimated_cost as a number, currency as an ISO 4217 code, priority, owner, needs_approval), and objective_outcome for the closing line. Use null where the call did not say (an assignee, a due date, an amount or its currency, an owner), and empty lists for sections the call did not touch. Plain text in every field: no Markdown.`,
    },
    { role: 'user', content: `Transcript of the call:\n${transcriptText(brief.transcript)}` },
  ];
}

/** The transcript as lines `Assistant: …` / `Participant: …`, the latest part when it is very long. */
export function transcriptText(transcript: readonly TranscriptEntry[]): string {
  const lines = transcript.map((entry) => {
    const who = entry.role === 'assistant' ? 'Assistant' : 'Participant';
    const words = entry.dtmf !== undefined ? `(pressed ${entry.dtmf} on the keypad)` : entry.content;
    return `${who}: ${words}${entry.interrupted ? ' (interrupted)' : ''}`;
  });
  const text = lines.join('\n');
  return text.length <= MAX_TRANSCRIPT_CHARACTERS ? text : text.slice(text.length - MAX_TRANSCRIPT_CHARACTERS);
}

/** The model's summary with every text trimmed and Markdown emphasis removed. */
function plain(summary: WrittenMeetingSummary): WrittenMeetingSummary {
  const text = (value: string) =>
    value
      .replace(/\*\*|__|`/g, '')
      .replace(/^\s*(?:[-*•]|#{1,6})\s+/, '')
      .trim();
  const orNull = (value: string | null) => (value === null ? null : text(value) || null);
  return {
    key_points: summary.key_points.map(text).filter(Boolean),
    decisions: summary.decisions.map(text).filter(Boolean),
    action_items: summary.action_items.map((item) => ({
      ...item,
      title: text(item.title),
      assignee: orNull(item.assignee),
      due_date: orNull(item.due_date),
      description: text(item.description),
    })),
    requirements: summary.requirements.map((item) => ({
      ...item,
      title: text(item.title),
      description: text(item.description),
      currency: orNull(item.currency),
      owner: orNull(item.owner),
    })),
    objective_outcome: text(summary.objective_outcome),
  };
}
