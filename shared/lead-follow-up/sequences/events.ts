import type { PublishedEvent } from '../../commands/events';
import type { LeadEventRecord, AppliedChange } from './event-records';
import { stepView, type StoredStep } from './step';

/** `follow_up.due`: a step's time has come; the caller sends it (then PATCHes it `sent`). Once per step. */
export function followUpDueEvent(step: StoredStep): PublishedEvent {
  return {
    tenantId: step.tenant_id,
    type: 'follow_up.due',
    data: { follow_up: stepView(step), follow_up_id: step.id, lead_id: step.lead_id, site_id: step.site_id, command_id: step.command_id },
    idempotencyKey: `${step.id}:due`,
  };
}

/** `sequence.adapted`: a lead event changed the lead's remaining steps. Once per event. */
export function sequenceAdaptedEvent(record: LeadEventRecord, changes: readonly AppliedChange[]): PublishedEvent {
  return {
    tenantId: record.tenant_id,
    type: 'sequence.adapted',
    data: { event_id: record.id, lead_id: record.lead_id, site_id: record.site_id, event: record.event, changes },
    idempotencyKey: `${record.id}:adapted`,
  };
}
