import * as z from 'zod';

/**
 * What the call worker keeps in its command's `progress`, as a zod schema:
 * stored state is read back through it, never cast. `meeting` is kept
 * before the call is placed, so a redelivered job never asks the model
 * again (nor changes the title the call already announced).
 */
export const stakeholderProgressSchema = z.object({
  meeting: z
    .object({
      title: z.string(),
      objective: z.string(),
      dynamic: z.boolean(),
      generated_by: z.enum(['openai', 'offline']).nullable(),
      model: z.string().nullable(),
      fallback_reason: z.string().optional(),
    })
    .optional(),
});
export type StakeholderProgress = z.infer<typeof stakeholderProgressSchema>;
