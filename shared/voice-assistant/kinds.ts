import * as z from 'zod/mini';
import '../platform/zod-messages';
import type { CommandKind } from '../commands/kind';
import { isUuid } from '../platform/ids';
import { meetingSummarySchema } from './summary-schema';

/** The request of a `post_call_summary` command: the stakeholder command whose call it summarizes. */
export const postCallSummaryRequestSchema = z.strictObject({ parent_id: z.string().check(z.refine(isUuid, 'must be a UUID')) });
export type PostCallSummaryRequest = z.infer<typeof postCallSummaryRequestSchema>;

/**
 * What the post-call phase keeps in its command's `progress`: the summary
 * once written, so a redelivered job stores it without asking the model again.
 */
export const postCallSummaryProgressSchema = z.object({
  summary: z.optional(
    z.extend(meetingSummarySchema, {
      generated_by: z.enum(['openai', 'offline']),
      model: z.string(),
      /** Why the summary holds nothing (stored with it). */
      reason: z.optional(z.string()),
      /** Why the offline writer stood in for the model (logged, not stored). */
      fallback_reason: z.optional(z.string()),
    }),
  ),
});
export type PostCallSummaryProgress = z.infer<typeof postCallSummaryProgressSchema>;

/** A post-call summary command: started by the end of a stakeholder call, never by a producer. */
export const postCallSummaryKind: CommandKind<PostCallSummaryRequest, PostCallSummaryProgress> = {
  type: 'post_call_summary',
  request: postCallSummaryRequestSchema,
  progress: postCallSummaryProgressSchema,
};
