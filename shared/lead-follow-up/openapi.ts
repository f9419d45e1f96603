import * as z from 'zod';
import * as zm from 'zod/mini';
import { described } from '../platform/described';
import { errorInfoSchema } from '../api/openapi/errors';
import { DEMO_LEAD_ID, DEMO_SITE_ID } from '../api/examples';
import { commandIdField, EXAMPLE_COMMAND_ID, generatedByField, instantField, uuidField } from '../api/openapi/fields';
import { commandOperation, successEnvelope, type DocumentedOperation } from '../api/openapi/operation';
import { CHANNEL_ORDER } from './channels';
import { HISTORY_WINDOW, MAX_HISTORY_SUMMARY_LENGTH } from './writing-limits';
import { groupedDigits } from '../platform/text';
import { idsSchema, MAX_PHONE_LENGTH, structureSchema } from './schema';
import { FOLLOW_UP_TYPES, MAX_SEQUENCE, MIN_SEQUENCE, OUTPUTS } from './vocabulary';

/**
 * The API reference of lead follow-up (documentation only: no function
 * bundle imports this file). The request is schema.ts's own two stages, as
 * described there: its structure, with the ids of its second stage (UUIDs).
 * Two fields schema.ts checks after its schemas are narrowed to what those
 * checks accept: `followUpType` to the follow-up types, `phone_number` to a
 * string. Their snake_case aliases (`site_id`, `lead_id`, ...) are named in
 * the descriptions, not listed as fields.
 */
const TAG = { name: 'Lead follow-up', description: 'A sales agent writes follow-ups for a lead; a copywriter agent refines them.' };

const field = structureSchema.shape;

export const leadFollowUpRequestSchema = described(
  zm.extend(structureSchema, {
    ...idsSchema.shape,
    followUpType: z
      .enum(FOLLOW_UP_TYPES)
      .optional()
      .meta(z.globalRegistry.get(field.followUpType) ?? {}),
    phone_number: z
      .string()
      .max(MAX_PHONE_LENGTH)
      .optional()
      .meta(z.globalRegistry.get(field.phone_number) ?? {}),
  }),
  {
    id: 'LeadFollowUpRequest',
    description: 'What to follow up: a lead of a site, and context for the writer. `null` counts as absent.',
  },
);

const channelMessageSchema = z
  .object({
    title: z.string().meta({ description: 'Subject or heading (empty where the channel has none).' }),
    message: z.string().meta({ description: 'Plain text, ready to send: no markup, nothing left to fill in.' }),
    strategy: z.string().meta({ description: 'Why the message is written this way.' }),
  })
  .meta({ id: 'ChannelMessage' });

const leadViewSchema = z
  .object({
    name: z.string(),
    company: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    position: z.string().nullable(),
    pain_points: z.array(z.string()),
    budget_range: z.string().nullable(),
    lead_stage: z.string().nullable(),
    sites: z.object({ name: z.string(), url: z.string().nullable() }),
  })
  .meta({ id: 'LeadView', description: 'The lead as the writer saw it.' });

const generation = {
  generated_by: generatedByField,
  model: z.string().meta({ description: 'The model that wrote it (`offline` for the offline writer).', example: 'gpt-4o-mini' }),
  warnings: z
    .array(errorInfoSchema)
    .optional()
    .meta({ description: 'A copywriter phase that failed: the sales copy stands, `command_ids.copywriter` is null.' }),
};

export const channelMessagesResultSchema = z
  .object({
    command_id: commandIdField,
    messages: z.object(Object.fromEntries(CHANNEL_ORDER.map((channel) => [channel, channelMessageSchema.optional()]))).meta({
      description:
        'One message per channel that reaches the lead: email and messaging_app when the site enables them and the lead has the contact; notification and web always.',
    }),
    lead: leadViewSchema,
    interactions: z.array(z.object({ date: z.string(), type: z.string(), summary: z.string() })).meta({
      description:
        "What the writer saw of the lead's interactions, oldest first: the newest of the site's (imported with the lead), the `previousInteractions` given and your " +
        "tenant's own reported events (`POST /api/leads/{leadId}/events`; never another tenant's), at most " +
        `${HISTORY_WINDOW.maxEntries} and ${groupedDigits(HISTORY_WINDOW.maxCharacters)} characters of summaries, each summary cut at ${groupedDigits(MAX_HISTORY_SUMMARY_LENGTH)}.`,
    }),
    preferences: z.record(z.string(), z.unknown()),
    command_ids: z.object({ sales: z.string(), copywriter: z.string().nullable() }).meta({
      description: 'The commands of each phase: the sales command is this one; `copywriter` is null when no copywriter ran (or it failed).',
    }),
    ...generation,
  })
  .meta({ id: 'ChannelMessagesResult', description: 'A lead follow-up with `output: "channel_messages"`, completed.' });

