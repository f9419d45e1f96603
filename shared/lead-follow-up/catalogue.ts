import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { JobTypeDefinition } from '../catalogue/job-types';
import { workQueue } from '../catalogue/work-queue';

/**
 * Lead follow-up's entries in the service catalogue (shared/catalogue/ gathers
 * them): its job types, each with its queue and worker.
 */
export const LEAD_FOLLOW_UP_JOB_TYPES = [
  {
    type: 'lead_follow_up',
    commandType: 'lead_follow_up',
    startsCommand: true,
    fromProducers: true,
    queue: workQueue('sales', 'SALES'),
    worker: {
      id: 'salesWorker',
      kind: 'worker',
      entry: 'functions/workers/sales.ts',
      description: 'Lead follow-up phase 1: the sales agent writes the messages or the sequence',
      // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
      timeoutSeconds: 120,
      // Measured (a batch of 5 in one process, SDK bundled): peak RSS 141 MB, heap 50 MB, 17 ms CPU a job;
      // the rest of a job is waiting on the model, which more memory (and CPU) would not shorten.
      memoryMb: 256,
      access: {
        table: [
          // Producer jobs: the tenant's sites, then the job's Idempotency-Key.
          { actions: ['GetItem'], keyPrefixes: ['TENANT#'] },
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
          { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
          // The command's tenant's window of the lead's history (one Query, Limit bounded).
          { actions: ['Query'], keyPrefixes: ['LEADHISTORY#'] },
          // Its command, and the copywriter child it starts. The child and a sequence's follow-ups are written
          // only while the command is still there (a ConditionCheck on it in the same transaction).
          { actions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
          // A sequence's follow-ups: in one transaction on the first attempt, item by item (conditionally) after.
          { actions: ['PutItem'], keyPrefixes: ['FOLLOWUP#'] },
          // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue too: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['sales', 'copywriter', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['sales'],
        secrets: ['openai'],
      },
    },
  },
  {
    type: 'copywriter',
    commandType: 'copywriter',
    startsCommand: true,
    fromProducers: false,
    queue: workQueue('copywriter', 'COPYWRITER'),
    worker: {
      id: 'copywriterWorker',
      kind: 'worker',
      entry: 'functions/workers/copywriter.ts',
      description: 'Lead follow-up phase 2: the copywriter agent refines the messages',
      // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
      timeoutSeconds: 120,
      // Measured (a batch of 5 in one process, SDK bundled): peak RSS 141 MB, heap 50 MB, 17 ms CPU a job;
      // the rest of a job is waiting on the model, which more memory (and CPU) would not shorten.
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // Its command and the parent lead follow-up it finishes.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // The parent's command.completed for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['copywriter', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['copywriter'],
        secrets: ['openai'],
      },
    },
  },
] as const satisfies readonly JobTypeDefinition<string, string>[];
