import { leadSchema, type Interaction, type Lead } from '../sites/schema';
import type { CrmActivity, CrmContact } from '../providers/crm/port';

/**
 * HubSpot's lead status (`hs_lead_status`, its default options) → the lead's
 * `lead_stage`, in the words the follow-up sequences read (an early stage
 * gets a shorter sequence). A custom option becomes its name in lower case
 * with spaces; no status leaves the lead's stage as it was.
 */
export const LEAD_STAGE_OF_STATUS: Readonly<Record<string, string>> = Object.freeze({
  NEW: 'new',
  OPEN: 'open',
  IN_PROGRESS: 'in progress',
  OPEN_DEAL: 'proposal',
  UNQUALIFIED: 'unqualified',
  ATTEMPTED_TO_CONTACT: 'attempted to contact',
  CONNECTED: 'connected',
  BAD_TIMING: 'bad timing',
});

/** Why a contact was not imported. */
export type SkipReason =
  /** Neither an e-mail address nor a phone number: no follow-up could reach them. */
  | 'no_contact_point'
  /** A field is longer than a lead holds (the field is named in `detail`). */
  | 'field_too_long'
  /** The contact is gone from HubSpot (a named id, or a list member, it no longer has). */
  | 'not_found'
  /** The lead it was linked to is linked to another contact. */
  | 'link_conflict';

/** The lead's fields the CRM's contact sets; the rest of a lead it updates (pain points, budget, …) is kept. */
export type MappedLead = Omit<Lead, 'id'>;

export type MappingOutcome = { kind: 'lead'; fields: MappedLead } | { kind: 'skip'; reason: SkipReason; detail?: string };

export function stageOf(status: string | undefined): string | undefined {
  if (status === undefined) return undefined;
  return LEAD_STAGE_OF_STATUS[status] ?? status.toLowerCase().replaceAll('_', ' ');
}

function interactionOf(activity: CrmActivity): Interaction {
  const type = activity.kind === 'email' ? (activity.direction === 'inbound' ? 'email_received' : 'email_sent') : activity.kind;
  return { date: activity.at, type, summary: activity.subject ? `${activity.subject}: ${activity.summary}` : activity.summary };
}

/**
 * A contact as a lead's fields: name (first and last, else the e-mail or
 * phone), company, email, phone, job title → position, lead status → stage
 * ({@link LEAD_STAGE_OF_STATUS}), the recent notes and e-mails →
 * interactions (oldest first). Skipped, with the reason, when nothing could
 * reach the contact or a field is over the lead's limit.
 */
export function leadFieldsOf(contact: CrmContact): MappingOutcome {
  if (!contact.email && !contact.phone) return { kind: 'skip', reason: 'no_contact_point' };
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ') || contact.email || contact.phone!;
  const stage = stageOf(contact.leadStatus);
  const fields: MappedLead = {
    name,
    ...(contact.company ? { company: contact.company } : {}),
    ...(contact.email ? { email: contact.email } : {}),
    ...(contact.phone ? { phone: contact.phone } : {}),
    ...(contact.jobTitle ? { position: contact.jobTitle } : {}),
    ...(stage ? { lead_stage: stage } : {}),
    interactions: [...contact.recentActivities].reverse().map(interactionOf),
  };
  const checked = leadSchema.safeParse({ id: 'x', ...fields });
  if (!checked.success) {
    const field = String(checked.error.issues[0]?.path[0] ?? 'unknown');
    return { kind: 'skip', reason: 'field_too_long', detail: field };
  }
  return { kind: 'lead', fields };
}

/**
 * The lead after an import: the contact's fields over the lead it updates
 * (a field HubSpot holds no value for keeps the lead's; its interactions
 * become HubSpot's recent ones).
 */
export function mergedLead(id: string, existing: Lead | undefined, fields: MappedLead): Lead {
  return { ...(existing ?? {}), ...fields, id };
}
