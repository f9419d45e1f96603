import * as z from 'zod/mini';
import '../platform/zod-messages';
import { TENANT_ID_PATTERN } from '../access/tenant-id';
import { isUuid } from '../platform/ids';
import { lazy } from '../platform/memo';

/** Version of the job envelope; a producer must send exactly this. */
export const JOB_ENVELOPE_VERSION = 1;

/**
 * The versioned envelope every job travels in. An event producer puts one
 * on a worker queue directly, with `request` the same body the HTTP route
 * takes; the service's own jobs name their command (`command_id`), whose
 * stored request is what runs. Built on first use: only workers parse
 * envelopes, while every function that queues a job imports this module.
 */
export const jobEnvelopeSchema = lazy(() =>
  z
    .strictObject({
      version: z.literal(JOB_ENVELOPE_VERSION),
      type: z.string().check(z.minLength(1), z.maxLength(64)),
      idempotency_key: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      // Tenant ids: lower-case letters, digits, '-' and '_' (no separators that could forge a storage key).
      tenant_id: z.string().check(z.maxLength(63), z.regex(TENANT_ID_PATTERN, 'must be 1–63 lower-case letters, digits, "-" or "_"')),
      command_id: z.optional(
        z.pipe(
          z.string().check(z.refine(isUuid, 'must be a UUID')),
          z.transform((id: string) => id.toLowerCase()),
        ),
      ),
      request: z.optional(z.record(z.string(), z.unknown())),
    })
    .check(
      z.refine((job) => job.command_id !== undefined || job.request !== undefined, {
        message: 'a job needs a request (or a command_id)',
        path: ['request'],
      }),
    ),
);

/** A validated job envelope. */
export type JobEnvelope = z.infer<ReturnType<typeof jobEnvelopeSchema>>;

/**
 * A job that can never succeed however often it is retried, because of its
 * own content: it goes to the dead-letter queue at once, with its reason.
 */
export class PoisonJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonJobError';
  }
}

/** A job that names its command (the service's own jobs): the worker runs the command's stored request. */
export function jobNaming(type: string, tenantId: string, commandId: string): JobEnvelope {
  return { version: JOB_ENVELOPE_VERSION, type, tenant_id: tenantId, command_id: commandId };
}
