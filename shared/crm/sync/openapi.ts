import * as z from 'zod';
import { DEMO_LEAD_ID, DEMO_SITE_ID, instantField, uuidField } from '../../api/openapi/fields';
import { apiOperation, successEnvelope, type DocumentedOperation } from '../../api/openapi/operation';
import { SYNC_SOURCES } from './job';
import { MAX_LOGGED_DELIVERIES } from './log-api';

/**
 * The API reference of the CRM write-backs' delivery log (documentation
 * only: no function bundle imports this file).
 */
const TAG = {
  name: 'CRM',
  description:
    "The tenant's HubSpot connection: a private app's token, checked against HubSpot and kept encrypted, through which leads are imported and follow-up history and lead status are written back.",
};

const deliverySchema = z
  .object({
    source: z.enum(SYNC_SOURCES).meta({
      description:
        '`step`: a follow-up step reported sent; `follow_up`: a lead follow-up completed with its messages; `meeting_summary`: a call summary; `lead_event`: a reported lead event.',
    }),
    source_id: z
      .string()
      .meta({ description: "The step's, the command's, the call's or the event's id (`first` for the first step's lead status)." }),
    kind: z
      .string()
      .meta({ description: '`engagement` (a note, logged e-mail or logged call), or `lead_status:<trigger>`.', example: 'engagement' }),
    status: z.enum(['claimed', 'done', 'failed']).meta({
      description:
        '`claimed`: being written, or waiting for a retry; `done`: written; `failed`: refused by HubSpot (see `error`), its job ' +
        'dead-lettered until redriven.',
    }),
    contact_id: z.string().meta({ description: 'The HubSpot contact written to.', example: '1001' }),
    crm_record_id: z
      .string()
      .nullable()
      .meta({ description: "The HubSpot record written (an engagement's id); null otherwise.", example: '1042' }),
    lead_status: z.string().nullable().meta({ description: 'The lead status value set, for a lead status write.', example: null }),
    attempts: z.number().int().meta({ description: 'Attempts so far (a retry after HubSpot failed counts one more).', example: 1 }),
    error: z.string().nullable().meta({ description: "HubSpot's reason, when it refused the write.", example: null }),
    claimed_at: instantField('When the first attempt began.'),
    updated_at: instantField('When it last changed.'),
  })
  .meta({ id: 'CrmSync' });

/** GET /api/leads/{leadId}/crm-syncs. */
export const CRM_SYNC_OPERATIONS: readonly DocumentedOperation[] = [
  apiOperation({
    method: 'GET',
    path: '/api/leads/{leadId}/crm-syncs',
    operationId: 'listCrmSyncs',
    tag: TAG,
    summary: "List a lead's writes to HubSpot",
    description: [
      "The lead's delivery log: every write back to the tenant's HubSpot (a step reported sent, a completed lead follow-up, a call summary, a lead status), " +
        `one entry per write however often it was attempted, at most ${MAX_LOGGED_DELIVERIES}. ` +
        'Each is written once: HubSpot being down or limiting delays it (retried with back-off), never the request that caused it.',
      '',
      "Nothing is written, and nothing listed, for a lead not linked to a HubSpot contact or a tenant without a connection. The tenant's own writes only.",
    ].join('\n'),
    params: z.object({ leadId: uuidField('The lead (any case).', DEMO_LEAD_ID) }),
    query: z.object({ site_id: uuidField("The lead's site; the key must cover it.", DEMO_SITE_ID) }),
    errors: ['INVALID_REQUEST', 'FORBIDDEN'],
    answers: {
      200: {
        description: "The lead's writes, by source.",
        schema: successEnvelope(z.object({ site_id: z.string(), lead_id: z.string(), crm_syncs: z.array(deliverySchema) })),
        example: {
          success: true,
          data: {
            site_id: DEMO_SITE_ID,
            lead_id: DEMO_LEAD_ID,
            crm_syncs: [
              {
                source: 'step',
                source_id: 'e85c0b0e-5a3f-4c1d-9a57-3f0c2b7d9e11',
                kind: 'engagement',
                status: 'done',
                contact_id: '1001',
                crm_record_id: '1042',
                lead_status: null,
                attempts: 1,
                error: null,
                claimed_at: '2026-11-23T14:02:11.512Z',
                updated_at: '2026-11-23T14:02:11.904Z',
              },
            ],
          },
        },
      },
    },
  }),
];
