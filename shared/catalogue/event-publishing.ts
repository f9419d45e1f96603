import type { TableGrant } from './table';

/**
 * What a function needs to publish events (shared/commands/events.ts) to
 * the tenant's completion webhooks: read the tenant's endpoints, record the
 * event once (an UpdateItem that keeps the first writer's event), create one
 * delivery per subscribed endpoint, and queue its `webhook_delivery` job
 * ({@link EVENT_DELIVERY_QUEUE}). A function whose catalogue entry carries
 * both is composed with the webhook publisher; any other publishes nothing.
 */
export const EVENT_PUBLISHER_TABLE_GRANTS = [
  // The tenant's endpoints (at most MAX_ENDPOINTS_PER_TENANT items in one partition).
  { actions: ['Query'], keyPrefixes: ['WEBHOOK#'] },
  // The event, written once whatever the number of publishers (if_not_exists; with the change it announces, in one
  // transaction), read back to hand it on, then marked fanned out.
  { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['EVENT#'] },
  // One delivery per subscribed endpoint, created conditionally.
  { actions: ['PutItem'], keyPrefixes: ['DELIVERY#'] },
] as const satisfies readonly TableGrant[];

/** The queue of `webhook_delivery` jobs, which every event publisher sends to (job-types.ts checks it is one). */
export const EVENT_DELIVERY_QUEUE = 'webhooks' as const;
