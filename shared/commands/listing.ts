import { TABLE } from '../catalogue/table';
import type { CommandStatus, CommandType, StoredCommand } from './record';

/** A command in a listing: what a caller needs to pick one out, read whole with GET /api/commands/{id}. */
export interface CommandSummary {
  id: string;
  type: CommandType;
  status: CommandStatus;
  site_id?: string;
  created_at: string;
  /** When it completed or failed (absent while in progress). */
  finished_at?: string;
  updated_at: string;
  error?: { code: string };
}

/** Which of a tenant's commands, and from where. Every filter narrows; absent ones do not. */
export interface CommandListQuery {
  tenantId: string;
  types?: readonly CommandType[];
  statuses?: readonly CommandStatus[];
  siteId?: string;
  /** ISO instant: created at or after it. */
  createdAfter?: string;
  /** ISO instant: created strictly before it. */
  createdBefore?: string;
  limit: number;
  /** Epoch ms: commands past their retention are left out. */
  now: number;
  /** The sort key of the previous page's last command (newest first: the page goes on below it). */
  after?: string;
}

/** A page of summaries, newest first; `next` is where the following page starts (absent on the last). */
export interface CommandPage {
  commands: CommandSummary[];
  next?: string;
}

/**
 * Port: the commands a tenant started, newest first, through an index (no
 * table scan). Child phases are not in it: a caller reads them through
 * their parent.
 */
export interface CommandListing {
  listForTenant(query: CommandListQuery): Promise<CommandPage>;
}

const LISTING_INDEX = TABLE.indexes[2];

/** The listing's partition of one tenant's commands. */
export function tenantListingPartition(tenantId: string): string {
  return `CMD#TENANT#${tenantId}`;
}

/** Sort key of a command in its tenant's listing: creation time, then id (unique, time-ordered). */
export function tenantListingSortKey(command: Pick<StoredCommand, 'id' | 'created_at'>): string {
  return `${command.created_at}#${command.id}`;
}

/** The listing index entry a new command gets: a command a caller started, never a child phase. */
export function tenantListingKeys(command: Pick<StoredCommand, 'id' | 'created_at' | 'tenant_id' | 'parent_id'>): Record<string, string> {
  if (command.parent_id) return {};
  return {
    [LISTING_INDEX.partitionKey]: tenantListingPartition(command.tenant_id),
    [LISTING_INDEX.sortKey]: tenantListingSortKey(command),
  };
}
