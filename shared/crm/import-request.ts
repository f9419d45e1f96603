import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { canonicalId } from '../platform/ids';
import { AppError } from '../platform/errors';
import { describeFirstIssue, toIssueDetails } from '../platform/validation';
import { MAX_PAGE_SIZE } from '../providers/crm/port';
import { CRM_VALIDATION_CODE } from './connection-api';

/** A HubSpot object id: digits (contacts and lists alike). */
const HUBSPOT_ID = /^[0-9]{1,20}$/;

/** Most contact ids one import names (one batch read of HubSpot's). */
export const MAX_IMPORT_CONTACT_IDS = MAX_PAGE_SIZE;

/**
 * `POST /api/integrations/hubspot/import`: the site the contacts become
 * leads of, and which contacts: `contact_ids`, a `list_id`, or (neither)
 * every contact of the portal. Unknown fields are refused.
 */
export const crmImportRequestSchema = described(
  z
    .strictObject({
      site_id: described(z.string().check(z.trim(), z.minLength(1), z.maxLength(128)), {
        format: 'uuid',
        description: 'The site whose leads the contacts become.',
      }),
      contact_ids: described(
        z.optional(
          z
            .array(z.string().check(z.trim(), z.regex(HUBSPOT_ID, 'must be a HubSpot contact id (digits)')))
            .check(z.minLength(1), z.maxLength(MAX_IMPORT_CONTACT_IDS)),
        ),
        { description: `HubSpot contact ids to import (at most ${MAX_IMPORT_CONTACT_IDS}); not with \`list_id\`.`, example: ['101'] },
      ),
      list_id: described(z.optional(z.string().check(z.trim(), z.regex(HUBSPOT_ID, 'must be a HubSpot list id (digits)'))), {
        description: 'A HubSpot list (its ILS list id): its members are imported; not with `contact_ids`.',
        example: '12',
      }),
    })
    .check(
      z.refine((body) => body.contact_ids === undefined || body.list_id === undefined, {
        message: 'name contact_ids or list_id, not both',
        path: ['list_id'],
      }),
    ),
  {
    id: 'HubSpotImportRequest',
    description:
      "Imports the tenant's HubSpot contacts as leads of the site: `contact_ids`, the members of `list_id`, or (neither) every contact. A contact imported again updates its lead.",
  },
);

/** A validated import request, as the command stores it. */
export interface CrmImportRequest {
  site_id: string;
  /** Which contacts: the named ones, a list's members, or every contact. */
  source: { kind: 'contacts'; contact_ids: string[] } | { kind: 'list'; list_id: string } | { kind: 'all' };
}

/** How the command's stored request is read back. */
export const crmImportStoredRequest = z.object({
  site_id: z.string(),
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('contacts'), contact_ids: z.array(z.string()) }),
    z.object({ kind: z.literal('list'), list_id: z.string() }),
    z.object({ kind: z.literal('all') }),
  ]),
});

/** Parses the body (400 INVALID_REQUEST naming the field at fault). */
export function parseCrmImportRequest(raw: unknown): CrmImportRequest {
  const parsed = crmImportRequestSchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError(CRM_VALIDATION_CODE, describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const { site_id: siteId, contact_ids: contactIds, list_id: listId } = parsed.data;
  return {
    site_id: canonicalId(siteId),
    source: contactIds
      ? { kind: 'contacts', contact_ids: [...new Set(contactIds)] }
      : listId
        ? { kind: 'list', list_id: listId }
        : { kind: 'all' },
  };
}
