import * as z from 'zod/mini';
import '../platform/zod-messages';
import { memoize } from '../platform/memo';
import type { WrittenFollowUp, WrittenSequence } from './sequence';

/**
 * The answer the sales phase asks of the model for a sequence: apart from
 * sequence.ts, which the sequence routes load, so their bundles build no
 * schema they never parse with.
 */
const writtenFollowUpSchema: z.ZodMiniType<WrittenFollowUp> = z.object({
  subject: z.string(),
  content: z.string(),
  next_steps: z.string(),
  template: z.string(),
});

/** The answer asked of a writer for a sequence of `length` items (built once per length). */
export const writtenSequenceSchema: (length: number) => z.ZodMiniType<WrittenSequence> = memoize(
  (length: number) => z.object({ follow_ups: z.array(writtenFollowUpSchema).check(z.length(length)) }),
  (length) => String(length),
);
