import * as z from 'zod';

const priority = z.enum(['high', 'medium', 'low']);

/**
 * The meeting summary the model writes (structured output, strict): the
 * POST_CALL prompt's sections. Every field is required; what was not said
 * is null (or an empty list), never invented.
 */
export const meetingSummarySchema = z.object({
  key_points: z.array(z.string()),
  decisions: z.array(z.string()),
  action_items: z.array(z.object({ assignee: z.string().nullable(), due_date: z.string().nullable(), priority, description: z.string() })),
  requirements: z.array(
    z.object({
      title: z.string(),
      description: z.string(),
      cost: z.string().nullable(),
      priority,
      owner: z.string().nullable(),
      approval_needed: z.boolean(),
    }),
  ),
  objective_outcome: z.string(),
});
export type WrittenMeetingSummary = z.infer<typeof meetingSummarySchema>;
