import * as z from 'zod';
import { commandViewSchema } from '../api/openapi/commands';
import { instantField } from '../api/openapi/fields';
import { apiOperation, successEnvelope, webhookEvent, type DocumentedEvent, type DocumentedOperation } from '../api/openapi/operation';
import { MAX_COMMAND_DATA_BYTES } from './command-events';
import { DEFAULT_DELIVERIES_LISTED, MAX_DELIVERIES_LISTED } from './deliveries-api';
import { DELIVERY_TIMEOUT_MS } from './delivery';
import { MAX_ENDPOINTS_PER_TENANT } from './endpoint-store';
import { registrationSchema, ROTATION_GRACE_SECONDS, rotationSchema, updateSchema } from './endpoint-bodies';
import { DEFAULT_EVENTS_LISTED, MAX_EVENTS_LISTED } from './events-api';
import { ALL_EVENTS, EVENT_TYPES } from './event-types';
import { EXCERPT_CHARACTERS } from './http-post';
import { ENDPOINT_ID_PATTERN, EVENT_ID_PATTERN, SECRET_PATTERN } from './ids';
import { DEFAULT_RETRY_DELAYS_SECONDS } from './settings';
import { TEST_EVENT_TYPE } from './test-event';

/**
 * The API reference of the completion webhooks (documentation only: no
 * function bundle imports this file): the six /api/webhooks routes, their
 * bodies endpoints-api.ts's own schemas (descriptions included), their answers as
 * presenter.ts shapes them; and the command events this feature publishes.
 */
const TAG = {
  name: 'Webhooks',
  description:
    "Endpoints of the tenant that hear of its events (see *Webhook events*): each POST is signed with the endpoint's secret (`Switchboard-Signature`, Stripe's scheme, " +
    'and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`), ' +
    'delivered at least once and retried with back-off; every delivery is recorded and may be redelivered.',
};

const EXAMPLE_ENDPOINT_ID = 'we_4f1c2a9d8e7b6a5f4e3d2c1b';
const EXAMPLE_EVENT_ID = 'evt_01a209511ec77208b4ec083ecf7df55b';
const EXAMPLE_SECRET = 'whsec_Q2xWbE9tYkR5S1l0U3ZqTnA4Rmd6UWh3ZXJ0eXVpb3Az';
const EXAMPLE_AT = '2026-11-23T14:02:11.512Z';

const eventsField = z.array(z.enum([ALL_EVENTS, ...EVENT_TYPES]));

const endpointFields = {
  id: z
    .string()
    .regex(ENDPOINT_ID_PATTERN)
    .meta({ description: "The endpoint's id: `we_` and 24 hex digits.", example: EXAMPLE_ENDPOINT_ID }),
  url: z.string().meta({ format: 'uri', example: 'https://crm.example.com/hooks/switchboard' }),
  events: eventsField.meta({
    description: 'The event types it hears of: `["*"]` for every type, otherwise types of the list, each once.',
    example: ['command.completed', 'command.failed'],
  }),
  description: z.string().optional().meta({ description: 'Absent when none was given.', example: 'CRM sync' }),
  status: z.enum(['enabled', 'disabled']).meta({ description: '`disabled` while `disabled` is true: it hears of no event.' }),
  disabled: z.boolean().meta({
    description:
      'True while it hears of nothing: disabled with PATCH, or by the service after its deliveries failed without a success for `WEBHOOK_DISABLE_AFTER` (default 5 days). ' +
      'Re-enabled with PATCH `{"disabled": false}`: it hears of events from then on; deliveries of the disabled period are not sent (redeliver one to send it).',
    example: false,
  }),
  disabled_reason: z.enum(['requested', 'failing']).nullable().meta({
    description:
      '`requested`: disabled with PATCH; `failing`: disabled by the service for failing (see `failing_since`); `null` while enabled.',
    example: null,
  }),
  disabled_at: z
    .string()
    .nullable()
    .meta({ format: 'date-time', description: 'When it was disabled; `null` while enabled.', example: null }),
  failing_since: z.string().nullable().meta({
    format: 'date-time',
    description: 'When its first failed attempt since its last success was made; `null` while its deliveries succeed.',
    example: null,
  }),
  created_at: instantField('When it was registered.'),
  updated_at: instantField('When it last changed (an update, a rotation, being disabled).'),
  previous_secret_expires_at: z.string().nullable().meta({
    format: 'date-time',
    description: 'Until when the secret replaced by the last rotation still signs beside the current one; `null` when none does.',
    example: null,
  }),
};

