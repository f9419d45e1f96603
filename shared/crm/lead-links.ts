import type { CrmProviderName } from '../providers/crm/port';

/** A lead of a site, as a link names it. */
export interface LinkedLead {
  siteId: string;
  leadId: string;
}

/**
 * Port: which lead each of a tenant's CRM contacts became, and back. A link
 * is the tenant's own (two tenants covering a site keep their own links
 * to its leads, and a contact id means nothing outside the tenant whose
 * CRM holds it); the store is for one provider (`provider`). A contact is
 * linked to at most one lead per site, a lead to at most one contact.
 */
export interface LeadLinks {
  readonly provider: CrmProviderName;
  /**
   * Links the tenant's contact to a lead of the site, both ways, in one
   * write. When the contact is already linked to a lead of that site, that
   * link is kept and its lead id returned (the caller updates that lead
   * rather than make a second one); otherwise `leadId` is returned. Throws
   * `LeadLinkedElsewhereError` when the lead is linked to another contact.
   */
  link(tenantId: string, siteId: string, leadId: string, contactId: string): Promise<string>;
  /** The leads the tenant's contact is linked to, one per site at most (usually one in all), by site id; empty when none. */
  leadOf(tenantId: string, contactId: string): Promise<LinkedLead[]>;
  /** The contact the tenant linked to the site's lead; undefined when none. */
  contactOf(tenantId: string, siteId: string, leadId: string): Promise<string | undefined>;
}

/** The lead is already linked to another contact of the tenant's CRM. */
export class LeadLinkedElsewhereError extends Error {
  constructor(readonly linkedContactId: string) {
    super('The lead is already linked to another CRM contact');
    this.name = 'LeadLinkedElsewhereError';
  }
}
