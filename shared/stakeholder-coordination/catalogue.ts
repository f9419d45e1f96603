import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { JobTypeDefinition } from '../catalogue/job-types';
import { workQueue } from '../catalogue/work-queue';

/**
 * Stakeholder coordination's entries in the service catalogue (shared/catalogue/ gathers
 * them): its job types, each with its queue and worker.
 */
export const STAKEHOLDER_COORDINATION_JOB_TYPES = [
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
      settings: ['TWILIO_FROM_NUMBER', 'TWILIO_API_BASE_URL'],
    },
  },
] as const satisfies readonly JobTypeDefinition<string, string>[];
