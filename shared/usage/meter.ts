import { AsyncLocalStorage } from 'node:async_hooks';
import { addUsage, isEmptyUsage, NO_USAGE, type UsageCounters } from './usage';

/** The command a job's usage is counted against: what its counters are keyed by. */
export interface UsageTarget {
  commandId: string;
  tenantId: string;
  /** The command's type (what `group_by=type` groups by). */
  type: string;
  siteId?: string;
  /** The command whose phase this one is: its usage includes this one's. */
  parentId?: string;
  /** Epoch seconds at which the command expires: its usage item goes with it. */
  expiresAt?: number;
}

/** The usage target of a stored command. */
export function usageTargetOf(command: {
  id: string;
  tenant_id: string;
  type: string;
  site_id?: string;
  parent_id?: string;
  expires_at?: number;
}): UsageTarget {
  return {
    commandId: command.id,
    tenantId: command.tenant_id,
    type: command.type,
    ...(command.site_id === undefined ? {} : { siteId: command.site_id }),
    ...(command.parent_id === undefined ? {} : { parentId: command.parent_id }),
    ...(command.expires_at === undefined ? {} : { expiresAt: command.expires_at }),
  };
}

/**
 * What one job run has used and not yet written down. Providers add to it
 * as they answer ({@link recordUsage}); the command store takes it with the
 * next write it makes to the target command (its progress, its child, its
 * terminal state), in the same transaction, so usage is written exactly
 * when the work it paid for is: a job redelivered after that write does not
 * redo the work, and one redelivered before it never wrote the usage.
 */
export class UsageMeter {
  private pending: UsageCounters = NO_USAGE;

  constructor(readonly target: UsageTarget) {}

  add(usage: UsageCounters): void {
    this.pending = addUsage(this.pending, usage);
  }

  /** Takes what is pending (nothing is pending after). */
  take(): UsageCounters {
    const taken = this.pending;
    this.pending = NO_USAGE;
    return taken;
  }

  /** Gives back what a write that did not land had taken. */
  giveBack(usage: UsageCounters): void {
    if (!isEmptyUsage(usage)) this.add(usage);
  }
}

const current = new AsyncLocalStorage<UsageMeter>();

/** Runs `work` with `meter` as the meter every {@link recordUsage} inside it (awaited calls included) adds to. */
export function withUsageMeter<T>(meter: UsageMeter, work: () => Promise<T>): Promise<T> {
  return current.run(meter, work);
}

/** Adds to the meter of the job this code runs for; nothing outside a job (an API call, a script). */
export function recordUsage(usage: UsageCounters): void {
  current.getStore()?.add(usage);
}

/** The meter of the job this code runs for, when it runs for one. */
export function currentUsageMeter(): UsageMeter | undefined {
  return current.getStore();
}
