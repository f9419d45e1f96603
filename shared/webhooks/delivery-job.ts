import * as z from 'zod/mini';
import '../platform/zod-messages';
import { JOB_ENVELOPE_VERSION, type JobEnvelope } from '../commands/job';
import { lazy } from '../platform/memo';
import { ENDPOINT_ID_PATTERN, EVENT_ID_PATTERN } from './ids';

/** The job type that delivers one event to one endpoint (shared/catalogue/job-types.ts). */
export const DELIVERY_JOB_TYPE = 'webhook_delivery' as const;

/**
 * What a `webhook_delivery` job names in its `request`: the delivery
 * (endpoint and event) and the attempt it is for. A job for an attempt
 * already made, or not yet due in turn, is dropped by the worker, so
 * duplicate jobs never send an attempt twice. Built on first use: the
 * functions that publish events import this module but never parse one.
 */
export const deliveryJobRequestSchema = lazy(() =>
  z.strictObject({
    endpoint_id: z.string().check(z.regex(ENDPOINT_ID_PATTERN)),
    event_id: z.string().check(z.regex(EVENT_ID_PATTERN)),
    attempt: z.int().check(z.minimum(1), z.maximum(10_000)),
  }),
);

export type DeliveryJobRequest = z.infer<ReturnType<typeof deliveryJobRequestSchema>>;

/** The envelope of a delivery job. */
export function deliveryJob(tenantId: string, request: DeliveryJobRequest): JobEnvelope {
  return { version: JOB_ENVELOPE_VERSION, type: DELIVERY_JOB_TYPE, tenant_id: tenantId, request: { ...request } };
}
