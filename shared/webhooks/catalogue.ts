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
          'Completion webhooks: POSTs one signed event to one tenant endpoint, records the attempt, schedules the next (WEBHOOK_RETRY_DELAYS), ' +
          'disables an endpoint failing for WEBHOOK_DISABLE_AFTER',
        // A batch runs in parallel: each attempt is bounded by the 10 s request timeout, plus its reads and writes.
        timeoutSeconds: 30,
        memoryMb: 256,
        access: {
          table: [
            // The endpoint (its URL and signing secrets), among its tenant's; its failures noted, and it disabled when failing too long.
            { actions: ['Query', 'UpdateItem'], keyPrefixes: ['WEBHOOK#'] },
            // The event's payload; and the `webhook_endpoint.disabled` notice, recorded once and listed (the publisher's writes).
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['EVENT#'] },
            // The delivery: read, leased for one attempt, then the attempt recorded (conditional updates); a notice's deliveries created.
            { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['DELIVERY#'] },
            // A delivery an endpoint accepted counts on the usage of the command its event is about (read for its tenant, type and
            // site) and on its tenant's totals, with the attempt's record.
            { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['USAGE#'] },
          ],
          // Its own queue: the next attempt (delayed), and waits longer than SQS's 900 s in hops.
          sendsTo: ['webhooks'],
          sendsToDeadLetterOf: ['webhooks'],
          secrets: [],
        },
        settings: ['WEBHOOK_RETRY_DELAYS', 'WEBHOOK_DISABLE_AFTER'],
      },
    },
  ],
  functions: [
    {
      id: 'webhooksApi',
      kind: 'api',
      entry: 'functions/api/webhooks.ts',
      description:
        "/api/webhooks and /api/events: manage the tenant's endpoints, rotate a signing secret, list and redeliver deliveries and events",
      // It never waits: registration and an update resolve the URL's host (a 3 s lookup deadline) and write once; every other
      // route is a few table calls (an event list reads a page's payloads side by side).
      timeoutSeconds: 6,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The tenant's endpoints: one partition, a bounded number of slots, each written conditionally.
          { actions: ['Query', 'PutItem', 'UpdateItem', 'DeleteItem'], keyPrefixes: ['WEBHOOK#'] },
          // An endpoint's deliveries: listed newest first, read and set for redelivery; an event's redelivery creates the missing ones.
          { actions: ['Query', 'GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['DELIVERY#'] },
          // The tenant's events: listed newest first (EVENT#TENANT#…), each read for its payload.
          { actions: ['Query', 'GetItem'], keyPrefixes: ['EVENT#'] },
        ],
        // A redelivery's job.
        sendsTo: ['webhooks'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
    {
      id: 'webhookTestApi',
      kind: 'api',
      entry: 'functions/api/webhook-test.ts',
      description: 'POST /api/webhooks/{id}/test: sends a signed webhook.test to the endpoint now and answers the attempt',
      // The caller waits for one attempt: the URL's lookup (3 s deadline) and the POST (10 s, DELIVERY_TIMEOUT_MS), with room for its
      // two reads. On its own so the other webhook routes keep their short timeout.
      timeoutSeconds: 16,
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
          // The endpoint (its URL and signing secrets), among its tenant's; nothing is written.
          { actions: ['Query'], keyPrefixes: ['WEBHOOK#'] },
        ],
        sendsTo: [],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
  ],
  routes: [
    // The tenant's completion webhooks (docs/webhooks.md).
    { method: 'POST', path: '/api/webhooks', function: 'webhooksApi' },
    { method: 'GET', path: '/api/webhooks', function: 'webhooksApi' },
    { method: 'GET', path: '/api/webhooks/{id}', function: 'webhooksApi' },
    { method: 'PATCH', path: '/api/webhooks/{id}', function: 'webhooksApi' },
    { method: 'DELETE', path: '/api/webhooks/{id}', function: 'webhooksApi' },
    { method: 'POST', path: '/api/webhooks/{id}/rotate-secret', function: 'webhooksApi' },
    { method: 'GET', path: '/api/webhooks/{id}/deliveries', function: 'webhooksApi' },
    { method: 'POST', path: '/api/webhooks/{id}/deliveries/{event_id}/redeliver', function: 'webhooksApi' },
    { method: 'POST', path: '/api/webhooks/{id}/test', function: 'webhookTestApi' },
    { method: 'GET', path: '/api/events', function: 'webhooksApi' },
    { method: 'POST', path: '/api/events/{id}/redeliver', function: 'webhooksApi' },
  ],
} as const satisfies FeatureCatalogue;
