import { CRM_SYNC_PRODUCER_TABLE_GRANTS } from '../catalogue/crm-sync-producing';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';
import { RELAY_TIMEOUT_SECONDS, TRANSCRIPT_GRACE_SECONDS, TRANSCRIPT_GRACE_SETTING } from '../calls/transcript-grace';
import { IN_PROCESS_TRACING_OFF } from '../platform/tracing-settings';

/**
 * The voice assistant in the service catalogue, all in this one file: its
 * job types (each with its queue and worker), its functions behind routes
 * or on a timer with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const VOICE_ASSISTANT_CATALOGUE = {
  jobTypes: [
    {
      type: 'post_call_summary',
      commandType: 'post_call_summary',
      startsCommand: true,
      fromProducers: false,
      queue: workQueue('summary', 'SUMMARY'),
      worker: {
        id: 'postCallSummaryWorker',
        kind: 'worker',
        entry: 'functions/workers/post-call-summary.ts',
        description:
          'After a stakeholder call: turns its transcript into the meeting summary (key points, decisions, action items, requirements)',
        // One model call bounded by the LLM policy's 56 s deadline, then two conditional writes (the summary's one transaction
        // with its event and the site's new tasks and requirements).
        timeoutSeconds: 120,
        memoryMb: 256,
        access: {
          table: [
            // Whether the tenant has a CRM connection: a write-back is queued only then.
            ...CRM_SYNC_PRODUCER_TABLE_GRANTS,
            // Its command, and the stakeholder command whose transcript it reads and whose meeting_summary it writes.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
            // The call's action items and requirements, as the tenant's tasks and requirements of the site: put only if absent,
            // in the summary's own transaction (shared/sites/dynamo-site-work.ts).
            { actions: ['PutItem'], keyPrefixes: ['SITEWORK#'] },
            // meeting_summary.created for the tenant's webhooks (event-publishing.ts).
            ...EVENT_PUBLISHER_TABLE_GRANTS,
          ],
          // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
          // And `crm`: a summary of a call about a lead is logged on the lead's CRM contact (crm_sync, a finish hook).
          sendsTo: ['summary', EVENT_DELIVERY_QUEUE, 'crmsync'],
          sendsToDeadLetterOf: ['summary'],
          secrets: ['openai'],
        },
      },
    },
  ],
  functions: [
    {
      id: 'conversationRelayWebhook',
      kind: 'webhook',
      entry: 'functions/webhooks/relay.ts',
      description:
        "The ConversationRelay socket ($connect, $default, $disconnect): Twilio's signed socket, the assistant's turns, the transcript, the post-call job",
      // Below API Gateway's 29 s integration timeout; one turn is one model call bounded by the voice policy's 18 s deadline.
      timeoutSeconds: RELAY_TIMEOUT_SECONDS,
      memoryMb: 256,
      // A turn still being answered when the call ends writes within the function's timeout (shared/calls/transcript-grace.ts).
      // Its cold start is heard by the caller: no in-process tracing in it (shared/platform/tracing-settings.ts).
      deployedSettings: { [TRANSCRIPT_GRACE_SETTING]: String(TRANSCRIPT_GRACE_SECONDS), ...IN_PROCESS_TRACING_OFF },
      access: {
        table: [
          // The stakeholder command: its call and prompts (read), its transcript and meeting_summary (conditional appends), and the
          // post-call child it starts.
          { actions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
          // The model tokens of the call's turns, counted on the command (its usage labels read) and its tenant's totals.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['USAGE#'] },
          // One session item per socket: which command and call it carries.
          { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['RELAY#'] },
        ],
        sendsTo: ['summary'],
        sendsToDeadLetterOf: [],
        // TWILIO_AUTH_TOKEN, to check X-Twilio-Signature on the upgrade; OPENAI_API_KEY for the turns.
        secrets: ['twilio', 'openai'],
      },
    },
  ],
  // Its webhook answers the ConversationRelay socket (API Gateway's WebSocket API in AWS), which is no HTTP route.
  routes: [],
  // Erasing a stakeholder command erases the tasks and requirements its call made (shared/sites/dynamo-site-work.ts).
  erasedWithCommand: [{ actions: ['Query', 'DeleteItem'], keyPrefixes: ['SITEWORK#'] }],
} as const satisfies FeatureCatalogue;
