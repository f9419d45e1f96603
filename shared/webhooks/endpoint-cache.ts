import type { Clock } from '../platform/clock';
import { keyedCache } from '../platform/keyed-cache';
import type { EndpointStore } from './endpoint-store';

/**
 * How long a function keeps a tenant's endpoint list to decide which endpoints an event goes to. Every ending of a command asks,
 * and almost every tenant has none; an endpoint registered, changed or deleted in another function is seen within this time
 * (within the function that made the change, and everywhere under `npm start`, at once).
 */
export const ENDPOINT_LIST_TTL_MS = 5_000;

/** Bumped by every change to any endpoint made in this process: cached lists older than it are read again. */
let generation = 0;

/** Tells this process's endpoint caches that an endpoint was created, changed or deleted. */
export function endpointsChanged(): void {
  generation += 1;
}

/**
 * The endpoint lists of `store`, each kept for `ttlMs` (a read that failed is
 * not kept). Only for choosing an event's endpoints: a delivery reads its
 * endpoint again before each attempt, so one deleted or disabled meanwhile is
 * never sent to.
 */
export function cachedEndpointLists(
  store: Pick<EndpointStore, 'list'>,
  clock: Pick<Clock, 'now'>,
  ttlMs: number = ENDPOINT_LIST_TTL_MS,
): Pick<EndpointStore, 'list'> {
  return { list: keyedCache((tenantId) => store.list(tenantId), { ttlMs, clock, generation: () => generation }) };
}
