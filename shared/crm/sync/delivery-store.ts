import type { SyncSource } from './job';

/** One write to the CRM, as its delivery record keeps it. */
export interface CrmDelivery {
  tenant_id: string;
  site_id: string;
  lead_id: string;
  source: SyncSource;
  source_id: string;
  /** `engagement`, or `lead_status:<trigger>`. */
  kind: string;
  /**
   * `claimed`: a worker is writing it, or one stopped without knowing whether the CRM took it; `done`; `failed`: the CRM
   * refused it (nothing written) and its job was dead-lettered: a redriven job claims it again.
   */
  status: 'claimed' | 'done' | 'failed';
  /** The contact written to. */
  contact_id: string;
  /** The CRM's id of the record written (an engagement's), once done. */
  crm_record_id?: string;
  /** The lead status value set, for a lead status write. */
  lead_status?: string;
  attempts: number;
  claimed_at: string;
  updated_at: string;
  /** Why the CRM refused it (safe to show). */
  error?: string;
  /** When the table's TTL deletes it (epoch seconds): the lead's log lasts as long as its follow-ups. */
  expires_at: number;
}

/** The key of a delivery: one per (tenant, lead, source, kind). */
export interface DeliveryKey {
  tenantId: string;
  siteId: string;
  leadId: string;
  source: SyncSource;
  sourceId: string;
  kind: string;
}

/**
 * What a claim found: `fresh` (nobody wrote it yet), `unknown` (an earlier
 * attempt stopped mid-write: the CRM may hold it), `done` (written, with the
 * record), `busy` (another worker holds its lease). A refused delivery (`failed`, never written) is claimed again.
 */
export type Claim = { state: 'fresh' | 'unknown'; delivery: CrmDelivery } | { state: 'done' | 'busy'; delivery: CrmDelivery };

/**
 * Port: the delivery records of the CRM write-backs, the once-only guard of
 * each write and the delivery log of a lead. A record is claimed (with a
 * lease) before the write and completed with the CRM's record id after.
 */
export interface CrmDeliveryStore {
  /** Claims the write for `leaseMs` (conditional write); what it found says whether to write. A new record expires at `expiresAt`. */
  claim(key: DeliveryKey, contactId: string, now: number, leaseMs: number, expiresAt: number): Promise<Claim>;
  /** Marks it done with what the CRM answered. */
  /**
   * Marks the delivery done. With `countsFor` (the command it writes about), one CRM write counts on that command's usage in
   * the same write, once: a delivery already done counts nothing more.
   */
  complete(key: DeliveryKey, outcome: { crmRecordId?: string; leadStatus?: string }, now: number, countsFor?: string): Promise<void>;
  /** Gives the lease up after a failure whose outcome is unknown, so the next attempt checks the CRM at once. */
  release(key: DeliveryKey, now: number): Promise<void>;
  /** Marks it refused for good, with the reason. */
  fail(key: DeliveryKey, reason: string, now: number): Promise<void>;
  /** The lead's deliveries (its delivery log), oldest source first, at most `limit`. */
  listForLead(tenantId: string, siteId: string, leadId: string, limit: number): Promise<CrmDelivery[]>;
}
