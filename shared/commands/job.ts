import { z } from 'zod';
import type { CommandType } from './record';

/** Version of the job envelope; a producer must send exactly this. */
export const JOB_ENVELOPE_VERSION = 1;

/**
 * The versioned envelope every job travels in. Event producers may put one
 * on a worker queue directly: `request` is the same body the HTTP route takes.
 * Jobs the service itself queues also carry `command_id`.
 */
export const jobEnvelopeSchema = z
  .object({
    version: z.literal(JOB_ENVELOPE_VERSION),
    type: z.string().min(1),
    idempotency_key: z.string().min(1).max(255).optional(),
    tenant_id: z.string().min(1).max(128),
    command_id: z.string().uuid().optional(),
    request: z.record(z.string(), z.unknown()),
  })
  .strict();

/** A validated job envelope. */
export type JobEnvelope = z.infer<typeof jobEnvelopeSchema> & { type: CommandType };

/** A job that can never succeed however often it is retried: it goes to the dead-letter queue. */
export class PoisonJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoisonJobError';
  }
}
