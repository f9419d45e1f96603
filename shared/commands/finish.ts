import type { Clock } from '../platform/clock';
import type { TransactionItem } from '../platform/dynamodb';
import { NOTHING_STAGED, type StagedEvents } from './events';
import type { ErrorInfo } from '../platform/errors';
import { noMetrics, type OperationMetrics } from '../platform/metrics';
import type { StoredCommand } from './record';
import type { CommandPatch, CommandStore } from './store';

/**
 * How a command ends: completed with its result, or failed with its error.
 * A completion's `also` are table writes of what the result stores beside
 * the command (a sequence's follow-ups), committed in the same transaction
 * as the terminal write, under its condition: they are written if and only
 * if this ending is, with no check of their own.
 */
export type CommandEnding =
  | { status: 'completed'; result: Record<string, unknown>; patch?: CommandPatch; also?: readonly TransactionItem[] }
  | { status: 'failed'; error: ErrorInfo; patch?: CommandPatch };

/**
 * The command a finish names: what identifies it, its place among phases, its
 * site, expiry and in-progress place (what its terminal write counts and gives back).
 */
export type FinishingCommand = Pick<
  StoredCommand,
  'id' | 'type' | 'tenant_id' | 'parent_id' | 'site_id' | 'expires_at' | 'in_progress_place' | 'request'
>;

/**
 * Stages the events a command's ending announces (the completion webhooks'
 * `command.completed` / `command.failed`), so that they are written in the
 * same transaction as its terminal state: an ending is never stored without
 * its events, nor its events without it. `ended` reads the command as the
 * terminal write will leave it, only when an event is wanted.
 */
export type FinishAnnouncer = (
  command: FinishingCommand,
  ending: CommandEnding,
  ended: () => Promise<StoredCommand | undefined>,
) => Promise<StagedEvents>;

/**
 * Called for every command that ends, right after its terminal state is
 * stored (what is not an event, e.g. usage, hooks in here). The write and
 * the hook are not one transaction: a hook must be quick and durable in its
 * own right, and one that throws fails its caller after the transition. The
 * worker then retries the job, and a job that finds its command already
 * terminal runs the hooks again ({@link replayFinishHooks}): a hook may run
 * more than once for one ending, so it must be idempotent.
 */
export type FinishHook = (command: FinishingCommand, ending: CommandEnding) => Promise<void>;

/** What finishing a command writes through. */
export interface FinishDependencies {
  commands: CommandStore;
  clock: Clock;
  metrics?: OperationMetrics;
  /** Events written with each terminal transition (one transaction). @default none */
  announce?: FinishAnnouncer;
  /** Run after each terminal transition this process makes. @default none */
  onFinished?: readonly FinishHook[];
}

/**
 * Use case: the one way a command ends. Moves it from `in_progress` to
 * `completed` or `failed` (a conditional write: a terminal command never
 * changes, so only one caller ever wins) together with the events its
 * ending announces (one transaction), hands those on, counts it, and runs
 * the finish hooks. Returns false when the command was no longer in
 * progress (or is gone): then nothing was written, events included.
 */
export async function finishCommand(deps: FinishDependencies, command: FinishingCommand, ending: CommandEnding): Promise<boolean> {
  const now = deps.clock.now();
  const staged = deps.announce
    ? await deps.announce(command, ending, async () => endedCommand(await deps.commands.get(command.id), ending, now))
    : NOTHING_STAGED;
  const moved =
    ending.status === 'completed'
      ? await deps.commands.complete(command, ending.result, now, ending.patch, [...staged.items, ...(ending.also ?? [])])
      : await deps.commands.fail(command, ending.error, now, ending.patch, staged.items);
  if (!moved) return false;
  (deps.metrics ?? noMetrics).count(ending.status === 'completed' ? 'CommandCompleted' : 'CommandFailed', command.type);
  await staged.deliver();
  for (const hook of deps.onFinished ?? []) await hook(command, ending);
  return true;
}

/** The command as its terminal write leaves it (what the store's `complete` / `fail` set), from its state now. */
export function endedCommand(current: StoredCommand | undefined, ending: CommandEnding, now: number): StoredCommand | undefined {
  if (!current) return undefined;
  const { lease_until: _lease, ...rest } = current;
  const outcome = ending.status === 'completed' ? { result: ending.result } : { error: ending.error };
  const { progress: _progress, ...ended } = { ...rest, ...ending.patch };
  return { ...ended, status: ending.status, ...outcome, updated_at: new Date(now).toISOString() };
}

/** The ending a terminal command was stored with; undefined while it is in progress. */
export function endingOf(command: Pick<StoredCommand, 'status' | 'result' | 'error'>): CommandEnding | undefined {
  if (command.status === 'completed') return { status: 'completed', result: command.result ?? {} };
  if (command.status === 'failed')
    return { status: 'failed', error: command.error ?? { code: 'SYSTEM_ERROR', message: 'The command failed.' } };
  return undefined;
}

/**
 * Runs the finish hooks again for a command that is already terminal, with
 * the ending it was stored with: what a redelivered job does when it finds
 * its command finished, so a hook that failed, or a process that died
 * between the terminal write and its hooks, loses nothing. Hooks are
 * idempotent (see {@link FinishHook}). Returns false for a command in progress.
 */
export async function replayFinishHooks(
  deps: Pick<FinishDependencies, 'onFinished'>,
  command: Pick<StoredCommand, 'id' | 'type' | 'tenant_id' | 'parent_id' | 'request' | 'status' | 'result' | 'error'>,
): Promise<boolean> {
  const ending = endingOf(command);
  if (!ending) return false;
  for (const hook of deps.onFinished ?? []) await hook(command, ending);
  return true;
}
