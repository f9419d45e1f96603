import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { entriesWithin, valueSize } from '../platform/item-size';
import { cutText } from '../platform/text';
import type { SiteDirectory } from '../sites/directory';
import type { Site } from '../sites/schema';
import type { SiteWorkStore } from '../sites/site-work';

/** Most items of each collection a summary carries (each collection is one bounded query). */
export const CONTEXT_SUMMARY_LIMIT = 50;

/**
 * Most tasks, and most requirements, the tenant's earlier calls made that a
 * summary carries beside the site's own (newest call first; one bounded
 * query each). Twenty is one call's whole list (the meeting summary keeps at
 * most 20 of each), or the latest of several calls.
 */
export const CALL_WORK_LIMIT = 20;

/**
 * How much of the site's data a summary keeps. It is stored on the command
 * (its `context`) and its titles reach both system prompts (the command's
 * `targets`), so each text is cut, each free-form record (a campaign's
 * performance, the resource allocation) keeps its first entries within a
 * few KB, and when the whole still passes `maxBytes`, the last items of the
 * largest collection go first.
 * Bound: ≤ 16 KiB per summary (a site's own items may each hold 10,000
 * characters, and 50 of each kind are read; the demo site's takes 1.5 KB).
 */
export const CONTEXT_SUMMARY_BOUNDS = { titleCharacters: 300, textCharacters: 1_000, recordBytes: 2 * 1024, maxBytes: 16 * 1024 } as const;

const nullableText = z.nullable(z.string());
/** Set on the items a call made (absent on the site's own): where they came from. */
const fromCall = {
  source: described(z.optional(z.literal('call')), {
    description: "`call` on an item one of the tenant's calls made (absent on the site's own items).",
  }),
  source_command_id: described(z.optional(z.string()), {
    description: "The stakeholder coordination command whose call made it (absent on the site's own items).",
  }),
};

const taskSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: nullableText,
  owner: nullableText,
  due_date: nullableText,
  description: nullableText,
  ...fromCall,
});
const requirementSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: nullableText,
  estimated_cost: z.nullable(z.union([z.number(), z.string()])),
  priority: nullableText,
  description: nullableText,
  ...fromCall,
});
const campaignSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: nullableText,
  performance: z.record(z.string(), z.unknown()),
});
const contentSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: nullableText,
  description: nullableText,
  target_completion: nullableText,
});

/**
 * The site's context as a stakeholder meeting sees it, with the seed's
 * fields: its tasks, requirements, campaigns and content (an empty list
 * when it has none) and its resource allocation (`{}` when it has none);
 * after the site's own tasks and requirements, those the tenant's earlier
 * calls made (`source: "call"`). Read back from a stored command through
 * this schema.
 */
export const contextSummarySchema = z.object({
  tasks: described(z.array(taskSchema), {
    description: "The site's tasks (id order), then the open tasks the tenant's earlier calls made (newest call first).",
  }),
  requirements: described(z.array(requirementSchema), {
    description: "The site's requirements (id order), then those the tenant's earlier calls made (newest call first).",
  }),
  campaigns: z.array(campaignSchema),
  content: z.array(contentSchema),
  resource_allocation: z.record(z.string(), z.unknown()),
});
export type ContextSummary = z.infer<typeof contextSummarySchema>;
export type TaskSummary = ContextSummary['tasks'][number];

/** Whose call-made tasks and requirements a summary adds: the requesting tenant's, and theirs only. */
export interface CallWorkSource {
  store: Pick<SiteWorkStore, 'listTasks' | 'listRequirements'>;
  tenantId: string;
}

/**
 * Use case: the context summary of a site, from its own data: four bounded
 * queries (at most CONTEXT_SUMMARY_LIMIT items each, in id order), run at
 * once, and the site's resource allocation; with `callWork`, the tasks and
 * requirements that tenant's earlier calls made on the site (at most
 * CALL_WORK_LIMIT of each, newest call first), after the site's own and
 * marked `source: "call"`. Nothing is made up: a site without tasks has
 * `tasks: []`.
 */
