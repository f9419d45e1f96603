import * as z from 'zod';
import { commandIdField, EXAMPLE_COMMAND_ID, instantField } from '../api/openapi/fields';
import { apiOperation, commandOperation, successEnvelope, webhookOperation, type DocumentedOperation } from '../api/openapi/operation';
import { HUBSPOT_SCOPES } from '../providers/crm/hubspot';
import { hubspotConnectionSchema } from './connection-body';
import { importTallySchema } from './import-progress';
import { crmImportRequestSchema } from './import-request';
import { MAX_IMPORT_CONTACTS } from './import-phase';
import { DEFAULT_LEAD_STATUS_MAP, LEAD_STATUS_TRIGGERS } from './lead-status';
import { LEAD_STAGE_OF_STATUS } from './lead-mapping';
import { HUBSPOT_WEBHOOK_PATH, MAX_WEBHOOK_EVENTS, SIGNAL_PROPERTIES } from './webhook-receiver';

/**
 * The API reference of the CRM integration (documentation only: no function
 * bundle imports this file): the /api/integrations/hubspot routes, their
 * body connection-api.ts's own schema, their answer as presenter.ts shapes it.
 */
const TAG = {
  name: 'CRM',
  description:
    "The tenant's HubSpot connection: a private app's token, checked against HubSpot and kept encrypted, through which leads are imported and follow-up history and lead status are written back.",
};

const EXAMPLE_AT = '2026-11-23T14:02:11.512Z';

/** The label of everything that went to the local CRM of `npm start` instead of HubSpot. */
const localField = () =>
  z.literal(true).optional().meta({
    description:
      'Present (true) when the connection goes to the local CRM of `npm start` (a HubSpot-compatible server on that machine, standing in for HubSpot when `HUBSPOT_API_BASE_URL` is not set), not to HubSpot; absent otherwise.',
    example: true,
  });

export const hubspotConnectionViewSchema = z
  .object({
    provider: z.literal('hubspot'),
    local: localField(),
    connected: z.literal(true),
    portal_id: z
      .string()
      .meta({ description: 'The HubSpot portal (hub) id the token belongs to, as HubSpot reported it.', example: '24681357' }),
    scopes: z
      .array(z.string())
      .meta({ description: 'The scopes the token carried when it was checked, sorted.', example: [...HUBSPOT_SCOPES.required] }),
    connected_at: instantField('When the portal was connected (reconnecting the same portal keeps it).'),
    last_sync_at: z.string().nullable().meta({
      format: 'date-time',
      description: 'When an import or a write-back last reached HubSpot; `null` before the first.',
      example: null,
    }),
    last_error: z
      .object({ at: instantField('When it failed.'), message: z.string().meta({ example: 'The CRM refused the credentials: …' }) })
      .nullable()
      .meta({
        description: 'The last failure talking to HubSpot, cleared by the next success (and by connecting again); `null` when none.',
      }),
    client_secret_set: z.boolean().meta({ description: "True when a client secret is kept, so HubSpot's webhook calls can be checked." }),
    lead_status_map: z.record(z.enum(LEAD_STATUS_TRIGGERS), z.string()).meta({
      description: "The whole lead status table in use: the defaults with the connection's overrides.",
      example: DEFAULT_LEAD_STATUS_MAP,
    }),
  })
  .meta({
    id: 'HubSpotConnection',
    description: "The tenant's HubSpot connection as every answer shows it: never the token nor the client secret.",
  });

const connectionExample = {
  provider: 'hubspot',
  connected: true,
  portal_id: '24681357',
  scopes: [...HUBSPOT_SCOPES.required, ...HUBSPOT_SCOPES.optional].sort(),
  connected_at: EXAMPLE_AT,
  last_sync_at: null,
  last_error: null,
  client_secret_set: true,
  lead_status_map: { ...DEFAULT_LEAD_STATUS_MAP, replied: 'OPEN_DEAL' },
};

