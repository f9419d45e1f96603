/**
 * What moves a contact's lead status in the CRM, and to which value by
 * default (HubSpot's `hs_lead_status` internal values). A tenant's
 * connection may override any of them (`lead_status_map`).
 */
export const LEAD_STATUS_TRIGGERS = ['first_step_sent', 'replied', 'meeting_booked', 'unsubscribed', 'bounced'] as const;

export type LeadStatusTrigger = (typeof LEAD_STATUS_TRIGGERS)[number];

/**
 * The default table: first step sent → attempted to contact; replied → connected; meeting booked → in progress; unsubscribed or
 * bounced → unqualified.
 */
export const DEFAULT_LEAD_STATUS_MAP: Readonly<Record<LeadStatusTrigger, string>> = Object.freeze({
  first_step_sent: 'ATTEMPTED_TO_CONTACT',
  replied: 'CONNECTED',
  meeting_booked: 'IN_PROGRESS',
  unsubscribed: 'UNQUALIFIED',
  bounced: 'UNQUALIFIED',
});

/** The whole table of a connection: the defaults with the tenant's overrides. */
export function leadStatusMapOf(overrides: Partial<Record<LeadStatusTrigger, string>> = {}): Record<LeadStatusTrigger, string> {
  return { ...DEFAULT_LEAD_STATUS_MAP, ...overrides };
}

/** How far along each trigger puts a lead: a status is never moved back to an earlier one (a late retry, a rep ahead of us). */
const TRIGGER_RANK: Readonly<Record<LeadStatusTrigger, number>> = {
  first_step_sent: 1,
  replied: 2,
  meeting_booked: 3,
  unsubscribed: 4,
  bounced: 4,
};

/**
 * True when setting `trigger`'s status over `current` would move the lead
 * back: `current` is the status of a trigger further along in the table
 * (e.g. CONNECTED, then a late `first_step_sent`). A status outside the
 * table (one a rep chose, or none) is not ranked, and is replaced.
 */
export function movesBack(table: Record<LeadStatusTrigger, string>, current: string | undefined, trigger: LeadStatusTrigger): boolean {
  if (current === undefined) return false;
  const ranks = LEAD_STATUS_TRIGGERS.filter((other) => table[other] === current).map((other) => TRIGGER_RANK[other]);
  return ranks.length > 0 && Math.max(...ranks) > TRIGGER_RANK[trigger];
}
