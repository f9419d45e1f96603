import type { FollowUpType } from '../vocabulary';
import type { StepStatus, StoredStep } from './step';

/** What a lead did, as a caller (a CRM, an e-mail provider's webhook) reports it. */
export const LEAD_EVENT_TYPES = ['replied', 'meeting_booked', 'unsubscribed', 'bounced', 'opened', 'clicked'] as const;
export type LeadEventType = (typeof LEAD_EVENT_TYPES)[number];

/** A lead event, validated. */
export interface LeadEvent {
  type: LeadEventType;
  /** UTC ISO 8601: when it happened (the time it was reported, when not given). */
  occurred_at: string;
  /** The channel it happened on, when known (a bounce's channel defaults to email). */
  channel: FollowUpType | null;
  summary: string | null;
}

/** Events after which the rest of the sequence is not sent: the lead answered, booked, or asked to hear no more. */
export const STOPPING_EVENTS: readonly LeadEventType[] = ['replied', 'meeting_booked', 'unsubscribed'];

/** The channel of a bounce reported without one: bounces are an e-mail matter. */
export const DEFAULT_BOUNCE_CHANNEL: FollowUpType = 'email';

/**
 * How soon after a click the next step comes, when it was planned later:
 * a click is interest shown now, and a reply an hour later still reads as
 * a response to it, not as a reflex.
 */
export const CLICK_FOLLOW_UP_DELAY_MS = 60 * 60 * 1000;

/** One change an event makes to a step, decided before any is made (and kept, so a retry makes the same ones). */
export type PlannedChange =
  | { follow_up_id: string; action: 'cancel'; from_status: StepStatus; scheduled_for: string }
  | { follow_up_id: string; action: 'reschedule'; from_status: 'scheduled'; scheduled_for: string; to_scheduled_for: string };

/**
 * The deterministic rules that adapt a lead's remaining sequence to an
 * event (`open` are the lead's scheduled and due steps, earliest first):
 *
 * - `replied`, `meeting_booked`, `unsubscribed`: every remaining step is cancelled;
 * - `bounced`: the remaining steps on the bounced channel (e-mail unless
 *   named) are cancelled, the others stand;
 * - `clicked`: the next scheduled step is brought forward to an hour after
 *   the click (or after now, for a click reported late), if it was planned later;
 * - `opened`: nothing changes. Opens are counted by image loads, which mail
 *   privacy features (Apple Mail's among them) trigger without a reader, so
 *   an open is too weak a signal to move anything; it is recorded all the same.
 */
export function planAdaptation(event: LeadEvent, open: readonly StoredStep[], now: number): PlannedChange[] {
  const cancel = (step: StoredStep): PlannedChange => ({
    follow_up_id: step.id,
    action: 'cancel',
    from_status: step.status,
    scheduled_for: step.scheduled_for,
  });
  if (STOPPING_EVENTS.includes(event.type)) return open.map(cancel);
  if (event.type === 'bounced') {
    const channel = event.channel ?? DEFAULT_BOUNCE_CHANNEL;
    return open.filter((step) => step.type === channel).map(cancel);
  }
  if (event.type === 'clicked') {
    const next = open.find((step) => step.status === 'scheduled');
    if (!next) return [];
    const target = Math.max(now, Date.parse(event.occurred_at)) + CLICK_FOLLOW_UP_DELAY_MS;
    if (Date.parse(next.scheduled_for) <= target) return [];
    return [
      {
        follow_up_id: next.id,
        action: 'reschedule',
        from_status: 'scheduled',
        scheduled_for: next.scheduled_for,
        to_scheduled_for: new Date(target).toISOString(),
      },
    ];
  }
  return [];
}

/** A short plain-text note of an event for the lead's interactions, when the caller gave no summary. */
export function defaultSummary(event: Pick<LeadEvent, 'type' | 'channel'>): string {
  const what: Record<LeadEventType, string> = {
    replied: 'The lead replied',
    meeting_booked: 'The lead booked a meeting',
    unsubscribed: 'The lead unsubscribed',
    bounced: 'A follow-up bounced',
    opened: 'The lead opened a follow-up',
    clicked: 'The lead clicked a link in a follow-up',
  };
  return `${what[event.type]}${event.channel ? ` (${event.channel.replaceAll('_', ' ')})` : ''}.`;
}