export const webhookEndpointSchema = z.object(endpointFields).meta({
  id: 'WebhookEndpoint',
  description: 'A webhook endpoint of the tenant, as every answer shows it: never its secrets, save the one answer that creates one.',
});

export const webhookEndpointWithSecretSchema = z
  .object({
    ...endpointFields,
    secret: z
      .string()
      .regex(SECRET_PATTERN)
      .meta({
        description:
          'The signing secret (`whsec_` and 44 base64 characters, letters and digits only), shown in this answer only: keep it. ' +
          'The whole string keys `Switchboard-Signature`; the bytes its part after `whsec_` decodes to key `webhook-signature` (Standard Webhooks), so it is the secret a `standardwebhooks` or `svix` verifier takes as is. ' +
          'It cannot be read again; a lost secret is replaced with POST /api/webhooks/{id}/rotate-secret.',
        example: EXAMPLE_SECRET,
      }),
  })
  .meta({
    id: 'WebhookEndpointWithSecret',
    description: 'A webhook endpoint with its new signing secret: the answer of a registration or a rotation, the only one that shows it.',
  });

const attemptSchema = z
  .object({
    number: z.number().int().min(1).meta({ description: "1 for the delivery's first attempt; redeliveries continue the count." }),
    at: instantField('When it was sent.'),
    trigger: z
      .enum(['automatic', 'redelivery'])
      .meta({ description: '`automatic`: the first attempt or a retry; `redelivery`: asked for with the redeliver route.' }),
    response_status: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The endpoint's HTTP status; `null` when no answer came.", example: 200 }),
    duration_ms: z.number().int().min(0),
    error: z.string().optional().meta({
      description: 'Why no answer came, or why nothing was sent (a timeout, a connection error, an address no longer allowed).',
      example: 'no answer within 10 s',
    }),
    response_excerpt: z
      .string()
      .optional()
      .meta({ description: `The start of the answer's body, cleaned (at most ${EXCERPT_CHARACTERS} characters).` }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const webhookDeliverySchema = z
  .object({
    event_id: z
      .string()
      .regex(EVENT_ID_PATTERN)
      .meta({ description: "The event's id (`evt_` and 32 hex digits), as its payload's `id`.", example: EXAMPLE_EVENT_ID }),
    event_type: z.string().meta({ example: 'command.completed' }),
    endpoint_id: z.string().meta({ example: EXAMPLE_ENDPOINT_ID }),
    status: z.enum(['pending', 'delivered', 'failed']).meta({
      description:
        '`pending` until an attempt is answered 2xx (`delivered`) or the last attempt of its retry schedule fails (`failed`); a redelivery makes it `pending` again.',
    }),
    attempts: z.number().int().min(0).meta({ description: 'Attempts made so far (redeliveries included).' }),
    last_attempt_at: z.string().nullable().meta({ format: 'date-time', description: '`null` before the first attempt.' }),
    last_response_status: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The last attempt's HTTP status; `null` before any attempt or when no answer came." }),
    last_error: z.string().nullable().meta({ description: 'Why the last attempt got no answer (or was not sent); otherwise `null`.' }),
    next_attempt_at: z
      .string()
      .nullable()
      .meta({ format: 'date-time', description: 'When the next attempt is due, while `pending`; otherwise `null`.' }),
    delivered_at: z.string().nullable().meta({ format: 'date-time', description: 'When an attempt was last answered 2xx; `null` before.' }),
    created_at: instantField('When the event was first to be delivered here.'),
    updated_at: instantField('When the delivery last changed.'),
    attempt_log: z.array(attemptSchema).max(20).meta({ description: 'The latest attempts (at most 20), oldest first.' }),
  })
  .meta({ id: 'WebhookDelivery', description: "One event's delivery to one endpoint: where it stands, and its attempts." });

const endpointParams = z.object({
  id: z.string().meta({
    description: "The endpoint's id (`we_…`). A malformed id, another tenant's or a deleted one answers 404 NOT_FOUND.",
    example: EXAMPLE_ENDPOINT_ID,
  }),
});

const endpointExample = {
  id: EXAMPLE_ENDPOINT_ID,
  url: 'https://crm.example.com/hooks/switchboard',
  events: ['command.completed', 'command.failed'],
  description: 'CRM sync',
  status: 'enabled',
  disabled: false,
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  created_at: EXAMPLE_AT,
  updated_at: EXAMPLE_AT,
  previous_secret_expires_at: null,
};

const deliveryExample = {
  event_id: EXAMPLE_EVENT_ID,
  event_type: 'command.completed',
  endpoint_id: EXAMPLE_ENDPOINT_ID,
  status: 'pending',
  attempts: 1,
  last_attempt_at: '2026-11-23T14:02:12.020Z',
  last_response_status: 503,
  last_error: null,
  next_attempt_at: '2026-11-23T14:02:42.120Z',
  delivered_at: null,
  created_at: '2026-11-23T14:02:11.980Z',
  updated_at: '2026-11-23T14:02:12.120Z',
  attempt_log: [
    {
      number: 1,
      at: '2026-11-23T14:02:12.020Z',
      trigger: 'automatic',
      response_status: 503,
      duration_ms: 96,
      response_excerpt: 'Service Unavailable',
    },
  ],
};

const schedule = DEFAULT_RETRY_DELAYS_SECONDS.map((seconds) =>
  seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`,
).join(', ');
const INPUT_ERRORS =
  'Input errors answer 400 VALIDATION_ERROR with zod-style `details` (`path: ["url"]`, `["events", 0]`, …); a body that is not JSON, or nests too deep, is VALIDATION_ERROR too.';

const listedEventSchema = z
  .object({
    id: z.string().regex(EVENT_ID_PATTERN).meta({ description: "The event's id, as its payload's `id`.", example: EXAMPLE_EVENT_ID }),
    type: z.enum(EVENT_TYPES).meta({ example: 'command.completed' }),
    created_at: instantField('When it happened.'),
    data: z.record(z.string(), z.unknown()).meta({ description: "The payload's `data`, as every delivery of it sends it." }),
  })
  .meta({ id: 'WebhookEventSummary', description: 'An event of the tenant, as its deliveries send it.' });

const testAttemptSchema = z
  .object({
    event_id: z
      .string()
      .regex(EVENT_ID_PATTERN)
      .meta({ description: 'The id of the `webhook.test` event sent.', example: EXAMPLE_EVENT_ID }),
    status: z.number().int().nullable().meta({ description: "The endpoint's HTTP status; `null` when no answer came.", example: 200 }),
    duration_ms: z.number().int().min(0).meta({ example: 84 }),
    excerpt: z
      .string()
      .nullable()
      .meta({
        description: `The start of the answer's body, cleaned (at most ${EXCERPT_CHARACTERS} characters); \`null\` when empty.`,
        example: '{"received":true}',
      }),
    error: z.string().optional().meta({ description: 'Why no answer came, or why nothing was sent.', example: 'no answer within 10 s' }),
  })
  .meta({ id: 'WebhookTestAttempt', description: 'The test attempt: what the endpoint answered, and how fast.' });

