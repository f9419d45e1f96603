import type { Logger } from '@aws-lambda-powertools/logger';
import { functionById, type FunctionId } from '../catalogue/functions';
import type { JobQueue } from '../commands/queue';
import { crmSyncJob, type CrmSyncRequest } from '../crm/sync/job';
import type { LeadStatusTrigger } from '../crm/lead-status';
import type { LeadHistory } from '../lead-follow-up/history';
import type { StoredStep } from '../lead-follow-up/sequences/step';
import type { StepStore } from '../lead-follow-up/sequences/step-store';
import { describeError } from '../platform/logger';

/** The queue of `crm_sync` jobs (shared/crm/catalogue.ts). */
const CRM_SYNC_QUEUE = 'crm' as const;

/** Queues writes back to the tenant's CRM; never throws (a write-back never fails the moment it follows). */
export interface CrmSyncProducer {
  queue(tenantId: string, requests: readonly CrmSyncRequest[]): Promise<void>;
}

/** A producer that queues nothing: for a function whose catalogue entry does not send to the CRM queue. */
export const noCrmSync: CrmSyncProducer = { queue: async () => {} };

/**
 * The function's producer of `crm_sync` jobs when its catalogue entry sends
 * to the `crm` queue, `noCrmSync` otherwise. Every job is queued whether
 * or not the tenant has a connection: the worker counts those it skips, and
 * the moment it follows (a command, a PATCH) never waits on the CRM.
 */
export function crmSyncProducerOf(functionId: FunctionId, queue: Pick<JobQueue, 'send'>, logger: Pick<Logger, 'warn'>): CrmSyncProducer {
  if (!(functionById(functionId).access.sendsTo as readonly string[]).includes(CRM_SYNC_QUEUE)) return noCrmSync;
  return {
    async queue(tenantId, requests) {
      for (const request of requests) {
        try {
          await queue.send(CRM_SYNC_QUEUE, crmSyncJob(tenantId, request));
        } catch (error) {
          // The moment already happened; losing its write-back is told, never turned into its failure.
          logger.warn('A CRM write-back could not be queued', { source: request.source, error: describeError(error) });
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
