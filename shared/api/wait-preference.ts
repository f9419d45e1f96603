import { isTerminal, type StoredCommand } from '../commands/record';
import type { CommandStore } from '../commands/store';
import { preferredWaitMs, waitForTerminal } from '../commands/wait';

/** A command after honouring (or not) the caller's `Prefer: wait=N`. */
export interface WaitOutcome {
  /** The command as last read. */
  command: StoredCommand;
  /** `Preference-Applied: wait=N` when the wait ended in a terminal state; empty otherwise. */
  headers: Record<string, string>;
}

/**
 * Waits, when the caller sent `Prefer: wait=N` (capped at `maxWaitSeconds`),
 * for the command to end. `Preference-Applied` is promised only when the
 * answer is terminal: never when no wait was asked for, nor when the time ran
 * out with the command still in progress.
 */
export async function honourWaitPreference(
  commands: CommandStore,
  command: StoredCommand,
  preferHeader: string | undefined,
  maxWaitSeconds: number,
): Promise<WaitOutcome> {
  const waitMs = preferredWaitMs(preferHeader, maxWaitSeconds);
  if (!waitMs) return { command, headers: {} };
  const current = (await waitForTerminal(commands, command.id, waitMs, command)) ?? command;
  if (!isTerminal(current.status)) return { command: current, headers: {} };
  return { command: current, headers: { 'preference-applied': `wait=${Math.max(1, Math.round(waitMs / 1000))}` } };
}
