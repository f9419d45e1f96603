import * as z from 'zod';
import * as zm from 'zod/mini';
import { described } from '../../platform/described';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../api/idempotency-key';
import { commandIdField, DEMO_LEAD_ID, DEMO_SITE_ID, EXAMPLE_COMMAND_ID, instantField, uuidField } from '../../api/openapi/fields';
import { apiOperation, successEnvelope, webhookEvent, type DocumentedEvent, type DocumentedOperation } from '../../api/openapi/operation';
import { FOLLOW_UP_TYPES } from '../vocabulary';
import { LEAD_EVENT_TYPES, type LeadEvent } from './adaptation';
import { followUpEditSchema } from './edit';
import type { AppliedChange } from './event-records';
import { leadEventRequestSchema } from './lead-events';
import { listQuerySchema, MAX_PAGE_SIZE, siteParameter } from './list';
import { siteListQuerySchema } from './list-site';
import { sequencePauseRequestSchema } from './pause';
import { STEP_STATUSES, type StepView } from './step';

/**
 * The API reference of running follow-up sequences (documentation only: no
 * function bundle imports this file): listing a lead's steps, editing or
 * ending one, reporting what the lead did, and the two webhook events. The
 * edit's body, the lead event's body and the list's query are the schemas
 * edit.ts, lead-events.ts and list.ts check, described there; the answers'
 * schemas are checked against the code's own types below.
 */
const TAG = {
  name: 'Follow-up sequences',
  description: 'A saved sequence runs: its steps fall due, the caller sends them and says so, and what the lead does adapts the rest.',
};

/** True when two object types are the same, optional fields included (the answers' schemas against the code's types). */
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;

const statusSchema = z.enum(STEP_STATUSES).meta({
  id: 'FollowUpStatus',
  description:
    '`scheduled` until its time, then `due` (announced with `follow_up.due`); `sent` once the caller says it went out; `skipped` or `cancelled` end it unsent ' +
    '(by the caller, or by a lead event). `sent`, `skipped` and `cancelled` are final.',
});

const typeSchema = z.enum(FOLLOW_UP_TYPES);

export const followUpStepSchema = z
  .object({
    id: uuidField('The step (the follow-up id of the sequence that made it).'),
    command_id: commandIdField,
    site_id: uuidField('The site.', DEMO_SITE_ID),
    lead_id: uuidField('The lead.', DEMO_LEAD_ID),
    user_id: z.string().nullable().meta({ description: 'The user the sequence was written for, if any.' }),
    sequence_position: z.number().int().meta({ description: 'Its place in the sequence, from 1.', example: 1 }),
    type: typeSchema,
    channel: typeSchema.meta({ description: 'The channel it goes out on: its `type`.' }),
    subject: z.string(),
    content: z.string().meta({ description: 'Plain text, ready to send.' }),
    status: statusSchema,
    status_reason: z.string().nullable().meta({
      description:
        "Why it was skipped or cancelled: the caller's `reason`, `skipped_by_caller` / `cancelled_by_caller`, or the lead event's type (`replied`, …).",
    }),
    scheduled_for: instantField('When it is due (UTC).'),
    due_at: instantField('When the dispatcher made it due.').nullable(),
    sent_at: instantField('When the caller said it was sent.').nullable(),
    skipped_at: instantField('When it was skipped.').nullable(),
    cancelled_at: instantField('When it was cancelled.').nullable(),
    metadata: z.object({
      next_steps: z.string(),
      lead_stage: z.string().nullable(),
      sequence_position: z.number().int(),
      template_used: z.string(),
    }),
    created_at: instantField('When the sequence saved it.'),
    updated_at: instantField('When it last changed.'),
  })
  .meta({
    id: 'FollowUpStep',
    description: 'A step of a follow-up sequence, as the tenant whose command made it sees it (listed, edited, and in `follow_up.due`).',
  });

const _stepView: Same<z.infer<typeof followUpStepSchema>, StepView> = true;

