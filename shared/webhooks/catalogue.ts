import type { JobTypeDefinition } from '../catalogue/job-types';
import { workQueue } from '../catalogue/work-queue';

/**
 * Completion webhooks's entries in the service catalogue (shared/catalogue/ gathers
 * them): its job types, each with its queue and worker.
 */
export const WEBHOOKS_JOB_TYPES = [
  {
    type: 'webhook_delivery',
    // No command: a delivery keeps its own state (DELIVERY#), and its worker is a task worker.
    startsCommand: false,
    fromProducers: false,
    // Deliveries are short and independent: ten to a batch, run side by side.
    queue: { ...workQueue('webhooks', 'WEBHOOKS'), batchSize: 10 },
    worker: {
      id: 'webhookDeliveryWorker',
      kind: 'worker',
      entry: 'functions/workers/webhook-delivery.ts',
      description: "Completion webhooks: POSTs one signed event to one tenant endpoint, records the attempt, schedules the next (WEBHOOK_RETRY_DELAYS)",
      // A batch runs in parallel: each attempt is bounded by the 10 s request timeout, plus its reads and writes.
      timeoutSeconds: 30,
      memoryMb: 256,
      access: {
        table: [
          // The endpoint (its URL and signing secrets), among its tenant's.
          { actions: ['Query'], keyPrefixes: ['WEBHOOK#'] },
          // The event's payload.
          { actions: ['GetItem'], keyPrefixes: ['EVENT#'] },
          // The delivery: read, leased for one attempt, then the attempt recorded (conditional updates).
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['DELIVERY#'] },
        ],
        // Its own queue: the next attempt (delayed), and waits longer than SQS's 900 s in hops.
        sendsTo: ['webhooks'],
        sendsToDeadLetterOf: ['webhooks'],
        secrets: [],
      },
      settings: ['WEBHOOK_RETRY_DELAYS'],
    },
  },
] as const satisfies readonly JobTypeDefinition<string, string>[];
