/**
 * What Switchboard asks of a CRM, provider-neutral: HubSpot is the first
 * adapter (hubspot.ts); Salesforce or Pipedrive would be one more file
 * implementing {@link CrmProvider}. Ids are the CRM's own, as strings.
 * Every method may throw the errors of errors.ts, and nothing else that
 * callers need to tell apart.
 */

/** The CRMs Switchboard can connect to. */
export type CrmProviderName = 'hubspot';

/** The credentials of one tenant's connection, as the adapter needs them (never logged, never shown). */
export interface CrmCredentials {
  /** HubSpot: a private app's access token (`pat-…`). */
  accessToken: string;
}

/** The account a token belongs to, as the CRM reports it. */
export interface CrmAccount {
  /** The CRM's account id: HubSpot's portal (hub) id, as a string. */
  accountId: string;
  /** The scopes the token carries, as the CRM names them, sorted. */
  scopes: string[];
}

/** What the CRM recorded of a contact's exchanges: a note, an e-mail or a call. */
export type CrmActivityKind = 'note' | 'email' | 'call';

/** One recorded exchange with a contact, as the import turns it into an interaction. */
export interface CrmActivity {
  /** The CRM's id of the record (a HubSpot note or e-mail object). */
  id: string;
  kind: CrmActivityKind;
  /** When it happened (ISO 8601). */
  at: string;
  /** Its text, plain (markup removed), at most {@link MAX_ACTIVITY_TEXT} characters. */
  summary: string;
  /** An e-mail's subject, when it has one. */
  subject?: string;
  /** An e-mail's direction: sent to the contact, or received from them. */
  direction?: 'outbound' | 'inbound';
}

/** Longest activity text the adapters keep. */
export const MAX_ACTIVITY_TEXT = 2_000;

/** Most activities read per contact: the newest ones. */
export const MAX_RECENT_ACTIVITIES = 10;

/**
 * A contact with the fields the lead import maps (name, company, email,
 * phone, job title → position, lead status → stage, recent notes and
 * e-mails → interactions). A field the CRM holds no value for is absent.
 */
export interface CrmContact {
  /** The CRM's contact id. */
  id: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  email?: string;
  phone?: string;
  jobTitle?: string;
  /** The CRM's lead status value (HubSpot `hs_lead_status`: `NEW`, `ATTEMPTED_TO_CONTACT`, …). */
  leadStatus?: string;
  /** When the CRM last changed the contact (ISO 8601). */
  updatedAt?: string;
  /** Its latest notes and e-mails (at most {@link MAX_RECENT_ACTIVITIES}), newest first; empty when reading them was not asked for. */
  recentActivities: CrmActivity[];
}

/** A page of a listing, with the cursor of the next one (absent on the last). */
export interface CrmPage<T> {
  items: T[];
  /** Pass back as `after` for the next page; absent when this page was the last. */
  next?: string;
}

/** How many contacts a page holds at most (HubSpot's limit per request). */
export const MAX_PAGE_SIZE = 100;

/** Options of a contact read. */
export interface ContactReadOptions {
  /** Also read each contact's latest notes and e-mails (more requests). @default false */
  withActivities?: boolean;
}

/** An engagement to record on a contact: what a rep would have logged by hand. */
export interface EngagementInput {
  contactId: string;
  /** `note`: a note on the timeline; `email`: a logged (not sent) outbound e-mail; `call`: a logged call. */
  kind: CrmActivityKind;
  /** Plain text: the note, the e-mail's body, or the call's notes. */
  body: string;
  /** An e-mail's subject, or a call's title. */
  subject?: string;
  /** When it happened (ISO 8601). */
  at: string;
  /** A call's length, in seconds. */
  durationSeconds?: number;
}

/** The record an engagement became in the CRM. */
export interface CreatedEngagement {
  id: string;
  kind: CrmActivityKind;
}

/**
 * Port: one tenant's connection to its CRM. Every read is bounded
 * (a page, a batch of at most {@link MAX_PAGE_SIZE} ids); paging is the
 * caller's, through the cursors. The adapter keeps within the CRM's rate
 * limits and waits out a short `Retry-After` itself; a longer one is thrown
 * as `CrmRateLimitedError` for the caller (a job) to come back later.
 */
export interface CrmClient {
  readonly provider: CrmProviderName;
  /** Checks the credentials: the account they open, and their scopes. Throws `CrmCredentialsError` when refused. */
  verify(): Promise<CrmAccount>;
  /** One contact; undefined when the CRM has none with this id (or it was deleted). */
  getContact(id: string, options?: ContactReadOptions): Promise<CrmContact | undefined>;
  /** Contacts by id (at most {@link MAX_PAGE_SIZE}), in the order asked; ids the CRM does not know are left out. */
  readContacts(ids: readonly string[], options?: ContactReadOptions): Promise<CrmContact[]>;
  /** A page of every contact (oldest first), `limit` at most {@link MAX_PAGE_SIZE}. */
  listContacts(page?: { after?: string; limit?: number }, options?: ContactReadOptions): Promise<CrmPage<CrmContact>>;
  /** A page of the contact ids of a list (HubSpot: its memberships). Throws `CrmRejectedError` (404) for an unknown list. */
  listMembers(listId: string, page?: { after?: string; limit?: number }): Promise<CrmPage<string>>;
  /**
   * Records an engagement associated to the contact. Not idempotent at the
   * CRM: a caller that may retry keeps its own record of what it created.
   */
  createEngagement(input: EngagementInput): Promise<CreatedEngagement>;
  /**
   * The id of an engagement of this kind associated to the contact whose
   * body holds `marker` (among its newest {@link MAX_PAGE_SIZE}); undefined
   * when none does. How a caller whose create had an unknown outcome (a
   * timeout, a 5xx) finds out whether the CRM recorded it before writing again.
   */
  findEngagement(contactId: string, kind: CrmActivityKind, marker: string): Promise<string | undefined>;
  /** Sets the contact's lead status (HubSpot `hs_lead_status`, an internal value such as `CONNECTED`). */
  setLeadStatus(contactId: string, status: string): Promise<void>;
}

/** Port: makes a client for one tenant's credentials (built once per cold start, a client per connection). */
export interface CrmProvider {
  readonly name: CrmProviderName;
  connect(credentials: CrmCredentials): CrmClient;
}