const eventParams = z.object({
  id: z.string().meta({
    description: "The event's id (`evt_…`). A malformed id, another tenant's, or one older than 30 days answers 404 NOT_FOUND.",
    example: EXAMPLE_EVENT_ID,
  }),
});

/** The /api/webhooks and /api/events routes. */
export const WEBHOOK_OPERATIONS: readonly DocumentedOperation[] = [
  apiOperation({
    method: 'POST',
    path: '/api/webhooks',
    operationId: 'createWebhook',
    tag: TAG,
    summary: 'Register a webhook endpoint',
    description: [
      `Registers an endpoint for the key's tenant (at most ${MAX_ENDPOINTS_PER_TENANT}; one more answers VALIDATION_ERROR: delete one first). ` +
        'The URL is checked and its host resolved now, and again before every delivery; the request goes to the address checked. ' +
        'The answer shows the signing secret, this once.',
      '',
      INPUT_ERRORS,
    ].join('\n'),
    body: {
      schema: registrationSchema,
      example: {
        url: 'https://crm.example.com/hooks/switchboard',
        events: ['command.completed', 'command.failed'],
        description: 'CRM sync',
      },
    },
    errors: ['VALIDATION_ERROR'],
    answers: {
      201: {
        description: 'Registered: the endpoint and its `secret` (shown in this answer only).',
        schema: successEnvelope(webhookEndpointWithSecretSchema),
        example: { success: true, data: { ...endpointExample, secret: EXAMPLE_SECRET } },
      },
    },
  }),
  apiOperation({
    method: 'GET',
    path: '/api/webhooks',
    operationId: 'listWebhooks',
    tag: TAG,
    summary: 'List the webhook endpoints',
    description: "The key's tenant's endpoints, oldest first; never a secret.",
    errors: [],
    answers: {
      200: {
        description: 'The endpoints (an empty list when there are none).',
        schema: successEnvelope(z.object({ webhooks: z.array(webhookEndpointSchema).max(MAX_ENDPOINTS_PER_TENANT) })),
        example: { success: true, data: { webhooks: [endpointExample] } },
      },
    },
  }),
  apiOperation({
    method: 'GET',
    path: '/api/webhooks/{id}',
    operationId: 'getWebhook',
    tag: TAG,
    summary: 'Show a webhook endpoint',
    description:
      "One of the key's tenant's endpoints, as the list shows it: its events, whether it is disabled and why; never the secret. " +
      "Another tenant's endpoint, or none, answers 404 NOT_FOUND.",
    params: endpointParams,
    errors: ['NOT_FOUND'],
    answers: {
      200: {
        description: 'The endpoint.',
        schema: successEnvelope(webhookEndpointSchema),
        example: { success: true, data: endpointExample },
      },
    },
  }),
  apiOperation({
    method: 'PATCH',
    path: '/api/webhooks/{id}',
    operationId: 'updateWebhook',
    tag: TAG,
    summary: 'Update a webhook endpoint',
    description: [
      'Changes the fields given, at least one: `url` (checked exactly as at registration), `events`, `description` (blank removes it), `disabled`. ' +
        'A disabled endpoint hears of nothing; enabled again, it hears of events from then on, and the deliveries of its disabled period are not sent ' +
        '(redeliver one to send it). The service disables an endpoint whose deliveries failed without a success for `WEBHOOK_DISABLE_AFTER` ' +
        '(default 5 days; `disabled_reason: "failing"`) and tells the tenant\'s other endpoints (`webhook_endpoint.disabled`). Never shows the secret.',
      '',
      `An empty body or an unknown field answers VALIDATION_ERROR, and nothing changes. ${INPUT_ERRORS}`,
    ].join('\n'),
    params: endpointParams,
    body: { schema: updateSchema, example: { url: 'https://crm.example.com/hooks/switchboard-v2', disabled: false } },
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
    answers: {
      200: {
        description: 'Updated: the endpoint as it is now.',
        schema: successEnvelope(webhookEndpointSchema),
        example: { success: true, data: { ...endpointExample, url: 'https://crm.example.com/hooks/switchboard-v2' } },
      },
    },
  }),
  apiOperation({
    method: 'POST',
    path: '/api/webhooks/{id}/test',
    operationId: 'testWebhook',
    tag: TAG,
    summary: 'Send a test event',
    description:
      `Sends a signed \`${TEST_EVENT_TYPE}\` event (\`data: {webhook_endpoint: {id, url}, message}\`) to the endpoint now, disabled or not (to check a fix before enabling it), ` +
      `and answers the attempt once it ends (within ${DELIVERY_TIMEOUT_MS / 1000} s): whatever the endpoint answered is a 200 here. ` +
      'The event is not kept, listed or retried; no body is read.',
    params: endpointParams,
    errors: ['NOT_FOUND'],
    answers: {
      200: {
        description: 'The attempt.',
        schema: successEnvelope(testAttemptSchema),
        example: { success: true, data: { event_id: EXAMPLE_EVENT_ID, status: 200, duration_ms: 84, excerpt: '{"received":true}' } },
      },
    },
  }),
  apiOperation({
    method: 'GET',
    path: '/api/events',
    operationId: 'listEvents',
    tag: TAG,
    summary: 'List the events',
    description:
      "The key's tenant's events of the last 30 days that went to at least one endpoint, newest first, each with its payload's `data`. " +
      'Read the next page with `cursor` set to `next_cursor`, until it is `null`.',
    query: z.object({
      type: z
        .enum(EVENT_TYPES)
        .optional()
        .meta({ description: 'Only events of this type; an unknown type answers VALIDATION_ERROR.', example: 'command.completed' }),
      limit: z
        .string()
        .optional()
        .meta({
          description: `How many (a whole number from 1 to ${MAX_EVENTS_LISTED}; default ${DEFAULT_EVENTS_LISTED}); anything else answers VALIDATION_ERROR.`,
          example: '20',
        }),
      cursor: z.string().optional().meta({ description: "The previous page's `next_cursor`; anything else answers VALIDATION_ERROR." }),
    }),
    errors: ['VALIDATION_ERROR'],
    answers: {
      200: {
        description: 'A page of events (an empty list when there are none).',
        schema: successEnvelope(
          z.object({
            events: z.array(listedEventSchema).max(MAX_EVENTS_LISTED),
            next_cursor: z.string().nullable().meta({ description: 'Reads the next page; `null` on the last.' }),
          }),
        ),
        example: {
          success: true,
          data: {
            events: [
              {
                id: EXAMPLE_EVENT_ID,
                type: 'command.completed',
                created_at: EXAMPLE_AT,
                data: { command: { command_id: '01936b2e-7c1a-7000-8000-000000000001', status: 'completed' } },
              },
            ],
            next_cursor: null,
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'POST',
    path: '/api/events/{id}/redeliver',
    operationId: 'redeliverEvent',
    tag: TAG,
    summary: 'Redeliver an event to every endpoint',
    description:
      'Sends the event again to every endpoint of the tenant that is enabled now and subscribes to its type, whether or not it had it: each gets a delivery due now with a fresh retry schedule ' +
      '(same `id`, same body, signed anew). An endpoint with an attempt of it in flight is listed under `skipped`: try again shortly. No body is read.',
    params: eventParams,
    errors: ['NOT_FOUND'],
    answers: {
      202: {
        description: 'Accepted: the endpoints whose delivery was queued.',
        schema: successEnvelope(
          z.object({
            event_id: z.string().meta({ example: EXAMPLE_EVENT_ID }),
            type: z.string().meta({ example: 'command.completed' }),
            queued: z.array(z.object({ endpoint_id: z.string() })).max(MAX_ENDPOINTS_PER_TENANT),
            skipped: z.array(z.object({ endpoint_id: z.string(), reason: z.string() })).max(MAX_ENDPOINTS_PER_TENANT),
          }),
        ),
        example: {
          success: true,
          data: { event_id: EXAMPLE_EVENT_ID, type: 'command.completed', queued: [{ endpoint_id: EXAMPLE_ENDPOINT_ID }], skipped: [] },
        },
      },
    },
  }),
  apiOperation({
    method: 'DELETE',
    path: '/api/webhooks/{id}',
    operationId: 'deleteWebhook',
    tag: TAG,
    summary: 'Delete a webhook endpoint',
    description:
      'Deletes the endpoint: it hears of no more events, and its pending deliveries stop (no further attempt is sent). Deleting it again answers 404 NOT_FOUND.',
    params: endpointParams,
    errors: ['NOT_FOUND'],
    answers: {
      200: {
        description: 'Deleted.',
        schema: successEnvelope(z.object({ id: z.string().meta({ example: EXAMPLE_ENDPOINT_ID }), deleted: z.literal(true) })),
        example: { success: true, data: { id: EXAMPLE_ENDPOINT_ID, deleted: true } },
      },
    },
  }),
  (() => {
    const operation = apiOperation({
      method: 'POST',
      path: '/api/webhooks/{id}/rotate-secret',
      operationId: 'rotateWebhookSecret',
      tag: TAG,
      summary: "Rotate an endpoint's signing secret",
      description: [
        'A new secret signs every delivery from now on, shown in this answer only. The secret it replaces keeps signing beside it (a second `v1` in `Switchboard-Signature`, newest first) ' +
          `for ${ROTATION_GRACE_SECONDS / 3600} hours, or for \`previous_secret_expires_in\` seconds, so a receiver can switch without losing a delivery; ` +
          'a secret still in its grace period from an earlier rotation stops signing at once.',
        '',
        'Answers 409 INVALID_TRANSITION when another rotation of the endpoint changed it at the same moment, twice in a row: try again. ' +
          INPUT_ERRORS,
      ].join('\n'),
      params: endpointParams,
      body: { schema: rotationSchema, description: 'Optional.', example: { previous_secret_expires_in: 3600 } },
      errors: ['VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_TRANSITION'],
      answers: {
        200: {
          description: 'Rotated: the endpoint, its new `secret` (shown in this answer only), and until when the replaced one still signs.',
          schema: successEnvelope(webhookEndpointWithSecretSchema),
          example: {
            success: true,
            data: {
              ...endpointExample,
              updated_at: '2026-11-24T09:00:00.000Z',
              previous_secret_expires_at: '2026-11-24T10:00:00.000Z',
              secret: EXAMPLE_SECRET,
            },
          },
        },
      },
    });
    operation.route.request!.body!.required = false;
    return operation;
  })(),
  apiOperation({
    method: 'GET',
    path: '/api/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: TAG,
    summary: "List an endpoint's deliveries",
    description:
      "The endpoint's latest deliveries, newest first (by event), each with its status, attempt count, last answer, next attempt and attempt log. " +
      'Deliveries are kept a month after their last change.',
    params: endpointParams,
    query: z.object({
      limit: z
        .string()
        .optional()
        .meta({
          description: `How many (a whole number from 1 to ${MAX_DELIVERIES_LISTED}; default ${DEFAULT_DELIVERIES_LISTED}); anything else answers VALIDATION_ERROR.`,
          example: '20',
        }),
    }),
    errors: ['VALIDATION_ERROR', 'NOT_FOUND'],
    answers: {
      200: {
        description: 'The deliveries (an empty list when there are none).',
        schema: successEnvelope(
          z.object({
            endpoint_id: z.string().meta({ example: EXAMPLE_ENDPOINT_ID }),
            deliveries: z.array(webhookDeliverySchema).max(MAX_DELIVERIES_LISTED),
          }),
        ),
        example: { success: true, data: { endpoint_id: EXAMPLE_ENDPOINT_ID, deliveries: [deliveryExample] } },
      },
    },
  }),
  apiOperation({
    method: 'POST',
    path: '/api/webhooks/{id}/deliveries/{event_id}/redeliver',
    operationId: 'redeliverWebhookEvent',
    tag: TAG,
    summary: 'Redeliver an event',
    description:
      'Makes the delivery `pending` again, due now, with a fresh retry schedule; its next attempt sends the same event (same `id`, same body), signed anew. ' +
      'Any delivery may be redelivered, a delivered one too; no body is read. Answers 409 INVALID_TRANSITION while an attempt of it is in flight (a few seconds at most), ' +
      'or when the delivery changed twice while being redelivered: try again. An event no delivery of this endpoint has (or a malformed id) answers 404 NOT_FOUND.',
    params: endpointParams.extend({
      event_id: z.string().meta({
        description: "The event's id (`evt_…`), as in the endpoint's deliveries and the payload's `id`.",
        example: EXAMPLE_EVENT_ID,
      }),
    }),
    errors: ['NOT_FOUND', 'INVALID_TRANSITION'],
    answers: {
      202: {
        description: 'Accepted: the delivery, `pending`, due now; its attempt is queued.',
        schema: successEnvelope(webhookDeliverySchema),
        example: {
          success: true,
          data: { ...deliveryExample, next_attempt_at: '2026-11-23T15:00:00.000Z', updated_at: '2026-11-23T15:00:00.000Z' },
        },
      },
    },
  }),
];

const commandEventData = z
  .object({
    command: commandViewSchema,
    truncated: z
      .literal(true)
      .optional()
      .meta({ description: 'Present when `command` is the summary: read the rest with GET /api/commands/{id}.' }),
  })
  .meta({
    description:
      `\`command\` is exactly the \`data\` of GET /api/commands/{id} at that moment; when that is larger than ${MAX_COMMAND_DATA_BYTES / 1024} KiB (a research with many analysed results), ` +
      'only its `command_id`, `type`, `status`, `site_id`, `created_at`, `updated_at`, `parent_id`, `child_ids` and `error` (those present), with `truncated: true`.',
  });

const DELIVERY_NOTE =
  `Delivered at least once, in no guaranteed order: de-duplicate by \`id\`. An attempt answered 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s delivers it; ` +
  `anything else is retried after ${schedule} (WEBHOOK_RETRY_DELAYS), then the delivery is \`failed\`.`;

/** The events of a command's end, published by command-events.ts. */
export const WEBHOOK_EVENTS: readonly DocumentedEvent[] = [
  webhookEvent({
    type: 'command.completed',
    summary: 'A command completed',
    description:
      'A command a caller started (lead follow-up, stakeholder coordination, deep research) completed: a lead follow-up once its last phase ended. ' +
      `Sent once per command; internal phases (copywriter, post-call summary) are never announced themselves. ${DELIVERY_NOTE}`,
    data: commandEventData,
  }),
  webhookEvent({
    type: 'command.failed',
    summary: 'A command failed',
    description: `A command a caller started failed (a worker gave up, or the janitor ended it stuck); \`command.error\` says why. Sent once per command. ${DELIVERY_NOTE}`,
    data: commandEventData,
  }),
  webhookEvent({
    type: 'webhook_endpoint.disabled',
    summary: 'An endpoint was disabled for failing',
    description:
      "One of the tenant's endpoints was disabled by the service: its deliveries failed without a success for `WEBHOOK_DISABLE_AFTER` (default 5 days) from `failing_since`. " +
      'Sent to the tenant\'s other enabled endpoints that subscribe to it. Enable it again with PATCH /api/webhooks/{id} `{"disabled": false}` once it answers (check with POST /api/webhooks/{id}/test). ' +
      DELIVERY_NOTE,
    data: z.object({
      webhook_endpoint: z.object({
        id: z.string().regex(ENDPOINT_ID_PATTERN).meta({ example: EXAMPLE_ENDPOINT_ID }),
        url: z.string().meta({ format: 'uri' }),
        description: z.string().nullable(),
        disabled_reason: z.literal('failing'),
        disabled_at: z.string().meta({ format: 'date-time' }),
        failing_since: z.string().meta({ format: 'date-time' }),
      }),
    }),
  }),
];
