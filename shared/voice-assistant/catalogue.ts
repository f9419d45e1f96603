import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { JobTypeDefinition } from '../catalogue/job-types';
import { workQueue } from '../catalogue/work-queue';

/**
 * The voice assistant's entries in the service catalogue (shared/catalogue/ gathers
 * them): its job types, each with its queue and worker.
 */
export const VOICE_ASSISTANT_JOB_TYPES = [
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
      description: 'After a stakeholder call: turns its transcript into the meeting summary (key points, decisions, action items, requirements)',
      // One model call bounded by the LLM policy's 56 s deadline, then two conditional writes and one event.
      timeoutSeconds: 120,
      memoryMb: 256,
      access: {
        table: [
          // Its command, and the stakeholder command whose transcript it reads and whose meeting_summary it writes.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // meeting_summary.created for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['summary', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['summary'],
        secrets: ['openai'],
      },
    },
  },
] as const satisfies readonly JobTypeDefinition<string, string>[];
