import * as z from 'zod/mini';
import { emailKey, findContacts, phoneKey, samePhone, urlKey, type FoundContact } from '../platform/contacts';
import { cleanText } from '../platform/text';
import type { Agent, Lead, Site, User } from '../sites/schema';
import type { LeadHistoryEntry } from './history';
import { WRITING_LIMITS } from './writing-limits';

/**
 * The links, e-mail addresses and phone numbers copy may carry: those in
 * the site's and the lead's stored data, as normalized keys (see
 * `platform/contacts`). Plain JSON: it is kept in the command's progress.
 */
export interface AllowedContacts {
  urls: string[];
  emails: string[];
  phones: string[];
}

/** None allowed: what a writing context kept before allowed contacts were recorded carries. */
export const NO_CONTACTS: Readonly<AllowedContacts> = Object.freeze({ urls: [], emails: [], phones: [] });

/**
 * `AllowedContacts` as kept in a command's progress (the `allowed_contacts`
 * of a stored writing context). A context kept before they were recorded
 * reads as allowing none.
 */
export const allowedContactsSchema = z._default(
  z.object({ urls: z.array(z.string()), emails: z.array(z.string()), phones: z.array(z.string()) }),
  () => ({ urls: [], emails: [], phones: [] }),
);

/** What the allowed contacts are read from: stored records only, never the caller's request. */
export interface StoredSources {
  site: Site;
  lead: Lead;
  agent?: Agent;
  user?: User;
  /** The window of the command's tenant's own history of the lead (what its writer sees of it). */
  history?: readonly LeadHistoryEntry[];
}

/**
 * The contacts of the stored site (its URL, name, channel sender and
 * number), the sales agent and the named user, the stored lead (its email
 * and phone, and any contact written in its text: interactions, pain
 * points, preferences…), and the tenant's own history window of the lead;
 * the first WRITING_LIMITS.contactsPerKind of each kind, none longer than
 * WRITING_LIMITS.contactCharacters (a longer one is never allowed).
 */
export function allowedContactsOf(sources: StoredSources): AllowedContacts {
  const { site, lead, agent, user, history = [] } = sources;
  const allowed: AllowedContacts = { urls: [], emails: [], phones: [] };
  if (site.url) addKey(allowed.urls, urlKey(cleanText(site.url).trim()));
  for (const email of [site.channels?.email?.from, user?.email, lead.email])
    if (email?.trim()) addKey(allowed.emails, emailKey(cleanText(email)));
  for (const phone of [site.channels?.messaging_app?.number, lead.phone]) {
    const digits = phoneKey(phone ?? '');
    if (digits) addKey(allowed.phones, digits);
  }
  const texts = [
    site.name,
    agent?.name,
    agent?.instructions,
    user?.name,
    lead.name,
    lead.company,
    lead.position,
    lead.budget_range,
    lead.lead_stage,
    ...(lead.pain_points ?? []),
    ...(lead.interactions ?? []).flatMap((item) => [item.type, item.summary]),
    ...history.flatMap((item) => [item.type, item.summary]),
    ...stringsOf(lead.preferences),
  ];
  for (const text of texts) {
    if (typeof text === 'string') for (const contact of findContacts(cleanText(text))) add(allowed, contact);
  }
  return allowed;
}

/** The contacts of a text that the allowed set does not hold, in order of appearance. */
export function foreignContacts(text: string, allowed: AllowedContacts): FoundContact[] {
  return findContacts(text).filter((contact) => !isAllowed(contact, allowed));
}

/**
 * The text without its foreign contacts, for a writer that puts stored or
 * given text into copy (the offline writer): each is cut out and the spaces
 * around it closed up.
 */
export function withoutForeignContacts(text: string, allowed: AllowedContacts): string {
  const foreign = foreignContacts(text, allowed);
  if (foreign.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const contact of foreign) {
    parts.push(text.slice(from, contact.index));
    from = contact.index + contact.text.length;
  }
  parts.push(text.slice(from));
  return parts
    .join('')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t](?=[.,;:!?])/g, '')
    .trim();
}

function isAllowed(contact: FoundContact, allowed: AllowedContacts): boolean {
  switch (contact.kind) {
    case 'url':
      return allowed.urls.includes(contact.key);
    case 'email':
      return allowed.emails.includes(contact.key);
    case 'phone':
      return allowed.phones.some((phone) => samePhone(phone, contact.key));
  }
}

function add(allowed: AllowedContacts, contact: FoundContact): void {
  const list = contact.kind === 'url' ? allowed.urls : contact.kind === 'email' ? allowed.emails : allowed.phones;
  addKey(list, contact.key);
}

function addKey(list: string[], key: string): void {
  if (key && key.length <= WRITING_LIMITS.contactCharacters && list.length < WRITING_LIMITS.contactsPerKind && !list.includes(key))
    list.push(key);
}

/** Every string inside a JSON-like value (a lead's preferences). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}
