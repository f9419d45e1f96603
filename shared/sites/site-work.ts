import type { TransactionItem } from '../platform/dynamodb';

/**
 * Whose call-made work: one tenant's, on one site. The site's imported tasks
 * and requirements are shared by every tenant covering it; what a tenant's
 * calls made is that tenant's alone, and reaches only its own commands.
 */
export interface SiteWorkOwner {
  tenantId: string;
  siteId: string;
}

type Priority = 'high' | 'medium' | 'low';

/** A task made from a call's meeting summary (one of its action items), with the site's task fields. */
export interface CallTask {
  /** `<command id>-task-<nn>`: the same for the same action item of the same call, so it is written once. */
  id: string;
  title: string;
  status: 'open';
  /** The assignee the call named, or null. */
  owner: string | null;
  due_date: string | null;
  priority: Priority;
  description: string;
  /** The stakeholder coordination command whose call made it. */
  source_command_id: string;
  created_at: string;
}

/** A requirement made from a call's meeting summary, with the site's requirement fields. */
export interface CallRequirement {
  /** `<command id>-requirement-<nn>`: the same for the same requirement of the same call, so it is written once. */
  id: string;
  title: string;
  /** `pending_approval` when the call said it needs approval, else `proposed`. */
  status: 'proposed' | 'pending_approval';
  estimated_cost: number | null;
  currency: string | null;
  priority: Priority;
  owner: string | null;
  needs_approval: boolean;
  description: string;
  source_command_id: string;
  created_at: string;
}

/** What one call made. */
export interface CallWork {
  tasks: readonly CallTask[];
  requirements: readonly CallRequirement[];
}

/**
 * Port: the tasks and requirements a tenant's calls made on a site, apart
 * from the site's imported ones. Items are only added with the write that
 * completes a call's summary (`recordItems` joins that transaction, so they
 * exist once if and only if the summary was stored once), listed for the
 * tenant's next meetings, and erased with their command.
 */
export interface SiteWorkStore {
  /** The table writes that add the call's items, each only if absent: to join the caller's own conditional write. */
  recordItems(owner: SiteWorkOwner, work: CallWork): TransactionItem[];
  /** The owner's call-made tasks, newest call first (a call's in the order it listed them), at most `limit`. */
  listTasks(owner: SiteWorkOwner, limit: number): Promise<CallTask[]>;
  /** The owner's call-made requirements, newest call first, at most `limit`. */
  listRequirements(owner: SiteWorkOwner, limit: number): Promise<CallRequirement[]>;
  /** Erases what the command's call made for the owner; answers the ids erased. */
  eraseForCommand(owner: SiteWorkOwner, commandId: string): Promise<{ task_ids: string[]; requirement_ids: string[] }>;
}

/** The id of the `index`-th (from 0) task or requirement a command's call made: deterministic, so a repeat adds nothing. */
export function callWorkId(commandId: string, kind: 'task' | 'requirement', index: number): string {
  return `${commandId}-${kind}-${String(index + 1).padStart(2, '0')}`;
}
