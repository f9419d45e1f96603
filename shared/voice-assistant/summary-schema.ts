import * as z from 'zod';
import { valueSize } from '../platform/item-size';
import { cutText } from '../platform/text';

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

/**
 * How much of a meeting summary is kept on the stakeholder command: each
 * list at most `maxEntries`, each text at most `maxCharacters`, and the
 * whole at most `maxBytes` (as DynamoDB counts them; the last entries of the
 * largest list go first). The model writes at most 2,000 tokens and the
 * offline writer picks lines of the transcript, so a real summary is far
 * below it; the bound holds for any answer.
 * Bound: ≤ 16 KiB (of the command's 400 KB, beside its transcript's 64 KiB).
 */
export const MEETING_SUMMARY_BOUNDS = { maxEntries: 20, maxCharacters: 1_000, maxBytes: 16 * 1024 } as const;

/** The summary within {@link MEETING_SUMMARY_BOUNDS}. */
export function boundedMeetingSummary(summary: WrittenMeetingSummary): WrittenMeetingSummary {
  const { maxEntries, maxCharacters, maxBytes } = MEETING_SUMMARY_BOUNDS;
  const cut = (value: string) => cutText(value, maxCharacters);
  const orNull = (value: string | null) => (value === null ? null : cut(value));
  let bounded: WrittenMeetingSummary = {
    key_points: summary.key_points.slice(0, maxEntries).map(cut),
    decisions: summary.decisions.slice(0, maxEntries).map(cut),
    action_items: summary.action_items
      .slice(0, maxEntries)
      .map((item) => ({ ...item, assignee: orNull(item.assignee), due_date: orNull(item.due_date), description: cut(item.description) })),
    requirements: summary.requirements.slice(0, maxEntries).map((item) => ({
      ...item,
      title: cut(item.title),
      description: cut(item.description),
      cost: orNull(item.cost),
      owner: orNull(item.owner),
    })),
    objective_outcome: cut(summary.objective_outcome),
  };
  const lists = ['key_points', 'decisions', 'action_items', 'requirements'] as const;
  while (valueSize(bounded) > maxBytes) {
    const largest = lists.reduce((a, b) => (valueSize(bounded[a]) >= valueSize(bounded[b]) ? a : b));
    if (bounded[largest].length === 0) break;
    bounded = { ...bounded, [largest]: bounded[largest].slice(0, -1) };
  }
  return bounded;
}