const defaults = LEAD_STATUS_TRIGGERS.map((trigger) => `\`${trigger}\` → \`${DEFAULT_LEAD_STATUS_MAP[trigger]}\``).join(', ');

const stages = Object.entries(LEAD_STAGE_OF_STATUS)
  .map(([status, stage]) => `\`${status}\` → \`${stage}\``)
  .join(', ');

/** The /api/integrations/hubspot routes. */
export const CRM_OPERATIONS: readonly DocumentedOperation[] = [
  apiOperation({
    method: 'PUT',
    path: '/api/integrations/hubspot',
    operationId: 'connectHubSpot',
    tag: TAG,
    summary: 'Connect HubSpot',
    description: [
      "Connects the key's tenant to a HubSpot portal with a private app's access token (and, for HubSpot's webhook calls, its client secret), replacing any connection it had. " +
        "The token is checked against HubSpot first: a token HubSpot refuses, or one without the contacts scopes, answers 400 INVALID_REQUEST with HubSpot's reason and nothing is kept. " +
        "The token and client secret are stored encrypted with a key of the tenant's own and are never shown again nor logged. " +
        'Reconnecting the same portal keeps `connected_at` and `last_sync_at` and clears `last_error`.',
      '',
      `Lead status table by default: ${defaults}; \`lead_status_map\` overrides any of them.`,
      '',
      'HubSpot answering 429 answers RATE_LIMITED with its `Retry-After`; HubSpot not answering answers SYSTEM_ERROR (nothing kept either way). ' +
        'Two connections made at the same moment: one answers 409 INVALID_TRANSITION.',
    ].join('\n'),
    body: {
      schema: hubspotConnectionSchema,
      example: { access_token: 'pat-na1-11111111-2222-3333-4444-555555555555', client_secret: '7a3c1f0e-9b8d-4c6e-a5f4-3d2c1b0a9f8e' },
    },
    errors: ['INVALID_REQUEST', 'INVALID_TRANSITION', 'RATE_LIMITED'],
    answers: {
      200: {
        description: 'Connected: the connection as GET shows it.',
        schema: successEnvelope(hubspotConnectionViewSchema),
        example: { success: true, data: connectionExample },
      },
    },
  }),
  apiOperation({
    method: 'GET',
    path: '/api/integrations/hubspot',
    operationId: 'getHubSpotConnection',
    tag: TAG,
    summary: 'Show the HubSpot connection',
    description:
      "The key's tenant's HubSpot connection: its portal, scopes, last sync and last error; never a secret. 404 NOT_FOUND when it has none.",
    errors: ['NOT_FOUND'],
    answers: {
      200: {
        description: 'The connection.',
        schema: successEnvelope(hubspotConnectionViewSchema),
        example: { success: true, data: { ...connectionExample, last_sync_at: '2026-11-23T15:00:00.000Z' } },
      },
    },
  }),
  apiOperation({
    method: 'DELETE',
    path: '/api/integrations/hubspot',
    operationId: 'disconnectHubSpot',
    tag: TAG,
    summary: 'Disconnect HubSpot',
    description:
      'Forgets the connection and its secrets: nothing is read from or written to the portal for this tenant any more, and its webhook calls are refused. ' +
      'Leads already imported stay. Disconnecting again answers 404 NOT_FOUND.',
    errors: ['NOT_FOUND'],
    answers: {
      200: {
        description: 'Disconnected.',
        schema: successEnvelope(
          z.object({
            provider: z.literal('hubspot'),
            local: localField(),
            portal_id: z.string().meta({ example: '24681357' }),
            deleted: z.literal(true),
          }),
        ),
        example: { success: true, data: { provider: 'hubspot', portal_id: '24681357', deleted: true } },
      },
    },
  }),
  commandOperation({
    method: 'POST',
    path: '/api/integrations/hubspot/import',
    operationId: 'importHubSpotContacts',
    tag: TAG,
    summary: 'Import HubSpot contacts as leads',
    description: [
      "Starts a `crm_import` command: reads the tenant's HubSpot contacts (`contact_ids`, the members of `list_id`, or every contact), page by page within HubSpot's rate limits, " +
        'and upserts each as a lead of the site: name, company, email, phone, job title → `position`, lead status → `lead_stage`, its latest notes and e-mails → `interactions`. ' +
        'Each lead remembers its contact for the tenant: importing the contact again updates the same lead (same `lead_id`). A contact with neither e-mail nor phone, or with a field longer than a lead holds, is skipped with its reason.',
      '',
      `Lead status → stage: ${stages}; another status becomes its name in lower case; none leaves the stage as it was.`,
      '',
      `At most ${MAX_IMPORT_CONTACTS} contacts per import (\`limit_reached\` says more were left). HubSpot asking to wait delays the import; HubSpot failing retries it. ` +
        '404 NOT_FOUND when the tenant has no HubSpot connection.',
    ].join('\n'),
    body: { schema: crmImportRequestSchema, example: { site_id: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c', list_id: '12' } },
    errors: ['INVALID_REQUEST', 'SITE_NOT_FOUND', 'FORBIDDEN', 'NOT_FOUND'],
    failures: ['NOT_FOUND', 'INVALID_REQUEST', 'SYSTEM_ERROR'],
    accepted: z.object({
      command_id: commandIdField,
      status: z.literal('in_progress'),
      site_id: z.string(),
      source: z.enum(['contacts', 'list', 'all']).meta({ description: 'Which contacts: the named ones, a list, or every contact.' }),
    }),
    acceptedExample: {
      success: true,
      data: { command_id: EXAMPLE_COMMAND_ID, status: 'in_progress', site_id: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c', source: 'list' },
    },
    completed: successEnvelope(z.object({ ...importTallySchema.shape, command_id: commandIdField })),
  }),
  webhookOperation({
    method: 'POST',
    path: HUBSPOT_WEBHOOK_PATH,
    operationId: 'hubspotWebhook',
    tag: TAG,
    summary: "HubSpot's webhook calls",
    description:
      "Called by HubSpot, never by clients: no API key. The request must carry `X-HubSpot-Signature-v3` (base64 HMAC-SHA256 with the private app's client secret over " +
      'the method, PUBLIC_BASE_URL + this path + query, the raw body and `X-HubSpot-Request-Timestamp`), checked against the connections of the portal the events name, ' +
      'and be at most 5 minutes old; anything else answers 401 UNAUTHORIZED and changes nothing. For each tenant whose connection signed it: `contact.propertyChange` and ' +
      '`contact.creation` of a contact linked to leads re-import it (a `crm_import` command of those contacts, once per call however often HubSpot retries it); ' +
      `a change of ${Object.entries(SIGNAL_PROPERTIES)
        .map(([name, type]) => `\`${name}\` is reported as a \`${type}\` lead event`)
        .join(', ')} (as POST /api/leads/{leadId}/events would, once per HubSpot event). Other contacts and events are ignored.`,
    headers: z.object({
      'X-HubSpot-Signature-v3': z.string().meta({ description: "HubSpot's signature of the request (base64 HMAC-SHA256)." }),
      'X-HubSpot-Request-Timestamp': z
        .string()
        .meta({ description: 'When HubSpot sent it (epoch milliseconds).', example: '1795700000000' }),
    }),
    body: {
      contentType: 'application/json',
      schema: z
        .array(
          z.looseObject({
            eventId: z.number(),
            subscriptionType: z.string().meta({ example: 'contact.propertyChange' }),
            portalId: z.number(),
            objectId: z.number(),
            occurredAt: z.number().optional(),
            propertyName: z.string().optional(),
            propertyValue: z.string().optional(),
          }),
        )
        .max(MAX_WEBHOOK_EVENTS),
    },
    errors: ['UNAUTHORIZED', 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'SYSTEM_ERROR'],
    answers: { 204: { description: 'Taken: the linked contacts are being re-imported; the rest ignored.' } },
  }),
];
