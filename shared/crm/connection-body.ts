import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { LEAD_STATUS_TRIGGERS } from './lead-status';

/**
 * The body of `PUT /api/integrations/hubspot`, in a module of its own: the
 * first connect reads it (shared/crm/connection-api.ts); showing and
 * removing a connection never build its schema.
 */

/** Longest token or client secret accepted (HubSpot's are well under 100 characters). */
export const MAX_SECRET_LENGTH = 512;

/** A lead status value as HubSpot names its options internally: letters, digits and underscores. */
export const LEAD_STATUS_VALUE = /^[A-Za-z0-9_]{1,100}$/;

/** `PUT /api/integrations/hubspot`: `{access_token, client_secret?, lead_status_map?}`; unknown fields are refused. */
export const hubspotConnectionSchema = described(
  z.strictObject({
    access_token: described(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_SECRET_LENGTH)), {
      description:
        'The access token of a HubSpot private app of the portal (`pat-…`), with the scopes `crm.objects.contacts.read` and `crm.objects.contacts.write` (add `crm.lists.read` to import by list, `sales-email-read` to import logged e-mails). Checked against HubSpot before it is kept; stored encrypted; never shown again.',
      example: 'pat-na1-11111111-2222-3333-4444-555555555555',
    }),
    client_secret: described(z.optional(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_SECRET_LENGTH))), {
      description:
        "The private app's client secret, which signs HubSpot's webhook calls to `POST /webhooks/hubspot` (signature v3). Stored encrypted; never shown again. Absent: webhook calls for this portal are refused.",
      example: '7a3c1f0e-9b8d-4c6e-a5f4-3d2c1b0a9f8e',
    }),
    lead_status_map: described(
      z.optional(
        z.partialRecord(
          z.enum(LEAD_STATUS_TRIGGERS),
          z.string().check(z.trim(), z.regex(LEAD_STATUS_VALUE, 'must be an internal lead status value like CONNECTED')),
        ),
      ),
      {
        description:
          "Overrides of the default lead status table: which `hs_lead_status` value (HubSpot's internal name of an option) each trigger sets. Triggers left out keep the default.",
        example: { replied: 'OPEN_DEAL' },
      },
    ),
  }),
  {
    id: 'HubSpotConnectionRequest',
    description:
      "Connects (or reconnects) the tenant's HubSpot portal; replaces any connection it had. An unknown field is refused (INVALID_REQUEST).",
  },
);
