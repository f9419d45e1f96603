import type { CommandType } from '../catalogue/job-types';
import type { ErrorInfo } from '../platform/errors';

export type { CommandType };

/**
 * A command is in progress until it completes or fails, and then never
 * changes, save for the live fields its feature declares (a call that keeps
 * moving after the command ended: see CommandKind.live).
 */
export type CommandStatus = 'in_progress' | 'completed' | 'failed';

/** The states a command never leaves. */
const TERMINAL_STATUSES: readonly CommandStatus[] = ['completed', 'failed'];

/**
 * The command record of docs/architecture.md "The command": the fields the
 * kernel reads and writes for every command type. `result` and `error`
 * appear once the command is terminal. A feature keeps its own fields beside
 * these (its live fields, `Live` of {@link StoredCommand}); the kernel stores
 * and returns them untouched and never names them.
 */
export interface CommandRecord<Request = unknown, Progress = unknown> {
  id: string;
  type: CommandType;
  status: CommandStatus;
  tenant_id: string;
  /** The site it acts on; absent for operations that concern no site (deep research). */
  site_id?: string;
  /** The validated request (parsed with its command type's schema when read back: see kind.ts). */
  request: Request;
  /** The operation's response payload, once completed. */
  result?: Record<string, unknown>;
  /** Why it failed, once failed. */
  error?: ErrorInfo;
  parent_id?: string;
  child_ids?: string[];
  /**
   * Intermediate output of earlier phases, kept so a retried phase never re-runs an earlier one; removed by the
   * terminal write (no phase runs again), so a finished command holds its result once, not its drafts as well.
   */
  progress?: Progress;
  /** Notes on things that went wrong without failing the command (e.g. an optional phase). */
  warnings?: ErrorInfo[];
  idempotency_key?: string;
  created_at: string;
  updated_at: string;
  /** When it completed or failed (set once, with the terminal status). */
  finished_at?: string;
  /** Times a worker has taken the command up. */
  attempts: number;
  /** Epoch ms until which the current worker holds the command. */
  lease_until?: number;
  /** Set when handing its first job to the queue failed; an idempotent retry then queues it again. */
  enqueue_failed_at?: string;
  /** When the janitor last queued its job again. */
  requeued_at?: string;
  /**
   * Set on a command its tenant started (not a phase) while the tenant has an `in_progress` limit: the shard of the
   * in-progress place it holds until its terminal write (or its erasure) gives it back (shared/usage/dynamo-ledger.ts).
   */
  in_progress_place?: number;
  /**
   * Epoch seconds after which the table deletes the command (its TTL
   * attribute, `TABLE.ttlAttribute`): its creation plus the retention
   * (COMMAND_RETENTION_DAYS). Until then an expired command reads as missing.
   */
  expires_at?: number;
}

/** No fields beside the kernel's. */
export type NoLiveFields = Record<never, never>;

/**
 * A command as the store holds it, before its command type's schemas have
 * read `request` and `progress`, with the fields its feature keeps beside
 * the kernel's (`Live`: named by the feature, e.g. a call's; the store
 * passes them through and the feature reads them).
 */
export type StoredCommand<Live extends object = NoLiveFields> = CommandRecord<unknown, unknown> & Partial<Live>;

/** A command read as its kind (request and progress parsed), with its feature's live fields. */
export type CommandWith<Request, Progress, Live extends object = NoLiveFields> = CommandRecord<Request, Progress> & Partial<Live>;

/** True once the command's retention has run out (the table may not have deleted it yet: TTL deletion is lazy). */
export function isExpired(command: Pick<StoredCommand, 'expires_at'>, now: number): boolean {
  return command.expires_at !== undefined && command.expires_at * 1000 <= now;
}

/** True once the command has completed or failed. */
export function isTerminal(status: CommandStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}
