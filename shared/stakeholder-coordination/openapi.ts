import * as z from 'zod';
import { callSchema, commandStatusSchema } from '../api/openapi/commands';
import { errorInfoSchema } from '../api/openapi/errors';
import { DEMO_LEAD_ID, DEMO_SITE_ID } from '../api/examples';
import { commandIdField, EXAMPLE_COMMAND_ID, generatedByField, uuidField } from '../api/openapi/fields';
import {
  commandOperation,
  successEnvelope,
  webhookEvent,
  webhookOperation,
  type DocumentedEvent,
  type DocumentedOperation,
} from '../api/openapi/operation';
import { classicOf } from '../api/openapi/classic';
import { statusCallbackParams } from '../providers/telephony/call-status';
import { CALL_STATUS_PATH, RELAY_ENDED_PATH } from './call-status-path';
import { STAKEHOLDER_SUPERVISORS, STAKEHOLDER_TASK } from './command-object';
import { contextSummarySchema } from './context-summary';
import { meetingDetailsSchema } from './context';
import { requestSchema } from './schema';

/**
 * The API reference of stakeholder coordination (documentation only: no
 * function bundle imports this file). The request is schema.ts's own schema,
 * the one the API checks, described there; its camelCase aliases (`siteId`,
 * `meetingTitle`, ...) are named in the descriptions, not listed as fields.
 */

const TAG = {
  name: 'Stakeholder coordination',
  description: "The CMO agent prepares a stakeholder meeting from the site's own data and calls the stakeholder.",
};
const PROVIDER_WEBHOOKS_TAG = { name: 'Provider webhooks', description: 'Routes the telephony provider calls, signed by it; no API key.' };

const systemPromptSchema = z
  .object({
    id: z.enum(['pre_call', 'post_call']),
    role: z.literal('system'),
    phase: z.enum(['pre_call', 'post_call']),
    content: z.string().meta({ description: "Plain text, built from the site's own data." }),
  })
  .meta({
    id: 'SystemPrompt',
    description: "`pre_call`: the assistant's guidance during the call; `post_call`: how the summary is written after it.",
  });

const stakeholderFields = {
  command_id: commandIdField,
  status: commandStatusSchema,
  conversation_id: uuidField('The conversation the meeting is filed under.'),
  meeting_details: z.object({ title: z.string(), objective: z.string() }),
  system_prompts: z.array(systemPromptSchema).length(2),
  context_summary: z
    .optional(contextSummarySchema)
    .meta({ description: "The site's context (with `include_context_summary`, the default)." }),
  call: callSchema.optional(),
  site_id: z.string(),
  targets: z
    .tuple([
      z.object({ meeting_details: meetingDetailsSchema }),
      z.object({ messages: z.array(z.object({ role: z.literal('system'), content: z.string() })) }),
      z.object({ messages: z.array(z.object({ role: z.literal('system'), content: z.string() })) }),
    ])
    .meta({ description: 'The command object: the meeting details, then the pre-call and post-call prompts as message lists.' }),
  supervisors: z.array(z.object({ agent_role: z.string(), status: z.string() })).meta({ example: STAKEHOLDER_SUPERVISORS }),
  task: z.string().meta({ example: STAKEHOLDER_TASK }),
  description: z.string(),
};

const accepted = z.object(stakeholderFields).meta({
  id: 'StakeholderCoordinationAccepted',
  description: 'Everything known at once: the meeting details and prompts, the context summary, and a `pending` call.',
});

export const stakeholderResultSchema = z
  .object({
    ...stakeholderFields,
    generated_by: generatedByField.optional().meta({ description: 'Who wrote the meeting details the request left out.' }),
    warnings: z.array(errorInfoSchema).optional().meta({ description: 'Meeting details written without the model.' }),
  })
  .meta({
    id: 'StakeholderCoordinationResult',
    description: 'The final meeting details and prompts, and the call as it is now (it keeps moving after the command completed).',
  });

/** Twilio's status callback form (docs/voice-calls.md "The status webhook"): the fields the webhook reads, as it reads them. */
const statusCallbackSchema = (classicOf(statusCallbackParams) as z.ZodObject)
  .catchall(z.string())
  .meta({ id: 'TwilioStatusCallback', description: 'A Twilio status callback (form fields; Twilio sends more, all signed).' });

/** What Twilio POSTs to the `<Connect action>` URL when a call's relay session ends (the fields this service reads; all are signed). */
const relayEndedSchema = z
  .object({
    CallSid: z.string().meta({ description: 'The call whose session ended.', example: 'CA0123456789abcdef0123456789abcdef' }),
    SessionStatus: z.string().optional().meta({ description: "Twilio's status of the ended session.", example: 'completed' }),
    SessionDuration: z.string().optional().meta({ description: 'Seconds the session lasted.', example: '184' }),
    HandoffData: z
      .string()
      .optional()
      .meta({ description: "The `handoffData` of the assistant's `end` message, when it ended the session." }),
    ErrorCode: z.string().optional().meta({ description: "Twilio's error code, when the session failed." }),
  })
  .catchall(z.string())
  .meta({
    id: 'TwilioRelaySessionEnded',
    description: "Twilio's report of an ended ConversationRelay session (form fields; Twilio sends more).",
  });

