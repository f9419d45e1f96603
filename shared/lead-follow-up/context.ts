import { cleanText, cleanTextDeep, cutText } from '../platform/text';
import type { Agent, Lead, Site } from '../sites/schema';
import { allowedContactsOf, type AllowedContacts } from './allowed-contacts';
import type { Channel } from './channels';
import type { CheckedLeadFollowUp } from './checks';
import type { LeadHistoryEntry } from './history';
import type { LeadFollowUpRequest } from './schema';
import type { FollowUpType } from './vocabulary';
import { boundedPreferences, firstUnique, newestInteractions, WRITING_LIMITS, type InteractionNote } from './writing-limits';

export type { InteractionNote } from './writing-limits';

/**
 * The lead as the writers see it: the stored lead, with gaps filled from the
 * caller's `leadData`, each part within WRITING_LIMITS. Email and phone come
 * from the stored lead only.
 */
export interface LeadProfile {
  name: string;
  company: string | null;
  position: string | null;
  email: string | null;
  phone: string | null;
  pain_points: string[];
  budget_range: string | null;
  lead_stage: string | null;
  language: string | null;
}

/** Everything a writer (model or offline) may use, and nothing else; every part bounded (WRITING_LIMITS). */
export interface WritingContext {
  site: { name: string; url: string | null };
  agent: { name: string; instructions: string | null };
  lead: LeadProfile;
  /**
   * The newest of the site's, the given and the tenant's own reported
   * interactions, oldest first, within one history window (see
   * {@link mergedInteractions}).
   */
  interactions: InteractionNote[];
  preferences: Record<string, unknown>;
  productInterest: string[];
  followUpType: FollowUpType | null;
  channels: Channel[];
  /** The links, e-mail addresses and phone numbers copy may carry: those of the stored site and lead. */
  allowed_contacts: AllowedContacts;
}

/**
 * Builds the writing context of a checked request. `history` is the
 * tenant's own window of what it reported about the lead (the command's
 * tenant: never another's). Stored text is cleaned of control and bidi
 * characters here, as the request's text is by its schema, so nothing
 * planted in either reaches the copy.
 */
export function writingContext(
  checked: CheckedLeadFollowUp,
  request: LeadFollowUpRequest,
  history: readonly LeadHistoryEntry[] = [],
): WritingContext {
  return {
    site: siteSummary(checked.site),
    agent: agentSummary(checked.agent),
    lead: leadProfile(checked.lead, request),
    interactions: mergedInteractions(checked.lead, request, history),
    preferences: boundedPreferences(cleanTextDeep(checked.lead.preferences ?? {}) as Record<string, unknown>),
    productInterest: firstUnique((request.productInterest ?? []).map(cleanText)),
    followUpType: checked.followUpType ?? null,
    channels: checked.channels,
    allowed_contacts: allowedContactsOf({ ...checked, history }),
  };
}

/** The stored site as the writers see it, its text cleaned and cut. */
export function siteSummary(site: Site): WritingContext['site'] {
  return { name: cutText(cleanText(site.name), WRITING_LIMITS.textCharacters), url: site.url ? cleanText(site.url) : null };
}

/** A stored agent as the writers see it, its text cleaned and cut. */
export function agentSummary(agent: Agent): WritingContext['agent'] {
  return {
    name: cutText(cleanText(agent.name), WRITING_LIMITS.textCharacters),
    instructions: cutText(cleanText(agent.instructions ?? '').trim(), WRITING_LIMITS.instructionsCharacters).trim() || null,
  };
}

/** The stored lead, gaps filled from `leadData`, stage from `leadStage` when given, each part cut to WRITING_LIMITS. */
export function leadProfile(lead: Lead, request: LeadFollowUpRequest): LeadProfile {
  const extra = request.leadData ?? {};
  const clean = (value: string | undefined) => (value === undefined ? '' : cleanText(value).trim());
  const tidy = (value: string | undefined) => cutText(clean(value), WRITING_LIMITS.textCharacters).trim();
  const pick = (stored: string | undefined, given: string | undefined) => tidy(stored) || tidy(given) || null;
  return {
    name: pick(lead.name, extra.name) ?? cutText(cleanText(lead.name), WRITING_LIMITS.textCharacters),
    company: pick(lead.company, extra.company),
    position: pick(lead.position, extra.position),
    email: clean(lead.email) || null,
    phone: clean(lead.phone) || null,
    pain_points: firstUnique([...(lead.pain_points ?? []), ...(extra.pain_points ?? [])].map(cleanText)),
    budget_range: pick(lead.budget_range, extra.budget_range),
    lead_stage: tidy(request.leadStage) || tidy(lead.lead_stage) || null,
    language: tidy(lead.language) || null,
  };
}

/**
 * The interactions a writer sees: the site's (imported with the lead), the
 * ones the caller gave and the tenant's reported history, cleaned, then the
 * newest of them within the history window ({@link newestInteractions}).
 * One window bounds them all, so the prompt and the command that keeps this
 * context stay the same size however much the lead, the caller or the
 * history holds.
 */
export function mergedInteractions(lead: Lead, request: LeadFollowUpRequest, history: readonly LeadHistoryEntry[] = []): InteractionNote[] {
  const all = [...(lead.interactions ?? []), ...(request.previousInteractions ?? []), ...history];
  return newestInteractions(
    all.map((item) => ({ date: cleanText(item.date), type: cleanText(item.type), summary: cleanText(item.summary) })),
  );
}
