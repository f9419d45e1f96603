import type { Logger } from '@aws-lambda-powertools/logger';
import { functionById, type FunctionId } from '../catalogue/function-definitions';
import type { FinishHook } from '../commands/finish';
import type { JobQueue } from '../commands/queue';
import type { CommandStore } from '../commands/store';
import type { MeetingActionItem, MeetingSummaryRecord } from '../calls/record';
import type { ConnectedCheck } from '../crm/connected-check';
import { crmSyncJob, MAX_SYNC_BODY, type CrmSyncRequest } from '../crm/sync/job';
import type { LeadStatusTrigger } from '../crm/lead-status';
import type { LeadHistory } from '../lead-follow-up/history';
import type { StoredStep } from '../lead-follow-up/sequences/step';
import type { StepStore } from '../lead-follow-up/sequences/step-store';
import { systemClock, type Clock } from '../platform/clock';
import { describeError } from '../platform/logger';

/** The queue of `crm_sync` jobs (shared/crm/catalogue.ts). */
const CRM_SYNC_QUEUE = 'crmsync' as const;

/** Queues writes back to the tenant's CRM. */
export interface CrmSyncProducer {
  /** Never throws: a write-back never fails the request it follows (a failed send is logged). */
  queue(tenantId: string, requests: readonly CrmSyncRequest[]): Promise<void>;
  /** Throws when a send fails: for a finish hook, whose job is retried and its hooks run again (the command stays as it ended). */
  queueOrThrow(tenantId: string, requests: readonly CrmSyncRequest[]): Promise<void>;
}

/** A producer that queues nothing: for a function whose catalogue entry does not send to the CRM queue. */
export const noCrmSync: CrmSyncProducer = { queue: async () => {}, queueOrThrow: async () => {} };

/**
 * The function's producer of `crm_sync` jobs when its catalogue entry sends
 * to the `crm` queue, `noCrmSync` otherwise. A job is queued only for a
 * tenant with a CRM connection (`connected`, a cached read of the
 * connection's item: no job, no worker run, for the many tenants without
 * one); the moment it follows (a command, a PATCH) never waits on the CRM.
 */
export function crmSyncProducerOf(
  functionId: FunctionId,
  queue: Pick<JobQueue, 'send'>,
  logger: Pick<Logger, 'warn'>,
  connected: ConnectedCheck,
): CrmSyncProducer {
  if (!(functionById(functionId).access.sendsTo as readonly string[]).includes(CRM_SYNC_QUEUE)) return noCrmSync;
  return {
    async queueOrThrow(tenantId, requests) {
      if (requests.length === 0 || !(await connected(tenantId))) return;
      for (const request of requests) await queue.send(CRM_SYNC_QUEUE, crmSyncJob(tenantId, request));
    },
    async queue(tenantId, requests) {
      // The moment already happened; losing its write-back is told, never turned into its failure.
      const warn = (sources: string[], error: unknown) =>
        logger.warn('A CRM write-back could not be queued', { source: sources.join(', '), error: describeError(error) });
      if (requests.length === 0) return;
      try {
        if (!(await connected(tenantId))) return;
      } catch (error) {
        warn(
          requests.map((request) => request.source),
          error,
        );
        return;
      }
      for (const request of requests) {
        try {
          await queue.send(CRM_SYNC_QUEUE, crmSyncJob(tenantId, request));
        } catch (error) {
          warn([request.source], error);
        }
      }
    },
  };
}

/** Lead events that move a contact's lead status. */
const STATUS_EVENTS: ReadonlySet<string> = new Set<LeadStatusTrigger>(['replied', 'meeting_booked', 'unsubscribed', 'bounced']);

/** What a step reported sent writes to the CRM: the copy as a rep logs it, and the first step's lead status (once per lead). */
export function stepSentWrites(step: StoredStep): CrmSyncRequest[] {
  const at = step.sent_at ?? step.updated_at ?? new Date().toISOString();
  const common = { site_id: step.site_id, lead_id: step.lead_id };
  const engagement: CrmSyncRequest['write'] =
    step.type === 'email'
      ? { kind: 'engagement', engagement: 'email', subject: step.subject.slice(0, 500), body: step.content, at }
      : {
          kind: 'engagement',
          engagement: 'note',
          body: `Follow-up sent (${step.type.replace(/_/g, ' ')}, step ${step.metadata.sequence_position})${
            step.subject ? `: ${step.subject}` : ''
          }\n\n${step.content}`,
          at,
        };
  return [
    { ...common, source: 'step', source_id: step.id, write: engagement },
    // Keyed by the lead, not the step: the lead status moves on the first step sent only.
    { ...common, source: 'step', source_id: 'first', write: { kind: 'lead_status', trigger: 'first_step_sent' } },
  ];
}

/** A step store that queues the CRM's writes when a change reports a step sent (the PATCH of `status: sent`). */
export function stepsWithCrmSync(steps: StepStore, crm: CrmSyncProducer): StepStore {
  return {
    ...steps,
    async change(id, change, expected) {
      const changed = await steps.change(id, change, expected);
      if (changed && change.status === 'sent') await crm.queue(changed.tenant_id, stepSentWrites(changed));
      return changed;
    },
  };
}