const leadEventSchema = z
  .object({
    type: z.enum(LEAD_EVENT_TYPES),
    occurred_at: instantField('When it happened (UTC; the time it was reported when not given).'),
    channel: typeSchema.nullable().meta({ description: 'The channel it happened on; a bounce reported without one is `email`.' }),
    summary: z.string().nullable(),
  })
  .meta({ id: 'LeadEvent', description: 'What the lead did, as recorded.' });

const _leadEvent: Same<z.infer<typeof leadEventSchema>, LeadEvent> = true;

const appliedChangeSchema = z
  .object({
    follow_up_id: uuidField('The step it changed.'),
    change: z.enum(['cancelled', 'rescheduled']),
    previous_status: statusSchema,
    status: statusSchema,
    previous_scheduled_for: instantField('Its time before the event.'),
    scheduled_for: instantField('Its time now.'),
  })
  .meta({ id: 'FollowUpChange', description: 'One change a lead event made to a remaining step.' });

const _appliedChange: Same<z.infer<typeof appliedChangeSchema>, AppliedChange> = true;

// --- GET /api/leads/{leadId}/follow-ups

const leadParams = z.object({ leadId: uuidField('The lead (any case).', DEMO_LEAD_ID) });

/** The list's own query, with `site_id` required (the parser takes it or its alias `siteId`, which its description names). */
export const listFollowUpsQuerySchema = zm.extend(zm.omit(listQuerySchema, { siteId: true }), {
  site_id: described(siteParameter, z.globalRegistry.get(listQuerySchema.shape.site_id) ?? {}),
});

const followUpPageSchema = z
  .object({
    site_id: z.string(),
    lead_id: z.string(),
    paused: z
      .boolean()
      .meta({ description: "True while the lead's sequence is paused (POST …/follow-ups/pause): its scheduled steps wait." }),
    paused_at: instantField('When the pause began; null when not paused.').nullable(),
    follow_ups: z.array(followUpStepSchema).max(MAX_PAGE_SIZE).meta({ description: 'In schedule order, earliest first.' }),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().meta({ description: 'Pass it as `cursor` for the next page; null on the last.' }),
  })
  .meta({ id: 'FollowUpPage' });

const STEP_EXAMPLE = {
  id: 'e85c0b0e-5a3f-4c1d-9a57-3f0c2b7d9e11',
  command_id: EXAMPLE_COMMAND_ID,
  site_id: DEMO_SITE_ID,
  lead_id: DEMO_LEAD_ID,
  user_id: null,
  sequence_position: 1,
  type: 'email',
  channel: 'email',
  subject: 'Jordan, a quick question',
  content: 'Hi Jordan, would a 20-minute call on Tuesday morning suit you?',
  status: 'scheduled',
  status_reason: null,
  scheduled_for: '2026-11-25T14:02:11.512Z',
  due_at: null,
  sent_at: null,
  skipped_at: null,
  cancelled_at: null,
  metadata: { next_steps: 'Offer a short call', lead_stage: 'qualified', sequence_position: 1, template_used: 'intro' },
  created_at: '2026-11-23T14:02:11.512Z',
  updated_at: '2026-11-23T14:02:11.512Z',
};

// --- GET /api/follow-ups

const siteFollowUpPageSchema = z
  .object({
    site_id: z.string(),
    follow_ups: z
      .array(followUpStepSchema)
      .max(MAX_PAGE_SIZE)
      .meta({ description: 'In schedule order, earliest first, across the leads.' }),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().meta({ description: 'Pass it as `cursor` for the next page; null on the last.' }),
  })
  .meta({ id: 'SiteFollowUpPage' });

// --- PATCH /api/follow-ups/{id}

// --- POST /api/leads/{leadId}/events

