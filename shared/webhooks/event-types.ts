/**
 * Every event type a webhook endpoint may subscribe to (docs/webhooks.md
 * "Events"): the end of a command a caller started, a stakeholder call's
 * progress and its meeting summary, a follow-up sequence's steps, and an
 * endpoint of the tenant disabled by the service for failing.
 */
export const EVENT_TYPES = [
  'command.completed',
  'command.failed',
  'call.status_changed',
  'meeting_summary.created',
  'follow_up.due',
  'sequence.adapted',
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An endpoint's subscription to every event type, present and future (the default). */
export const ALL_EVENTS = '*';

/** True when an endpoint subscribed to `subscribed` hears of an event of `type`. */
export function isSubscribed(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}