/**
 * A lead history that queues the lead status an event moves, when the event
 * is recorded (again, too: a retried event queues again, and the delivery
 * record keeps the write to one).
 */
export function historyWithCrmSync(history: LeadHistory, crm: CrmSyncProducer): LeadHistory {
  return {
    ...history,
    async record(owner, entry, expiresAt) {
      const recorded = await history.record(owner, entry, expiresAt);
      if (STATUS_EVENTS.has(entry.type)) {
        await crm.queue(owner.tenantId, [
          {
            site_id: owner.siteId,
            lead_id: owner.leadId,
            source: 'lead_event',
            source_id: entry.event_id,
            write: { kind: 'lead_status', trigger: entry.type as LeadStatusTrigger },
          },
        ]);
      }
      return recorded;
    },
  };
}

/** The text of a lead follow-up's channel messages, as a rep would note them. */
function messagesNote(messages: Record<string, { title?: string; message?: string }>): string {
  const parts = Object.entries(messages).map(
    ([channel, item]) => `${channel.replace(/_/g, ' ')}${item.title ? `: ${item.title}` : ''}\n${item.message ?? ''}`,
  );
  return `Follow-up messages prepared\n\n${parts.join('\n\n')}`;
}

/**
 * The finish hook of the workers that complete lead follow-ups: a follow-up
 * completed with channel messages becomes a note on the lead's contact. A
 * hook may run again for one ending: the delivery record keeps it to one note.
 */
export function leadFollowUpFinishHook(crm: CrmSyncProducer, clock: Pick<Clock, 'now'> = systemClock): FinishHook {
  return async (command, ending) => {
    if (command.type !== 'lead_follow_up' || ending.status !== 'completed') return;
    const messages = ending.result.messages;
    if (!messages || typeof messages !== 'object' || Object.keys(messages).length === 0) return;
    // The command's own request (every finish hands it over): no read of the command.
    const request = (command.request ?? {}) as { siteId?: unknown; leadId?: unknown };
    if (typeof request.siteId !== 'string' || typeof request.leadId !== 'string') return;
    await crm.queueOrThrow(command.tenant_id, [
      {
        site_id: request.siteId,
        lead_id: request.leadId,
        source: 'follow_up',
        source_id: command.id,
        write: {
          kind: 'engagement',
          engagement: 'note',
          body: messagesNote(messages as Record<string, { title?: string; message?: string }>).slice(0, MAX_SYNC_BODY),
          at: new Date(clock.now()).toISOString(),
        },
      },
    ]);
  };
}

/** An action item as one line: its title, then who and when, when said. */
function actionItemLine(item: MeetingActionItem): string {
  const details = [item.assignee, item.due_date].filter((detail): detail is string => Boolean(detail));
  return details.length > 0 ? `${item.title} (${details.join(', ')})` : item.title;
}

/** A meeting summary as a rep's call notes. */
function summaryNotes(summary: MeetingSummaryRecord): string {
  const list = (title: string, items: readonly string[] | undefined) =>
    items && items.length > 0 ? [`${title}:`, ...items.map((item) => `- ${item}`), ''] : [];
  return [
    ...(summary.objective_outcome ? [`Outcome: ${summary.objective_outcome}`, ''] : []),
    ...list('Key points', summary.key_points),
    ...list('Decisions', summary.decisions),
    ...list('Action items', summary.action_items?.map(actionItemLine)),
  ]
    .join('\n')
    .trim();
}

/**
 * The finish hook of the meeting summary worker: a summary written for a
 * call about a lead becomes a logged call, with the summary as its notes, on
 * the lead's contact. A call with no lead, or a summary with nothing in it,
 * writes nothing.
 */
export function meetingSummaryFinishHook(commands: Pick<CommandStore, 'get'>, crm: CrmSyncProducer): FinishHook {
  return async (command, ending) => {
    if (command.type !== 'post_call_summary' || ending.status !== 'completed' || !command.parent_id) return;
    const summary = ending.result.meeting_summary as MeetingSummaryRecord | undefined;
    if (summary?.status !== 'completed') return;
    const notes = summaryNotes(summary);
    if (notes === '') return;
    const call = await commands.get(command.parent_id);
    const request = (call?.request ?? {}) as { site_id?: unknown; lead_id?: unknown };
    const siteId = call?.site_id ?? request.site_id;
    if (!call || typeof siteId !== 'string' || typeof request.lead_id !== 'string') return;
    await crm.queueOrThrow(command.tenant_id, [
      {
        site_id: siteId,
        lead_id: request.lead_id,
        source: 'meeting_summary',
        source_id: call.id,
        write: {
          kind: 'engagement',
          engagement: 'call',
          subject: 'Call summary',
          body: notes.slice(0, MAX_SYNC_BODY),
          at: summary.created_at ?? call.updated_at ?? new Date().toISOString(),
        },
      },
    ]);
  };
}