const leadEventResultSchema = z
  .object({
    event_id: uuidField('The recorded event (the same on a replay).'),
    site_id: z.string(),
    lead_id: z.string(),
    event: leadEventSchema,
    changes: z.array(appliedChangeSchema).meta({ description: 'What it changed in the remaining steps (empty when nothing).' }),
    interaction_recorded: z.boolean().meta({
      description:
        "True: the event is in your tenant's history of the lead, which your later lead follow-ups read (another tenant's never do).",
    }),
    lead_stage: z
      .string()
      .nullable()
      .meta({
        description:
          "The stage the event moved the lead to in your tenant's view (`replied` → `engaged`, `meeting_booked` → `meeting_scheduled`); " +
          'your later lead follow-ups are written for it. Null for other events.',
        example: 'engaged',
      }),
    command_id: commandIdField.nullable().meta({
      description:
        'For `replied`: the lead follow-up command started to draft the answer (the reply in its interactions, on its channel when given; ' +
        'read it with GET /api/commands/{id}). The same on a replay: a repeated event starts nothing more. Null for other events.',
    }),
  })
  .meta({ id: 'LeadEventResult' });

// --- POST /api/leads/{leadId}/follow-ups/pause and /resume

const pausedSchema = z
  .object({
    site_id: z.string(),
    lead_id: z.string(),
    paused: z.literal(true),
    paused_at: instantField('When the pause began (the first pause, when asked again).'),
    resumed_at: z.null(),
    follow_ups_held: z.number().int().min(0).meta({ description: 'Scheduled steps this request held (0 when asked again).' }),
  })
  .meta({ id: 'SequencePaused' });

const resumedSchema = z
  .object({
    site_id: z.string(),
    lead_id: z.string(),
    paused: z.literal(false),
    paused_at: instantField('When the pause began.'),
    resumed_at: instantField('When it ended.'),
    shifted_by_seconds: z.number().int().min(0).meta({ description: "The pause's length: how far every held step moved." }),
    follow_ups_moved: z.number().int().min(0).meta({ description: 'Steps put back on the schedule.' }),
  })
  .meta({ id: 'SequenceResumed' });

const PAUSE_CHECKS =
  'Checks, in this order: INVALID_REQUEST (no body, not JSON, `site_id` missing, an unknown field), INVALID_INPUT (`site_id` or `leadId` not a UUID), ' +
  'SITE_NOT_FOUND / FORBIDDEN, LEAD_NOT_FOUND';

