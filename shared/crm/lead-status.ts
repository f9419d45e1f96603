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
