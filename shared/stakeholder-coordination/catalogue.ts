import { COMMAND_ACCEPT_TABLE_GRANTS, MONTHLY_CAP_GRANTS } from '../catalogue/command-start';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';
import { RELAY_SETTING_NAMES } from '../providers/telephony/relay-setting-names';
import { TRANSCRIPT_GRACE_SECONDS, TRANSCRIPT_GRACE_SETTING } from '../calls/transcript-grace';
import { stakeholderCoordinationLive } from './live';
import { IN_PROCESS_TRACING_OFF } from '../platform/tracing-settings';

/**
 * Stakeholder coordination in the service catalogue, all in this one file: its
 * job types (each with its queue and worker), its functions behind routes
 * or on a timer with their access, its routes, and the live fields of its
 * command type. shared/catalogue/features.ts lists it.
 */
export const STAKEHOLDER_COORDINATION_CATALOGUE = {
  jobTypes: [
    {
      type: 'stakeholder_coordination',
      commandType: 'stakeholder_coordination',
      startsCommand: true,
      fromProducers: false,
      queue: workQueue('call', 'CALL'),
      worker: {
        id: 'callWorker',
        kind: 'worker',
        entry: 'functions/workers/stakeholder-call.ts',
        description: 'Stakeholder coordination: writes a missing meeting title or objective, then places the call (never twice)',
        // One model call bounded by the LLM policy's 56 s deadline, then one Twilio create bounded by the adapter's timeout.
        timeoutSeconds: 120,
        memoryMb: 256,
        access: {
          table: [
            // Its command: the request, context and prompts the API stored, and the call's conditional writes.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
            // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
            ...EVENT_PUBLISHER_TABLE_GRANTS,
          ],
          // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
          sendsTo: ['call', EVENT_DELIVERY_QUEUE],
          sendsToDeadLetterOf: ['call'],
          secrets: ['openai', 'twilio'],
        },
        settings: ['TWILIO_FROM_NUMBER', 'TWILIO_API_BASE_URL', ...RELAY_SETTING_NAMES],
      },
    },
  ],
  functions: [
    {
      id: 'stakeholderCoordinationApi',
      kind: 'api',
      entry: 'functions/api/stakeholder-coordination.ts',
      description:
        'POST /api/agents/cmo/stakeholder-coordination: validate, build the meeting prompts and context summary, record the command, queue the call job',
      timeoutSeconds: 29,
      // Measured (sizing bench, five runs): ten storage calls and the context summary, 20–26 ms of CPU a warm request,
      // 131–143 ms the first after a cold start; at 512 MB that is 81–107 ms a warm request.
      memoryMb: 1024,
      access: {
        table: [
          // The key, the Idempotency-Key and the command (command-start.ts).
          ...COMMAND_ACCEPT_TABLE_GRANTS,
          ...MONTHLY_CAP_GRANTS,
          // The site, its lead, visitor, user and agents, and the bounded lists of its context summary.
          { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
          // A conversation named by the request, or the new one it starts.
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['CONV#'] },
          // The tenant's tasks and requirements its earlier calls made on the site, for the context summary (two bounded queries).
          { actions: ['Query'], keyPrefixes: ['SITEWORK#'] },
        ],
        sendsTo: ['call'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'twilioCallStatusWebhook',
      kind: 'webhook',
      entry: 'functions/webhooks/twilio-call-status.ts',
      description:
        "POST /webhooks/twilio/call-status: Twilio's signed status callbacks move a command's call (one conditional update); a completed call requests its post-call summary. POST /webhooks/twilio/relay-ended: Twilio's signed report that the call's relay session ended requests the same summary and hangs up",
      // It answers within a second (one conditional write); the margin covers a cold start reading the Twilio secret.
      timeoutSeconds: 5,
      memoryMb: 256,
      // A completed call's summary waits for a turn still being answered (shared/calls/transcript-grace.ts).
      // Its cold start is heard by the caller: no in-process tracing in it (shared/platform/tracing-settings.ts).
      deployedSettings: { [TRANSCRIPT_GRACE_SETTING]: String(TRANSCRIPT_GRACE_SECONDS), ...IN_PROCESS_TRACING_OFF },
      access: {
        table: [
          // One conditional UpdateItem of the command's call.
          { actions: ['UpdateItem'], keyPrefixes: ['CMD#'] },
          // Then the command is read, to tell the tenant's webhooks (call.status_changed).
          { actions: ['GetItem'], keyPrefixes: ['CMD#'] },
          // Call seconds (the final callback) counted on the command (its usage item read for its tenant, type and site) and its
          // tenant's totals.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['USAGE#'] },
          ...EVENT_PUBLISHER_TABLE_GRANTS,
          // A completed call requests its post-call summary (the backstop of the relay's $disconnect): the
          // command's meeting_summary (a conditional UpdateItem, above) and the post_call_summary child it starts
          // (written only while its parent exists: a ConditionCheck in the same transaction).
          { actions: ['PutItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
        ],
        sendsTo: [EVENT_DELIVERY_QUEUE, 'summary'],
        sendsToDeadLetterOf: [],
        // TWILIO_AUTH_TOKEN, to check X-Twilio-Signature.
        secrets: ['twilio'],
      },
    },
  ],
  routes: [
    { method: 'POST', path: '/api/agents/cmo/stakeholder-coordination', function: 'stakeholderCoordinationApi' },
    // Outside /api and without a key: Twilio signs each callback (X-Twilio-Signature), and the webhook checks that.
    { method: 'POST', path: '/webhooks/twilio/call-status', function: 'twilioCallStatusWebhook' },
    // The TwiML's <Connect action>: Twilio reports the end of the call's relay session there, signed like the status callbacks.
    { method: 'POST', path: '/webhooks/twilio/relay-ended', function: 'twilioCallStatusWebhook' },
  ],
  liveFields: {
    stakeholder_coordination: stakeholderCoordinationLive,
  },
} as const satisfies FeatureCatalogue;
