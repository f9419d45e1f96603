import * as z from 'zod';
import { memoize } from '../platform/memo';
import type { WrittenFollowUp, WrittenSequence } from './sequence';

/**
 * The answer the sales phase asks of the model for a sequence: apart from
 * sequence.ts, which the sequence routes load, so their bundles carry no
 * chainable zod (the model's structured output is read with it).
 */
const writtenFollowUpSchema: z.ZodType<WrittenFollowUp> = z.object({
  subject: z.string(),
  content: z.string(),
  next_steps: z.string(),
  template: z.string(),
});

/** The answer asked of a writer for a sequence of `length` items (built once per length). */
export const writtenSequenceSchema: (length: number) => z.ZodType<WrittenSequence> = memoize(
  (length: number) => z.object({ follow_ups: z.array(writtenFollowUpSchema).length(length) }),
  (length) => String(length),
);
