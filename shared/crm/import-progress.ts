import * as z from 'zod/mini';
import '../platform/zod-messages';

/** A count: a whole number, at least 0. */
const count = () => z.int().check(z.minimum(0));

/** What became of one contact. */
export const importedLeadSchema = z.object({
  lead_id: z.string(),
  hubspot_contact_id: z.string(),
  action: z.enum(['created', 'updated']),
});

/** A contact left out, and why (lead-mapping.ts `SkipReason`). */
export const skippedContactSchema = z.object({
  hubspot_contact_id: z.string(),
  reason: z.enum(['no_contact_point', 'field_too_long', 'not_found', 'link_conflict']),
  /** The field at fault, for `field_too_long`. */
  detail: z.optional(z.string()),
});

/** The outcome so far: the command's result once the last page is done. */
export const importTallySchema = z.object({
  created: count(),
  updated: count(),
  skipped: count(),
  leads: z.array(importedLeadSchema),
  skips: z.array(skippedContactSchema),
  /** True when the import stopped at its most contacts (MAX_IMPORT_CONTACTS) with more left in HubSpot. */
  limit_reached: z.boolean(),
});

/**
 * A crm_import command's `progress`, kept after each page: the tally and
 * the cursor of the next page, so a redelivered or re-queued job goes on
 * from there and never reads a finished page again.
 */
export const crmImportProgressSchema = z.object({
  /** The outcome of the pages done; absent before the first. */
  tally: z.optional(importTallySchema),
  /** The next page's cursor; absent before the first page. */
  after: z.optional(z.string()),
  /** Pages done. */
  pages: z.optional(count()),
  /** How often HubSpot asked this import to wait (a 429 with a long Retry-After); bounded by MAX_RATE_LIMITED_WAITS. */
  waits: z.optional(count()),
});

export type ImportTally = z.infer<typeof importTallySchema>;
export type CrmImportProgress = z.infer<typeof crmImportProgressSchema>;
export type ImportedLead = z.infer<typeof importedLeadSchema>;
export type SkippedContact = z.infer<typeof skippedContactSchema>;

export const emptyTally = (): ImportTally => ({ created: 0, updated: 0, skipped: 0, leads: [], skips: [], limit_reached: false });
