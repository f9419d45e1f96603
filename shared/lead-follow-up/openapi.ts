import * as z from 'zod';
import { errorInfoSchema } from '../api/openapi/errors';
import { commandIdField, DEMO_LEAD_ID, DEMO_SITE_ID, EXAMPLE_COMMAND_ID, generatedByField, instantField, uuidField } from '../api/openapi/fields';
import { commandOperation, successEnvelope, type DocumentedOperation } from '../api/openapi/operation';
import { CHANNEL_ORDER } from './channels';
import { HISTORY_WINDOW, MAX_HISTORY_SUMMARY_LENGTH } from './writing-limits';
import { MAX_FOLLOW_UP_INTERVAL_LENGTH } from './interval';
import { FOLLOW_UP_TYPES, OUTPUTS, structureSchema } from './schema';
import { MAX_SEQUENCE, MIN_SEQUENCE } from './sequence';

/**
 * The API reference of lead follow-up (documentation only: no function
 * bundle imports this file). The request is the canonical shape of
 * schema.ts: its structure fields reused as they are, its ids (checked in a
 * second stage there) described as the UUIDs they must be. snake_case
 * aliases (`site_id`, `lead_id`, ...) are accepted too and not listed.
 */
const field = structureSchema.shape;

const TAG = { name: 'Lead follow-up', description: 'A sales agent writes follow-ups for a lead; a copywriter agent refines them.' };

export const leadFollowUpRequestSchema = z
  .object({
    siteId: uuidField('The site (alias `site_id`).', DEMO_SITE_ID),
    leadId: uuidField('A lead of the site (alias `lead_id`).', DEMO_LEAD_ID),
    userId: uuidField('A user of the site the follow-up is written for (alias `user_id`).').optional(),
    agentId: uuidField("The sales agent who writes (alias `agent_id`); without it, the site's first active sales agent.").optional(),
    visitorId: uuidField('The visitor the lead came from (alias `visitor_id`).').optional(),
    followUpType: z
      .enum(FOLLOW_UP_TYPES)
      .optional()
      .meta({ description: 'The follow-up wanted first (alias `follow_up_type`); any other value answers 400 INVALID_FOLLOW_UP_TYPE.' }),
    leadStage: field.leadStage.meta({ description: 'Where the lead is in the funnel (alias `lead_stage`); a sequence has 3 items early, 5 late, 4 otherwise.', example: 'qualified' }),
    previousInteractions: field.previousInteractions.meta({
      description:
        'Earlier touch points (alias `previous_interactions`); `content` is accepted for `summary`. The writer sees the newest of them with the lead\'s own (see `interactions` in the answer).',
      example: [{ date: '2026-11-02', type: 'demo', summary: 'Asked about group bookings' }],
    }),
    leadData: field.leadData.meta({
      description: "Context about the lead (alias `lead_data`). It never replaces the stored email or phone: only the stored lead's contact data is used to reach them.",
    }),
    productInterest: field.productInterest.meta({ description: 'Products the lead showed interest in (alias `product_interest`).', example: ['booking calendar'] }),
    followUpInterval: field.followUpInterval.meta({
      description: `Time between the items of a sequence (alias \`follow_up_interval\`): "3 days", "2 weeks", "P3D"; 1 hour to 365 days, at most ${MAX_FOLLOW_UP_INTERVAL_LENGTH} characters. Default 3 days.`,
      example: '2 weeks',
    }),
    phone_number: z
      .string()
      .max(32)
      .optional()
      .meta({ description: 'A number for the messaging app (alias `phoneNumber`): 7 to 15 digits, with `+`, spaces, dots, dashes or parentheses; else 400 INVALID_PHONE_NUMBER.', example: '+1 415 555 0123' }),
    output: z
      .enum(OUTPUTS)
      .optional()
      .meta({
        description:
          `\`channel_messages\`: one ready-to-send message per channel that reaches the lead; \`follow_up_sequence\`: ${MIN_SEQUENCE} to ${MAX_SEQUENCE} scheduled follow-ups, saved. ` +
          'Default: the deployment\'s LEAD_FOLLOW_UP_OUTPUT (`channel_messages`).',
      }),
  })
  .meta({ id: 'LeadFollowUpRequest', description: 'What to follow up: a lead of a site, and context for the writer. `null` counts as absent.' });

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
  warnings: z.array(errorInfoSchema).optional().meta({ description: 'A copywriter phase that failed: the sales copy stands, `command_ids.copywriter` is null.' }),
};

export const channelMessagesResultSchema = z
  .object({
    command_id: commandIdField,
    messages: z
      .object(Object.fromEntries(CHANNEL_ORDER.map((channel) => [channel, channelMessageSchema.optional()])))
      .meta({ description: 'One message per channel that reaches the lead: email and messaging_app when the site enables them and the lead has the contact; notification and web always.' }),
    lead: leadViewSchema,
    interactions: z.array(z.object({ date: z.string(), type: z.string(), summary: z.string() })).meta({
      description:
        "What the writer saw of the lead's interactions, oldest first: the newest of the site's (imported with the lead), the `previousInteractions` given and your " +
        "tenant's own reported events (`POST /api/leads/{leadId}/events`; never another tenant's), at most " +
        `${HISTORY_WINDOW.maxEntries} and ${HISTORY_WINDOW.maxCharacters.toLocaleString('en-US')} characters of summaries, each summary cut at ${MAX_HISTORY_SUMMARY_LENGTH.toLocaleString('en-US')}.`,
    }),
    preferences: z.record(z.string(), z.unknown()),
    command_ids: z
      .object({ sales: z.string(), copywriter: z.string().nullable() })
      .meta({ description: 'The commands of each phase: the sales command is this one; `copywriter` is null when no copywriter ran (or it failed).' }),
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
  .meta({ id: 'FollowUpSequenceResult', description: 'A lead follow-up with `output: "follow_up_sequence"`, completed: the follow-ups are saved.' });

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
      'A sales agent writes ready-to-send follow-ups for a lead on every channel that reaches them, then the site\'s copywriter agent (when it has an active one) refines them, ' +
        'as a second command (`copywriter`); or, with `output: "follow_up_sequence"`, it plans and saves a sequence of scheduled follow-ups.',
      '',
      'Checks, in this order: INVALID_REQUEST (a missing or malformed field), INVALID_INPUT (an id that is not a UUID), INVALID_PHONE_NUMBER, ' +
        'SITE_NOT_FOUND / FORBIDDEN, LEAD_NOT_FOUND, USER_NOT_FOUND, AGENT_NOT_FOUND, INVALID_FOLLOW_UP_TYPE, NO_CHANNELS_CONFIGURED, NO_VALID_CHANNELS_FOR_LEAD.',
      '',
      'The command stays `in_progress` until its last phase ends.',
    ].join('\n'),
    body: { schema: leadFollowUpRequestSchema, example: { siteId: DEMO_SITE_ID, leadId: DEMO_LEAD_ID, followUpType: 'email', productInterest: ['booking calendar'] } },
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
    acceptedExample: { success: true, data: { command_id: EXAMPLE_COMMAND_ID, status: 'in_progress', siteId: DEMO_SITE_ID, leadId: DEMO_LEAD_ID, output: 'channel_messages' } },
    completed: successEnvelope(z.union([channelMessagesResultSchema, followUpSequenceResultSchema])),
  }),
];
