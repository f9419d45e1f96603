import * as z from 'zod';
import type { SiteDirectory } from '../sites/directory';
import type { Site } from '../sites/schema';

/** Most items of each collection a summary carries (each collection is one bounded query). */
export const CONTEXT_SUMMARY_LIMIT = 50;

const nullableText = z.string().nullable();

const taskSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: nullableText,
  owner: nullableText,
  due_date: nullableText,
  description: nullableText,
});
const requirementSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: nullableText,
  estimated_cost: z.union([z.number(), z.string()]).nullable(),
  priority: nullableText,
  description: nullableText,
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
 * when it has none) and its resource allocation (`{}` when it has none).
 * Read back from a stored command through this schema.
 */
export const contextSummarySchema = z.object({
  tasks: z.array(taskSchema),
  requirements: z.array(requirementSchema),
  campaigns: z.array(campaignSchema),
  content: z.array(contentSchema),
  resource_allocation: z.record(z.string(), z.unknown()),
});
export type ContextSummary = z.infer<typeof contextSummarySchema>;
export type TaskSummary = ContextSummary['tasks'][number];

/**
 * Use case: the context summary of a site, from its own data: four bounded
 * queries (at most CONTEXT_SUMMARY_LIMIT items each, in id order), run at
 * once, and the site's resource allocation. Nothing is made up: a site
 * without tasks has `tasks: []`.
 */
export async function contextSummary(sites: SiteDirectory, site: Site): Promise<ContextSummary> {
  const [tasks, requirements, campaigns, content] = await Promise.all([
    sites.listItems(site.id, 'tasks', CONTEXT_SUMMARY_LIMIT),
    sites.listItems(site.id, 'requirements', CONTEXT_SUMMARY_LIMIT),
    sites.listItems(site.id, 'campaigns', CONTEXT_SUMMARY_LIMIT),
    sites.listItems(site.id, 'content', CONTEXT_SUMMARY_LIMIT),
  ]);
  return {
    tasks: tasks.map((task) => ({
      id: task.id,
      title: task.title,
      status: task.status ?? null,
      owner: task.owner ?? null,
      due_date: task.due_date ?? null,
      description: task.description ?? null,
    })),
    requirements: requirements.map((requirement) => ({
      id: requirement.id,
      title: requirement.title,
      status: requirement.status ?? null,
      estimated_cost: requirement.estimated_cost ?? null,
      priority: requirement.priority ?? null,
      description: requirement.description ?? null,
    })),
    campaigns: campaigns.map((campaign) => ({
      id: campaign.id,
      title: campaign.title,
      status: campaign.status ?? null,
      performance: campaign.performance ?? {},
    })),
    content: content.map((item) => ({
      id: item.id,
      title: item.title,
      status: item.status ?? null,
      description: item.description ?? null,
      target_completion: item.target_completion ?? null,
    })),
    resource_allocation: site.resource_allocation ?? {},
  };
}

/** Task statuses that mean the task is no longer pending. */
const DONE_STATUSES: ReadonlySet<string> = new Set(['completed', 'complete', 'done', 'closed', 'cancelled', 'canceled', 'archived']);

/** The tasks still to do (any status but a finished one), in the summary's order. */
export function pendingTasks(summary: Pick<ContextSummary, 'tasks'>): TaskSummary[] {
  return summary.tasks.filter((task) => !DONE_STATUSES.has((task.status ?? '').trim().toLowerCase()));
}