export async function contextSummary(sites: SiteDirectory, site: Site, callWork?: CallWorkSource): Promise<ContextSummary> {
  const owner = callWork && { tenantId: callWork.tenantId, siteId: site.id };
  const [tasks, requirements, campaigns, content, callTasks, callRequirements] = await Promise.all([
    sites.listItems(site.id, 'tasks', CONTEXT_SUMMARY_LIMIT),
    sites.listItems(site.id, 'requirements', CONTEXT_SUMMARY_LIMIT),
    sites.listItems(site.id, 'campaigns', CONTEXT_SUMMARY_LIMIT),
    sites.listItems(site.id, 'content', CONTEXT_SUMMARY_LIMIT),
    owner ? callWork.store.listTasks(owner, CALL_WORK_LIMIT) : [],
    owner ? callWork.store.listRequirements(owner, CALL_WORK_LIMIT) : [],
  ]);
  const { titleCharacters, textCharacters, recordBytes } = CONTEXT_SUMMARY_BOUNDS;
  const title = (value: string) => cutText(value, titleCharacters);
  const short = (value: string | undefined) => (value === undefined ? null : cutText(value, titleCharacters));
  const text = (value: string | undefined) => (value === undefined ? null : cutText(value, textCharacters));
  return withinBudget({
    tasks: tasks
      .map((task) => ({
        id: task.id,
        title: title(task.title),
        status: short(task.status),
        owner: short(task.owner),
        due_date: short(task.due_date),
        description: text(task.description),
      }))
      .concat(
        callTasks.map((task) => ({
          id: task.id,
          title: title(task.title),
          status: task.status,
          owner: short(task.owner ?? undefined),
          due_date: short(task.due_date ?? undefined),
          description: text(task.description),
          source: 'call' as const,
          source_command_id: task.source_command_id,
        })),
      ),
    requirements: requirements
      .map((requirement) => ({
        id: requirement.id,
        title: title(requirement.title),
        status: short(requirement.status),
        estimated_cost:
          typeof requirement.estimated_cost === 'string' ? title(requirement.estimated_cost) : (requirement.estimated_cost ?? null),
        priority: short(requirement.priority),
        description: text(requirement.description),
      }))
      .concat(
        callRequirements.map((requirement) => ({
          id: requirement.id,
          title: title(requirement.title),
          status: requirement.status,
          estimated_cost:
            requirement.estimated_cost === null || requirement.currency === null
              ? requirement.estimated_cost
              : `${requirement.estimated_cost} ${requirement.currency}`,
          priority: requirement.priority,
          description: text(requirement.description),
          source: 'call' as const,
          source_command_id: requirement.source_command_id,
        })),
      ),
    campaigns: campaigns.map((campaign) => ({
      id: campaign.id,
      title: title(campaign.title),
      status: short(campaign.status),
      performance: entriesWithin(campaign.performance ?? {}, recordBytes),
    })),
    content: content.map((item) => ({
      id: item.id,
      title: title(item.title),
      status: short(item.status),
      description: text(item.description),
      target_completion: short(item.target_completion),
    })),
    resource_allocation: entriesWithin(site.resource_allocation ?? {}, recordBytes),
  });
}

/** The summary within CONTEXT_SUMMARY_BOUNDS.maxBytes: the last items of the largest collection go first. */
function withinBudget(summary: ContextSummary): ContextSummary {
  const lists = ['tasks', 'requirements', 'campaigns', 'content'] as const;
  const sizes = Object.fromEntries(lists.map((list) => [list, summary[list].map((item) => 1 + valueSize(item))])) as Record<
    (typeof lists)[number],
    number[]
  >;
  const kept = Object.fromEntries(lists.map((list) => [list, summary[list].length])) as Record<(typeof lists)[number], number>;
  const sum = (list: (typeof lists)[number]) => sizes[list].slice(0, kept[list]).reduce((total, size) => total + size, 0);
  let total = valueSize(summary);
  while (total > CONTEXT_SUMMARY_BOUNDS.maxBytes) {
    const largest = lists.reduce((a, b) => (sum(a) >= sum(b) ? a : b));
    if (kept[largest] === 0) break;
    kept[largest] -= 1;
    total -= sizes[largest][kept[largest]]!;
  }
  return {
    ...summary,
    tasks: summary.tasks.slice(0, kept.tasks),
    requirements: summary.requirements.slice(0, kept.requirements),
    campaigns: summary.campaigns.slice(0, kept.campaigns),
    content: summary.content.slice(0, kept.content),
  };
}

/** Task statuses that mean the task is no longer pending. */
const DONE_STATUSES: ReadonlySet<string> = new Set(['completed', 'complete', 'done', 'closed', 'cancelled', 'canceled', 'archived']);

/** The tasks still to do (any status but a finished one), in the summary's order. */
export function pendingTasks(summary: Pick<ContextSummary, 'tasks'>): TaskSummary[] {
  return summary.tasks.filter((task) => !DONE_STATUSES.has((task.status ?? '').trim().toLowerCase()));
}
