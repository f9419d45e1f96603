import { callWorkId, type CallWork, type SiteWorkOwner } from '../sites/site-work';
import type { WrittenMeetingSummary } from './summary-schema';

/**
 * What a call's meeting summary adds to the site, for the tenant whose call
 * it was: each action item as a task (`open`, its assignee as owner), each
 * requirement as a requirement (`pending_approval` when it needs approval,
 * else `proposed`), each with the id its position gives it
 * (`callWorkId`) and linked to the stakeholder command. Nothing beyond the
 * summary's own words: an empty summary adds nothing.
 */
export function siteWorkOf(
  commandId: string,
  tenantId: string,
  siteId: string,
  summary: Pick<WrittenMeetingSummary, 'action_items' | 'requirements'>,
  now: number,
): [SiteWorkOwner, CallWork] {
  const created_at = new Date(now).toISOString();
  return [
    { tenantId, siteId },
    {
      tasks: summary.action_items.map((item, index) => ({
        id: callWorkId(commandId, 'task', index),
        title: item.title,
        status: 'open',
        owner: item.assignee,
        due_date: item.due_date,
        priority: item.priority,
        description: item.description,
        source_command_id: commandId,
        created_at,
      })),
      requirements: summary.requirements.map((item, index) => ({
        id: callWorkId(commandId, 'requirement', index),
        title: item.title,
        status: item.needs_approval ? 'pending_approval' : 'proposed',
        estimated_cost: item.estimated_cost,
        currency: item.currency,
        priority: item.priority,
        owner: item.owner,
        needs_approval: item.needs_approval,
        description: item.description,
        source_command_id: commandId,
        created_at,
      })),
    },
  ];
}