const followUpItemSchema = z
  .object({
    id: uuidField('The follow-up (the same on every run of the command).'),
    type: z.enum(FOLLOW_UP_TYPES),
    subject: z.string(),
    content: z.string(),
    scheduled_for: instantField('When it is due (UTC).'),
    status: z.string().meta({ description: '`scheduled` when made.', example: 'scheduled' }),
    site_id: z.string(),
    lead_id: z.string(),
    user_id: z.string().nullable(),
    metadata: z.object({
      next_steps: z.string(),
      lead_stage: z.string().nullable(),
      sequence_position: z.number().int().min(1),
      template_used: z.string(),
    }),
  })
  .meta({ id: 'FollowUp', description: 'One scheduled follow-up of a sequence.' });

export const followUpSequenceResultSchema = z
  .object({
    command_id: commandIdField,
    siteId: z.string(),
    leadId: z.string(),
    follow_ups: z.array(followUpItemSchema).min(MIN_SEQUENCE).max(MAX_SEQUENCE),
    saved_to_database: z.literal(true),
    ...generation,
  })
  .meta({
    id: 'FollowUpSequenceResult',
    description: 'A lead follow-up with `output: "follow_up_sequence"`, completed: the follow-ups are saved.',
  });

export const leadFollowUpAcceptedSchema = z
  .object({
    command_id: commandIdField,
    status: z.literal('in_progress'),
    siteId: z.string(),
    leadId: z.string(),
    output: z.enum(OUTPUTS),
  })
  .meta({ id: 'LeadFollowUpAccepted' });

/** POST /api/agents/sales/leadFollowUp. */
export const LEAD_FOLLOW_UP_OPERATIONS: readonly DocumentedOperation[] = [
  commandOperation({
    method: 'POST',
    path: '/api/agents/sales/leadFollowUp',
    operationId: 'runLeadFollowUp',
    tag: TAG,
    summary: 'Run a lead follow-up',
    description: [
      "A sales agent writes ready-to-send follow-ups for a lead on every channel that reaches them, then the site's copywriter agent (when it has an active one) refines them, " +
        'as a second command (`copywriter`); or, with `output: "follow_up_sequence"`, it plans and saves a sequence of scheduled follow-ups.',
      '',
      'Checks, in this order: INVALID_REQUEST (a missing or malformed field), INVALID_INPUT (an id that is not a UUID), INVALID_PHONE_NUMBER, ' +
        'SITE_NOT_FOUND / FORBIDDEN, LEAD_NOT_FOUND, USER_NOT_FOUND, AGENT_NOT_FOUND, INVALID_FOLLOW_UP_TYPE, NO_CHANNELS_CONFIGURED, NO_VALID_CHANNELS_FOR_LEAD.',
      '',
      'The command stays `in_progress` until its last phase ends.',
    ].join('\n'),
    body: {
      schema: leadFollowUpRequestSchema,
      example: { siteId: DEMO_SITE_ID, leadId: DEMO_LEAD_ID, followUpType: 'email', productInterest: ['booking calendar'] },
    },
    errors: [
      'INVALID_REQUEST',
      'INVALID_INPUT',
      'INVALID_PHONE_NUMBER',
      'FORBIDDEN',
      'SITE_NOT_FOUND',
      'LEAD_NOT_FOUND',
      'USER_NOT_FOUND',
      'AGENT_NOT_FOUND',
      'INVALID_FOLLOW_UP_TYPE',
      'NO_CHANNELS_CONFIGURED',
      'NO_VALID_CHANNELS_FOR_LEAD',
    ],
    failures: ['SALES_COMMAND_FAILED', 'NO_CONTENT_GENERATED', 'SYSTEM_ERROR'],
    accepted: leadFollowUpAcceptedSchema,
    acceptedExample: {
      success: true,
      data: {
        command_id: EXAMPLE_COMMAND_ID,
        status: 'in_progress',
        siteId: DEMO_SITE_ID,
        leadId: DEMO_LEAD_ID,
        output: 'channel_messages',
      },
    },
    completed: successEnvelope(z.union([channelMessagesResultSchema, followUpSequenceResultSchema])),
  }),
];
