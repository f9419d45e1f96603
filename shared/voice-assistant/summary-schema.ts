import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { valueSize } from '../platform/item-size';
import { cutText } from '../platform/text';

const priority = described(z.enum(['high', 'medium', 'low']), {
  description: 'As said on the call, or `medium` when nothing was said of it.',
});

/** One task agreed on the call (it becomes one of the tenant's tasks of the site). */
const actionItemSchema = z.object({
  title: described(z.string(), { description: 'A short name for the task, from the words of the call.' }),
  assignee: described(z.nullable(z.string()), { description: 'Who takes it on, as named on the call; null when nobody was named.' }),
  due_date: described(z.nullable(z.string()), {
    description: 'When it is due, as said (`2026-12-05`, `Friday`); null when no date was given.',
  }),
  priority,
  description: described(z.string(), { description: 'What is to be done, in one sentence.' }),
});

/** One resource or spend asked for on the call (it becomes one of the tenant's requirements of the site). */
const requirementSchema = z.object({
  title: described(z.string(), { description: 'A short name for what is needed.' }),
  description: described(z.string(), { description: 'What is needed and why, in one sentence.' }),
  estimated_cost: described(z.nullable(z.number()), {
    description: 'The amount said on the call (`$4,500` is 4500); null when no amount was said.',
  }),
  currency: described(z.nullable(z.string()), {
    description: 'ISO 4217 code of the amount (`USD`, `EUR`, `GBP`) when the call said it; null when unknown or no amount.',
  }),
  priority,
  owner: described(z.nullable(z.string()), { description: 'Who owns the request, as named on the call; null when nobody was named.' }),
  needs_approval: described(z.boolean(), {
    description: 'True when it needs approval before any spend (an amount, a budget or an approval was mentioned).',
  }),
});

/**
 * The meeting summary the model writes (structured output, strict): the
 * POST_CALL prompt's sections. Every field is required; what was not said
 * is null (or an empty list), never invented.
 */
export const meetingSummarySchema = z.object({
  key_points: described(z.array(z.string()), { description: 'The main points discussed, one line each.' }),
  decisions: described(z.array(z.string()), { description: 'What was decided, and by whom.' }),
  action_items: described(z.array(actionItemSchema), { description: 'Every task agreed on the call.' }),
  requirements: described(z.array(requirementSchema), { description: 'Every resource or spend requested on the call.' }),
  objective_outcome: described(z.string(), { description: 'One line on how far the call met its objective.' }),
});
export type WrittenMeetingSummary = z.infer<typeof meetingSummarySchema>;

/** A summary with nothing in it: every list empty (the reason goes beside it, never into the lists). */
export function emptyMeetingSummary(objectiveOutcome: string): WrittenMeetingSummary {
  return { key_points: [], decisions: [], action_items: [], requirements: [], objective_outcome: objectiveOutcome };
}

/** True when the summary holds no key point, decision, action item or requirement. */
export function isEmptyMeetingSummary(summary: WrittenMeetingSummary): boolean {
  return [summary.key_points, summary.decisions, summary.action_items, summary.requirements].every((list) => list.length === 0);
}

/**
 * How much of a meeting summary is kept on the stakeholder command: each
 * list at most `maxEntries`, each text at most `maxCharacters` (a title at
 * most `titleCharacters`), and the whole at most `maxBytes` (as DynamoDB
 * counts them; the last entries of the largest list go first). The model
 * writes at most 2,000 tokens and the offline writer picks lines of the
 * transcript, so a real summary is far below it; the bound holds for any
 * answer. `maxEntries` also bounds the tasks and requirements one call adds
 * to the site (20 + 20 items, one transaction with the summary's own write).
 * Bound: ≤ 16 KiB (of the command's 400 KB, beside its transcript's 64 KiB).
 */
export const MEETING_SUMMARY_BOUNDS = { maxEntries: 20, maxCharacters: 1_000, titleCharacters: 200, maxBytes: 16 * 1024 } as const;

/** The summary within {@link MEETING_SUMMARY_BOUNDS}. */
export function boundedMeetingSummary(summary: WrittenMeetingSummary): WrittenMeetingSummary {
  const { maxEntries, maxCharacters, titleCharacters, maxBytes } = MEETING_SUMMARY_BOUNDS;
  const cut = (value: string) => cutText(value, maxCharacters);
  const title = (value: string) => cutText(value, titleCharacters);
  const orNull = (value: string | null) => (value === null ? null : cut(value));
  let bounded: WrittenMeetingSummary = {
    key_points: summary.key_points.slice(0, maxEntries).map(cut),
    decisions: summary.decisions.slice(0, maxEntries).map(cut),
    action_items: summary.action_items.slice(0, maxEntries).map((item) => ({
      ...item,
      title: title(item.title),
      assignee: orNull(item.assignee),
      due_date: orNull(item.due_date),
      description: cut(item.description),
    })),
    requirements: summary.requirements.slice(0, maxEntries).map((item) => ({
      ...item,
      title: title(item.title),
      description: cut(item.description),
      estimated_cost:
        item.estimated_cost !== null && Number.isFinite(item.estimated_cost) && item.estimated_cost >= 0 ? item.estimated_cost : null,
      currency: currencyCode(item.currency),
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

/** A three-letter currency code, upper case, or null for anything else (a model may answer `$` or `dollars`). */
function currencyCode(value: string | null): string | null {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{3}$/.test(code) ? code : null;
}