/** The routes of running a sequence. */
export const FOLLOW_UP_SEQUENCE_OPERATIONS: readonly DocumentedOperation[] = [
  apiOperation({
    method: 'GET',
    path: '/api/leads/{leadId}/follow-ups',
    operationId: 'listLeadFollowUps',
    tag: TAG,
    summary: "List a lead's follow-ups",
    description: [
      "The lead's steps that the key's tenant made (another tenant's never show, even on the same site), in schedule order, a page at a time. " +
        'A step is listed until `COMMAND_RETENTION_DAYS` after its scheduled time.',
      '',
      'Checks, in this order: INVALID_REQUEST (an unknown, missing or malformed query parameter), INVALID_INPUT (`leadId` or `site_id` not a UUID), ' +
        'INVALID_REQUEST (a `cursor` this API did not give), SITE_NOT_FOUND / FORBIDDEN, LEAD_NOT_FOUND.',
    ].join('\n'),
    params: leadParams,
    query: listFollowUpsQuerySchema,
    errors: ['INVALID_REQUEST', 'INVALID_INPUT', 'FORBIDDEN', 'SITE_NOT_FOUND', 'LEAD_NOT_FOUND'],
    answers: {
      200: {
        description: 'A page of steps.',
        schema: successEnvelope(followUpPageSchema),
        example: {
          success: true,
          data: {
            site_id: DEMO_SITE_ID,
            lead_id: DEMO_LEAD_ID,
            paused: false,
            paused_at: null,
            follow_ups: [STEP_EXAMPLE],
            has_more: true,
            next_cursor: 'WyIyMDI2LTExLTI1VDE0OjAyOjExLjUxMloiXQ',
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'GET',
    path: '/api/follow-ups',
    operationId: 'listSiteFollowUps',
    tag: TAG,
    summary: "List a site's follow-ups",
    description: [
      "The steps the key's tenant made across the site's leads, in schedule order, a page at a time, filtered and paged as a lead's listing is. " +
        'Poll `status=due` for the steps to send now, instead of (or besides) the `follow_up.due` webhook.',
      '',
      'Checks, in this order: INVALID_REQUEST (an unknown, missing or malformed query parameter), INVALID_INPUT (`site_id` not a UUID), ' +
        'INVALID_REQUEST (a `cursor` this API did not give), SITE_NOT_FOUND / FORBIDDEN.',
    ].join('\n'),
    query: siteListQuerySchema,
    errors: ['INVALID_REQUEST', 'INVALID_INPUT', 'FORBIDDEN', 'SITE_NOT_FOUND'],
    answers: {
      200: {
        description: 'A page of steps.',
        schema: successEnvelope(siteFollowUpPageSchema),
        example: {
          success: true,
          data: {
            site_id: DEMO_SITE_ID,
            follow_ups: [{ ...STEP_EXAMPLE, status: 'due', due_at: '2026-11-25T14:03:00.000Z' }],
            has_more: false,
            next_cursor: null,
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'PATCH',
    path: '/api/follow-ups/{id}',
    operationId: 'updateFollowUp',
    tag: TAG,
    summary: 'Edit, send or end a follow-up',
    description: [
      "Edits a step of the key's tenant (its copy, its time) or ends it: `sent` once you sent it, `skipped` or `cancelled`. One conditional write on the state the step was read in.",
      '',
      'Checks, in this order: INVALID_REQUEST (no body, or not JSON), NOT_FOUND (`id` not a UUID), INVALID_REQUEST (an unknown field, none, `scheduled_for` with `status`, ' +
        "`reason` without `skipped` / `cancelled`, copy with markup or placeholders, a time not in the future or beyond a year), NOT_FOUND (no such step, another tenant's or an expired one), " +
        'FORBIDDEN (a site the key does not cover), INVALID_TRANSITION (the step is `sent`, `skipped` or `cancelled`; or a new time for a `due` step), ' +
        "INVALID_REQUEST (content over its channel's limit).",
    ].join('\n'),
    params: z.object({ id: uuidField('The step (`follow_ups[].id`; any case). Not a UUID: 404 NOT_FOUND.', STEP_EXAMPLE.id) }),
    body: {
      schema: followUpEditSchema,
      example: { subject: 'Jordan, a quick question', content: 'Hi Jordan, would a 20-minute call on Tuesday morning suit you?' },
    },
    errors: ['INVALID_REQUEST', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_TRANSITION'],
    answers: {
      200: {
        description: 'The step after the change.',
        schema: successEnvelope(followUpStepSchema),
        example: {
          success: true,
          data: { ...STEP_EXAMPLE, status: 'sent', sent_at: '2026-11-25T14:10:00.000Z', updated_at: '2026-11-25T14:10:00.000Z' },
        },
      },
    },
  }),
  apiOperation({
    method: 'POST',
    path: '/api/leads/{leadId}/events',
    operationId: 'reportLeadEvent',
    tag: TAG,
    summary: 'Report what a lead did',
    description: [
      "Records what the lead did (from your CRM, or your e-mail provider's webhook), adds it to the key's tenant's history of the lead (once; the tenant's later lead follow-ups " +
        "read its newest entries, no other tenant's ever do; kept `COMMAND_RETENTION_DAYS`), and adapts the lead's remaining steps of the key's tenant " +
        'by deterministic rules (see `type`); when something changed, publishes `sequence.adapted`. The changes are decided once and kept with the event, so a retry finishes exactly those. ' +
        'A step that moved meanwhile (sent, edited) is left alone. ' +
        'An `unsubscribed` event (on its channel; without one, on every channel) leaves that channel out of your later lead follow-ups of the lead ' +
        '(400 NO_VALID_CHANNELS_FOR_LEAD when none is left). A `replied` event also starts a lead follow-up command (`command_id`) with the reply in its interactions, so the sales agent drafts the answer.',
      '',
      'Checks, in this order: INVALID_REQUEST (body not JSON, a missing, malformed or unknown field, `site_id` not a string, `occurred_at` before 1970 or in the future), ' +
        'INVALID_INPUT (`site_id` or `leadId` not a UUID), ' +
        'SITE_NOT_FOUND / FORBIDDEN, LEAD_NOT_FOUND, INVALID_REQUEST (an `Idempotency-Key` too long), IDEMPOTENCY_CONFLICT.',
    ].join('\n'),
    params: leadParams,
    headers: z.object({
      'Idempotency-Key': z
        .string()
        .max(MAX_IDEMPOTENCY_KEY_LENGTH)
        .optional()
        .meta({
          description:
            'Makes a repeat harmless: within 24 hours the same key (per tenant) with the same lead and body answers the first answer again (`Idempotent-Replayed: true`) ' +
            'and changes and publishes nothing more; with another body, 409 IDEMPOTENCY_CONFLICT.',
          example: 'esp-evt-7781',
        }),
    }),
    body: {
      schema: leadEventRequestSchema,
      example: { site_id: DEMO_SITE_ID, event: { type: 'replied', channel: 'email', summary: 'Jordan asked for a call on Friday.' } },
    },
    errors: ['INVALID_REQUEST', 'INVALID_INPUT', 'FORBIDDEN', 'SITE_NOT_FOUND', 'LEAD_NOT_FOUND', 'IDEMPOTENCY_CONFLICT'],
    answers: {
      200: {
        description: 'Recorded, with what it changed (on a replay: the first answer again).',
        headers: {
          'Idempotent-Replayed': {
            description: '`true` when this answers a repeat of an earlier request (same `Idempotency-Key` and body); absent otherwise.',
            schema: { type: 'string', enum: ['true'] },
          },
        },
        content: {
          'application/json': {
            schema: successEnvelope(leadEventResultSchema),
            example: {
              success: true,
              data: {
                event_id: '3f1e9a4c-2b7d-4e8f-a1c3-5d6e7f8a9b0c',
                site_id: DEMO_SITE_ID,
                lead_id: DEMO_LEAD_ID,
                event: {
                  type: 'replied',
                  occurred_at: '2026-11-24T09:12:00.000Z',
                  channel: 'email',
                  summary: 'Jordan asked for a call on Friday.',
                },
                changes: [
                  {
                    follow_up_id: STEP_EXAMPLE.id,
                    change: 'cancelled',
                    previous_status: 'scheduled',
                    status: 'cancelled',
                    previous_scheduled_for: STEP_EXAMPLE.scheduled_for,
                    scheduled_for: STEP_EXAMPLE.scheduled_for,
                  },
                ],
                interaction_recorded: true,
                lead_stage: 'engaged',
                command_id: EXAMPLE_COMMAND_ID,
              },
            },
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'POST',
    path: '/api/leads/{leadId}/follow-ups/pause',
    operationId: 'pauseLeadFollowUps',
    tag: TAG,
    summary: "Pause a lead's sequence",
    description: [
      "Pauses the lead's follow-ups of the key's tenant: its `scheduled` steps stay `scheduled` but none falls due (no `follow_up.due`) until you resume; " +
        'steps already `due` were announced and are yours to send or end. The list shows `paused: true`. Pausing a paused sequence is the same pause (200, its first `paused_at`). ' +
        'Lead events and edits still apply to held steps; a sequence a later lead follow-up saves is not held.',
      '',
      `${PAUSE_CHECKS}, INVALID_TRANSITION (a resume of this sequence is under way).`,
    ].join('\n'),
    params: leadParams,
    body: { schema: sequencePauseRequestSchema, example: { site_id: DEMO_SITE_ID } },
    errors: ['INVALID_REQUEST', 'INVALID_INPUT', 'FORBIDDEN', 'SITE_NOT_FOUND', 'LEAD_NOT_FOUND', 'INVALID_TRANSITION'],
    answers: {
      200: {
        description: 'Paused.',
        schema: successEnvelope(pausedSchema),
        example: {
          success: true,
          data: {
            site_id: DEMO_SITE_ID,
            lead_id: DEMO_LEAD_ID,
            paused: true,
            paused_at: '2026-11-24T09:00:00.000Z',
            resumed_at: null,
            follow_ups_held: 3,
          },
        },
      },
    },
  }),
  apiOperation({
    method: 'POST',
    path: '/api/leads/{leadId}/follow-ups/resume',
    operationId: 'resumeLeadFollowUps',
    tag: TAG,
    summary: 'Resume a paused sequence',
    description: [
      "Ends the pause: every step it held goes back on the schedule moved forward by the pause's length, later steps too, so the sequence picks up where it stood " +
        'with its spacing kept: a step whose time passed during the pause falls due as long after the resume as it stood after the pause, never in a burst.',
      '',
      `${PAUSE_CHECKS}, INVALID_TRANSITION (the sequence is not paused: nothing changes).`,
    ].join('\n'),
    params: leadParams,
    body: { schema: sequencePauseRequestSchema, example: { site_id: DEMO_SITE_ID } },
    errors: ['INVALID_REQUEST', 'INVALID_INPUT', 'FORBIDDEN', 'SITE_NOT_FOUND', 'LEAD_NOT_FOUND', 'INVALID_TRANSITION'],
    answers: {
      200: {
        description: 'Resumed.',
        schema: successEnvelope(resumedSchema),
        example: {
          success: true,
          data: {
            site_id: DEMO_SITE_ID,
            lead_id: DEMO_LEAD_ID,
            paused: false,
            paused_at: '2026-11-24T09:00:00.000Z',
            resumed_at: '2026-11-27T09:00:00.000Z',
            shifted_by_seconds: 259200,
            follow_ups_moved: 3,
          },
        },
      },
    },
  }),
];

/** `data` of `follow_up.due` (events.ts followUpDueEvent). */
export const followUpDueDataSchema = z.object({
  follow_up: followUpStepSchema,
  follow_up_id: uuidField('The step (`follow_up.id`).'),
  lead_id: z.string(),
  site_id: z.string(),
  command_id: commandIdField,
});

/** `data` of `sequence.adapted` (events.ts sequenceAdaptedEvent). */
export const sequenceAdaptedDataSchema = z.object({
  event_id: uuidField('The lead event (`event_id` of POST /api/leads/{leadId}/events).'),
  lead_id: z.string(),
  site_id: z.string(),
  event: leadEventSchema,
  changes: z.array(appliedChangeSchema).min(1),
});

/** The webhook events of running a sequence. */
export const FOLLOW_UP_SEQUENCE_EVENTS: readonly DocumentedEvent[] = [
  webhookEvent({
    type: 'follow_up.due',
    summary: 'A follow-up is due',
    description:
      'A step\'s time has come: the dispatcher made it `due` (once, however many dispatchers run). Send it, then PATCH /api/follow-ups/{id} with `{"status": "sent"}`. ' +
      'Published once per step (a run that died is made up by a later one); de-duplicate by the event `id`.',
    data: followUpDueDataSchema,
  }),
  webhookEvent({
    type: 'sequence.adapted',
    summary: "A lead event changed the lead's sequence",
    description:
      'POST /api/leads/{leadId}/events cancelled or rescheduled remaining steps: `changes` lists them. Published once per lead event, only when something changed.',
    data: sequenceAdaptedDataSchema,
  }),
];
