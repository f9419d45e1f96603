import * as z from 'zod/mini';
import '../platform/zod-messages';

/**
 * What the call worker keeps in its command's `progress`, as a zod schema:
 * stored state is read back through it, never cast. `meeting` is kept
 * before the call is placed, so a redelivered job never asks the model
 * again (nor changes the title the call already announced).
 */
export const stakeholderProgressSchema = z.object({
  meeting: z.optional(
    z.object({
      title: z.string(),
      objective: z.string(),
      dynamic: z.boolean(),
      generated_by: z.nullable(z.enum(['openai', 'offline'])),
      model: z.nullable(z.string()),
      fallback_reason: z.optional(z.string()),
    }),
  ),
});
export type StakeholderProgress = z.infer<typeof stakeholderProgressSchema>;
