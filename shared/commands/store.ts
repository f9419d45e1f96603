import type { TransactionItem } from '../platform/dynamodb';
import type { ErrorInfo } from '../platform/errors';
import type { UsageCounters } from '../usage/usage';
import type { CommandStatus, CommandType, NoLiveFields, StoredCommand } from './record';

/** What happened when a worker tried to take a command up. */
export type ClaimOutcome =
  | { kind: 'claimed'; command: StoredCommand }
  | { kind: 'terminal'; command: StoredCommand }
  /** Another worker holds a live lease on it. */
  | { kind: 'leased'; command: StoredCommand }
  /** It belongs to another tenant or is of another type than the job expected. */
  | { kind: 'mismatch'; command: StoredCommand }
  /** It was erased (DELETE /api/commands/{id}): the job has nothing left to do. */
  | { kind: 'erased' }
  | { kind: 'missing' };

/**
 * A write that belongs to a command (its steps, its child, its progress)
 * found the command gone or finished: it was erased meanwhile, or another
 * worker ended it. Nothing was written; the worker stops.
 */
export class CommandGoneError extends Error {
  constructor(readonly commandId: string) {
    super(`Command ${commandId} is no longer in progress; nothing more is written for it`);
    this.name = 'CommandGoneError';
  }
}

/**
 * A new command its tenant started found all of the tenant's in-progress
 * places taken (its `in_progress` limit): nothing was written.
 */
export class InProgressLimitError extends Error {
  constructor(
    readonly tenantId: string,
    readonly cap: number,
  ) {
    super(`Tenant ${tenantId} has ${cap} commands in progress, its limit`);
    this.name = 'InProgressLimitError';
  }
}

/** A command as its terminal write needs it: which it is, whose, and whether it holds an in-progress place. */
export type EndingCommand = Pick<StoredCommand, 'id' | 'type' | 'tenant_id' | 'site_id' | 'parent_id' | 'expires_at' | 'in_progress_place'>;

/** How a new command is written. */
export interface CreateOptions {
  /** Most commands its tenant may have in progress (its `in_progress` limit), for a command holding a place. @default no limit */
  inProgressCap?: number;
  /**
   * For a child phase: what its parent's record takes with the hand-off (its progress so far, the child's id), written
   * in the same transaction, which then needs the parent in progress rather than only present. One write where a
   * recorded progress and then the child would be two, each paying for the parent's whole item.
   */
  parentPatch?: CommandPatch;
}

/** What a job knows of the command it names; a claim succeeds only when both match. */
export interface ClaimExpectation {
  tenantId: string;
  type: CommandType;
}

/**
 * Port: where commands live. Every state change is a conditional write, so
 * two workers racing on one command can never both win, and a terminal
 * command never changes again.
 */
export interface CommandStore {
  /**
   * Writes a new command; returns false when one with that id already exists.
   * A child phase (`parent_id`) is written only while its parent exists (one
   * transaction), so no child outlives an erased parent: CommandGoneError then
   * (with `parentPatch`, also when the parent is no longer in progress).
   * With `inProgressCap`, the command takes one of its tenant's in-progress
   * places in the same transaction (and records which, `in_progress_place`):
   * InProgressLimitError when none is left.
   */
  create<Live extends object = NoLiveFields>(command: StoredCommand<Live>, options?: CreateOptions): Promise<boolean>;
  /** True when the command was erased (within the marker's retention, {@link ERASED_MARKER_RETENTION_MS}). */
  wasErased(id: string): Promise<boolean>;
  /** The command with its feature's live fields (`Live`, as its feature wrote them: the store passes them through). */
  get<Live extends object = NoLiveFields>(id: string): Promise<StoredCommand<Live> | undefined>;
  /** The command's status alone (a small read, whatever the command's size); undefined when there is no such command. */
  statusOf(id: string): Promise<CommandStatus | undefined>;
  /** What the command (with its phases) has used so far: the counters of shared/usage/usage.ts, none when nothing. */
  usageOf(id: string): Promise<UsageCounters>;
  /** Takes the command for one attempt, holding it until `leaseUntil` (epoch ms), if its tenant and type are the expected ones. */
  claim(id: string, expected: ClaimExpectation, now: number, leaseUntil: number): Promise<ClaimOutcome>;
  /** Gives the lease back early so a redelivery need not wait for it to run out. */
  release(id: string): Promise<void>;
  /** Records progress of an in-progress command; false when it is no longer in progress. */
  recordProgress<Live extends object = NoLiveFields>(id: string, patch: CommandPatch<Live>, now: number): Promise<boolean>;
  /**
   * Moves in_progress → completed; false when it was not in progress. `also`
   * are writes that commit with the move or not at all (its events: the outbox),
   * as do its tenant's count of ended commands and its in-progress place given back.
   * The command's `progress` goes with the move (a `progress` in `patch` too): no phase of it runs again.
   */
  complete(
    command: EndingCommand,
    result: Record<string, unknown>,
    now: number,
    patch?: CommandPatch,
    also?: readonly TransactionItem[],
  ): Promise<boolean>;
  /** Moves in_progress → failed; false when it was not in progress. `also` and `progress` as for `complete`. */
  fail(command: EndingCommand, error: ErrorInfo, now: number, patch?: CommandPatch, also?: readonly TransactionItem[]): Promise<boolean>;
  /** Commands still in progress that were created before `createdBefore` (ISO), oldest first, up to `limit`. */
  listInProgress(createdBefore: string, limit: number): Promise<StoredCommand[]>;
  /**
   * Deletes the command, in any state, if it belongs to `tenantId` (and, with
   * `unchangedSince`, if its `updated_at` is still that one); false otherwise.
   * Leaves a small marker (tenant and time only) so a job that comes for it
   * later knows it was erased. Later writes to it (a worker still running it)
   * fail their conditions and change nothing. Its usage goes with it (its
   * tenant's totals keep what it used). With `unchangedSince`, a command the
   * caller read in progress holding a place (`inProgressPlace`, its shard) gives it back.
   */
  erase(id: string, tenantId: string, unchangedSince?: string, inProgressPlace?: number): Promise<boolean>;
}

/** Fields a phase may set on an in-progress command: the kernel's, and its feature's live fields. */
export type CommandPatch<Live extends object = NoLiveFields> = Partial<
  Pick<StoredCommand, 'progress' | 'child_ids' | 'warnings' | 'enqueue_failed_at' | 'requeued_at' | 'result'>
> &
  Partial<Live>;

const KEY_PREFIX = 'CMD#';
const SORT_KEY = 'CMD';

/** Where a command lives in the table. */
export function commandKey(id: string): { pk: string; sk: string } {
  return { pk: `${KEY_PREFIX}${id}`, sk: SORT_KEY };
}
