import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { MAX_URL_LENGTH } from './endpoint-url-policy';
import { ALL_EVENTS, EVENT_TYPES } from './event-types';

/**
 * The bodies of the endpoint routes that take one: registering, changing,
 * rotating a secret. A module of its own, read by the first request with a
 * body (shared/webhooks/endpoints-api.ts): listing, showing and deleting
 * endpoints, the most frequent requests, never build these schemas.
 */

/** How long a rotated secret keeps signing beside the new one, unless the rotation asks for less: 24 hours, as Stripe offers. */
export const ROTATION_GRACE_SECONDS = 86_400;

/** Longest description kept. */
const MAX_DESCRIPTION_LENGTH = 500;

/** The events an endpoint hears of: 1 to 50 types, or `*`. */
const eventList = z
  .array(z.enum([ALL_EVENTS, ...EVENT_TYPES]))
  .check(z.minLength(1, `must name at least one event type (or leave events out for all of them)`), z.maxLength(50));

/** A note for the tenant. */
const descriptionText = z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH));

/** `POST /api/webhooks`: `{url, events?, description?}`; unknown fields are refused. */
export const registrationSchema = described(
  z.strictObject({
    url: described(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(MAX_URL_LENGTH)), {
      format: 'uri',
      description:
        `Where events are POSTed (surrounding spaces dropped; at most ${MAX_URL_LENGTH} characters): \`https://\`, without a user name, password or fragment, ` +
        'to a host whose every address is public (no loopback, private, link-local, metadata, CGNAT or unique-local address); it must resolve now and is checked again before each delivery. ' +
        'With `WEBHOOK_ALLOW_LOOPBACK=true` (`npm start`, never in AWS) `http://` and `https://` on a loopback address are accepted too, ' +
        'except at a port of the runtime itself (its API, the embedded DynamoDB and SQS, the local telephony: `WEBHOOK_RESERVED_PORTS`).',
      example: 'https://crm.example.com/hooks/switchboard',
    }),
    events: described(z.optional(eventList), {
      description:
        'The event types to hear of (1 to 50 entries; repeats ignored), or `["*"]`: every type, present and future. Absent: `["*"]`. ' +
        'Stored as `["*"]` when `*` is among them, otherwise each type once in the order of this list.',
      example: ['command.completed', 'command.failed'],
    }),
    description: described(z.optional(descriptionText), {
      description: `A note for the tenant (at most ${MAX_DESCRIPTION_LENGTH} characters; control characters dropped, trimmed; blank: none).`,
      example: 'CRM sync',
    }),
  }),
  { id: 'WebhookRegistration', description: 'A new endpoint. An unknown field is refused (VALIDATION_ERROR).' },
);

/** `PATCH /api/webhooks/{id}`: any of `{url, events, description, disabled}`, at least one; unknown fields are refused. */
export const updateSchema = described(
  z
    .strictObject({
      url: described(z.optional(registrationSchema.shape.url), {
        description: 'A new address, checked exactly as at registration (https to public addresses; loopback under `npm start`).',
        example: 'https://crm.example.com/hooks/switchboard-v2',
      }),
      events: described(z.optional(eventList), {
        description: 'The event types to hear of from now on (1 to 50 entries, or `["*"]`), stored as at registration.',
        example: ['command.completed'],
      }),
      description: described(z.optional(descriptionText), {
        description: `A new note (at most ${MAX_DESCRIPTION_LENGTH} characters; blank removes it).`,
        example: 'CRM sync (v2)',
      }),
      disabled: described(z.optional(z.boolean()), {
        description:
          '`true`: it hears of nothing until enabled again. `false`: enabled again; it hears of events from now on, and deliveries of the disabled period are not sent (redeliver one to send it).',
        example: false,
      }),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'must change at least one of url, events, description, disabled' })),
  {
    id: 'WebhookUpdate',
    description: 'The fields to change, at least one; the others stay. An unknown field, or an empty body, is refused (VALIDATION_ERROR).',
  },
);

/**
 * `POST /api/webhooks/{id}/rotate-secret`: an optional body `{previous_secret_expires_in}` (seconds the old secret keeps signing; 0 ends it
 * at once).
 */
export const rotationSchema = described(
  z.strictObject({
    previous_secret_expires_in: described(z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(ROTATION_GRACE_SECONDS))), {
      description: `Seconds the replaced secret keeps signing beside the new one (0: not at all). Absent: ${ROTATION_GRACE_SECONDS} (24 hours).`,
      example: 3600,
    }),
  }),
  {
    id: 'WebhookSecretRotation',
    description: 'Optional: an absent or empty body keeps the default grace period. An unknown field is refused (VALIDATION_ERROR).',
  },
);