/** POST /api/agents/cmo/stakeholder-coordination, and Twilio's signed status callbacks and relay session reports. */
export const STAKEHOLDER_COORDINATION_OPERATIONS: readonly DocumentedOperation[] = [
  commandOperation({
    method: 'POST',
    path: '/api/agents/cmo/stakeholder-coordination',
    operationId: 'runStakeholderCoordination',
    tag: TAG,
    summary: 'Coordinate a stakeholder meeting',
    description: [
      "The CMO agent prepares a stakeholder meeting from the site's own data (tasks, requirements, campaigns, content, budget): meeting details, " +
        'a pre-call and a post-call system prompt, a context summary; and, when `phone_numbers` names one, a phone call run by the voice assistant.',
      '',
      'Checks, in this order: INVALID_REQUEST, SITE_NOT_FOUND / FORBIDDEN, then each id the request names on that site: LEAD_NOT_FOUND, NOT_FOUND (visitor), ' +
        'USER_NOT_FOUND, AGENT_NOT_FOUND, NOT_FOUND (conversation), INVALID_REQUEST (the meeting too large to keep: its request, context and prompts would pass the 240 KiB its command ' +
        "keeps for them beside the call's transcript and summary; only text at several limits at once in wide characters meets it). " +
        'The call is placed at most once, ever: a replay with the same `Idempotency-Key` never dials again.',
    ].join('\n'),
    body: {
      schema: requestSchema,
      example: {
        site_id: DEMO_SITE_ID,
        lead_id: DEMO_LEAD_ID,
        meeting_agenda: ['Campaign results', 'January budget'],
        phone_numbers: ['+14155550123'],
      },
    },
    errors: ['INVALID_REQUEST', 'FORBIDDEN', 'SITE_NOT_FOUND', 'LEAD_NOT_FOUND', 'USER_NOT_FOUND', 'AGENT_NOT_FOUND', 'NOT_FOUND'],
    failures: ['SYSTEM_ERROR'],
    accepted,
    completed: successEnvelope(stakeholderResultSchema),
  }),
  webhookOperation({
    method: 'POST',
    path: CALL_STATUS_PATH,
    operationId: 'twilioCallStatus',
    tag: PROVIDER_WEBHOOKS_TAG,
    summary: "Twilio's call status callback",
    description:
      "Called by Twilio, never by clients: no API key. The request must carry a valid `X-Twilio-Signature` (HMAC-SHA1 with the account's auth token over " +
      'PUBLIC_BASE_URL + this path + query, then the form fields sorted by name); anything else answers 403 FORBIDDEN and changes nothing. A signed callback moves ' +
      "the command's call by one conditional update: only forward (SequenceNumber), never out of a final state; repeats and late ones answer 204 too.",
    query: z.object({
      command_id: uuidField('The command whose call this is (set in the callback URL the worker gave Twilio).', EXAMPLE_COMMAND_ID),
    }),
    headers: z.object({
      'X-Twilio-Signature': z
        .string()
        .meta({ description: "Twilio's signature of the request (base64 HMAC-SHA1).", example: 'xmJb8v4c1pJ6L2Q2w0oV7n7Bf3E=' }),
    }),
    body: { contentType: 'application/x-www-form-urlencoded', schema: statusCallbackSchema },
    errors: ['FORBIDDEN', 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'SYSTEM_ERROR'],
    answers: { 204: { description: 'Taken: applied, or a repeated, late or out-of-order callback ignored.' } },
  }),
  webhookOperation({
    method: 'POST',
    path: RELAY_ENDED_PATH,
    operationId: 'twilioRelayEnded',
    tag: PROVIDER_WEBHOOKS_TAG,
    summary: "Twilio's report that a call's relay session ended",
    description:
      "Called by Twilio, never by clients: the `<Connect action>` of the call's TwiML. No API key; signed like the status callback " +
      '(`X-Twilio-Signature` over PUBLIC_BASE_URL + this path + query, then the form fields); anything else answers 403 FORBIDDEN and changes nothing. ' +
      "For the command's own call it requests the post-call summary (once, however often the end is reported) and answers TwiML that hangs up.",
    query: z.object({
      command_id: uuidField('The command whose call this is (set in the action URL of the TwiML).', EXAMPLE_COMMAND_ID),
    }),
    headers: z.object({
      'X-Twilio-Signature': z
        .string()
        .meta({ description: "Twilio's signature of the request (base64 HMAC-SHA1).", example: 'xmJb8v4c1pJ6L2Q2w0oV7n7Bf3E=' }),
    }),
    body: { contentType: 'application/x-www-form-urlencoded', schema: relayEndedSchema },
    errors: ['FORBIDDEN', 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'SYSTEM_ERROR'],
    answers: {
      200: {
        description: 'TwiML that hangs up: `<Response><Hangup/></Response>`.',
        content: {
          'text/xml': { schema: z.string().meta({ example: '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>' }) },
        },
      },
    },
  }),
];

/** `call.status_changed`, published by call-status-webhook.ts for each callback applied. */
export const STAKEHOLDER_COORDINATION_EVENTS: readonly DocumentedEvent[] = [
  webhookEvent({
    type: 'call.status_changed',
    summary: "A stakeholder call's status changed",
    description:
      "Twilio reported a stakeholder call's progress and the call moved: one event per status callback applied (a repeated callback yields no second event). " +
      'Delivered at least once and in no guaranteed order: de-duplicate by `id`, and order by `call.last_sequence`.',
    data: z.object({
      command_id: commandIdField.meta({ description: 'The stakeholder coordination command the call belongs to.' }),
      call: callSchema,
    }),
  }),
];
