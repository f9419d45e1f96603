import type { Logger } from '@aws-lambda-powertools/logger';
import type { StoredCommand } from '../commands/record';
import type { CallCommandFields } from '../calls/record';
import { startCommand, type StartDependencies } from '../commands/start';
import { newId } from '../platform/ids';
import { callerTurns, readCallBrief } from './call-brief';
import type { PostCallSummaryRequest } from './kinds';
import type { MeetingSummaryStore } from './summary-store';
import type { TranscriptGrace } from './transcript-grace';

/** What ending a call works with: the kernel's start (the post-call child), and the summary's own writes. */
export interface EndOfCallDependencies extends StartDependencies, Partial<TranscriptGrace> {
  summaries: MeetingSummaryStore;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** What became of the request: queued now, already requested (pending, completed or skipped), skipped now, or no such call. */
export type EndOfCallOutcome = 'queued' | 'already_requested' | 'skipped' | 'not_a_call';

/** Why a call without a word from the person called has no summary. */
export const NOTHING_SAID_REASON = 'Nothing was said on the call by the person called, so there is nothing to summarize.';

/** How long a pending summary whose child command was never created is left before another caller starts it. */
const STRANDED_AFTER_MS = 2 * 60_000;

/**
 * Use case: the call on a stakeholder command ended (its socket closed, or
 * the assistant ended the session). Queues the post-call summary exactly
 * once, however many times the end is reported:
 * 1. the first caller claims the summary with one conditional write
 *    (`meeting_summary: {status: "pending", command_id}`, the child's id
 *    added to `child_ids`); a later caller finds it claimed and queues nothing;
 * 2. the winner then starts the `post_call_summary` child through the kernel
 *    (its record, then its job on the `summary` queue);
 * 3. a winner that died between the two leaves a pending summary without its
 *    child: a caller that finds it so after STRANDED_AFTER_MS starts it.
 * With a transcript grace (`transcriptGraceMs`, TRANSCRIPT_GRACE_SECONDS)
 * the transcript still takes writes until the grace ends, and the child's
 * job waits on the queue as long: a turn being answered in another
 * invocation as the call ended keeps its words, and the summary reads them.
 * A call in which the person called said nothing gets no job when there is
 * no grace: its summary is `skipped`, with the reason (NOTHING_SAID_REASON);
 * with a grace the child decides so once the transcript closed.
 */
export async function requestMeetingSummary(deps: EndOfCallDependencies, commandId: string): Promise<EndOfCallOutcome> {
  const command = await deps.commands.get<CallCommandFields>(commandId);
  if (!command || command.type !== 'stakeholder_coordination') return 'not_a_call';
  const now = deps.clock.now();
  const requested = command.meeting_summary;
  if (requested) {
    if (requested.status === 'pending' && requested.command_id && now - Date.parse(requested.requested_at) > STRANDED_AFTER_MS) {
      if (!(await deps.commands.get(requested.command_id))) {
        await startChild(deps, command, requested.command_id);
        deps.logger?.warn('A post-call summary claimed but never started was started now', { commandId, childId: requested.command_id });
      }
    }
    return 'already_requested';
  }

  let transcript;
  try {
    transcript = readCallBrief(command).transcript;
  } catch {
    return 'not_a_call';
  }
  const graceMs = deps.transcriptGraceMs ?? 0;
  if (graceMs === 0 && callerTurns(transcript) === 0) {
    const skipped = await deps.summaries.markSkipped(commandId, NOTHING_SAID_REASON, now);
    if (skipped) deps.logger?.info('Call ended without a word from the person called: no summary', { commandId });
    return skipped ? 'skipped' : 'already_requested';
  }

  const childId = newId();
  const openUntil = graceMs > 0 ? now + graceMs : undefined;
  if (!(await deps.summaries.markPending(commandId, childId, now, openUntil))) return 'already_requested';
  await startChild(deps, command, childId, graceMs);
  deps.logger?.info('Post-call summary queued', { commandId, childId, entries: transcript.length, graceMs });
  return 'queued';
}

async function startChild(deps: EndOfCallDependencies, parent: StoredCommand, childId: string, delayMs = 0): Promise<void> {
  const request: PostCallSummaryRequest = { parent_id: parent.id };
  await startCommand(deps, {
    type: 'post_call_summary',
    id: childId,
    parentId: parent.id,
    tenantId: parent.tenant_id,
    ...(parent.site_id === undefined ? {} : { siteId: parent.site_id }),
    request,
    ...(delayMs > 0 ? { firstJobDelaySeconds: Math.ceil(delayMs / 1000) } : {}),
  });
}
