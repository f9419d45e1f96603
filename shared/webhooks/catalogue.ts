import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';

/**
 * Completion webhooks in the service catalogue, all in this one file: its
 * job types (each with its queue and worker), its functions behind routes
 * or on a timer with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const WEBHOOKS_CATALOGUE = {
  jobTypes: [
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
        description:
          'Completion webhooks: POSTs one signed event to one tenant endpoint, records the attempt, schedules the next (WEBHOOK_RETRY_DELAYS)',
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
  ],
  functions: [
    {
      id: 'webhooksApi',
      kind: 'api',
      entry: 'functions/api/webhooks.ts',
      description: "/api/webhooks: register, list, delete the tenant's endpoints, rotate a signing secret, list and redeliver deliveries",
      // It never waits: registration resolves the URL's host (a 3 s lookup deadline) and writes once; every other
      // route is one or two table calls.
      timeoutSeconds: 6,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The tenant's endpoints: one partition, a bounded number of slots, each written conditionally.
          { actions: ['Query', 'PutItem', 'UpdateItem', 'DeleteItem'], keyPrefixes: ['WEBHOOK#'] },
          // An endpoint's deliveries: listed newest first, read and set for redelivery.
          { actions: ['Query', 'GetItem', 'UpdateItem'], keyPrefixes: ['DELIVERY#'] },
        ],
        // A redelivery's job.
        sendsTo: ['webhooks'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
  ],
  routes: [
    // The tenant's completion webhooks (docs/webhooks.md).
    { method: 'POST', path: '/api/webhooks', function: 'webhooksApi' },
    { method: 'GET', path: '/api/webhooks', function: 'webhooksApi' },
    { method: 'DELETE', path: '/api/webhooks/{id}', function: 'webhooksApi' },
    { method: 'POST', path: '/api/webhooks/{id}/rotate-secret', function: 'webhooksApi' },
    { method: 'GET', path: '/api/webhooks/{id}/deliveries', function: 'webhooksApi' },
    { method: 'POST', path: '/api/webhooks/{id}/deliveries/{event_id}/redeliver', function: 'webhooksApi' },
  ],
} as const satisfies FeatureCatalogue;
