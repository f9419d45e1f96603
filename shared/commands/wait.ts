import type { CommandRecord } from './record';
import { isTerminal } from './record';
import type { CommandStore } from './store';

/**
 * Polls a command until it is terminal or the time is up, starting fast and
 * backing off, so a `Prefer: wait` caller hears of completion within ~100 ms.
 * Returns the last state read.
 */
export async function waitForTerminal(
  commands: CommandStore,
  id: string,
  timeoutMs: number,
  initial?: CommandRecord,
): Promise<CommandRecord | undefined> {
  const deadline = Date.now() + timeoutMs;
  let current = initial ?? (await commands.get(id));
  let pause = 25;
  while (current && !isTerminal(current.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    pause = Math.min(pause * 2, 250);
    current = await commands.get(id);
  }
  return current;
}

/** Parses `Prefer: wait=N` (RFC 7240) into milliseconds, capped; undefined when absent or malformed. */
export function preferredWaitMs(preferHeader: string | undefined, maxSeconds: number): number | undefined {
  if (!preferHeader) return undefined;
  const match = /(?:^|[,;\s])wait\s*=\s*"?(\d+(?:\.\d+)?)"?/i.exec(preferHeader);
  if (!match) return undefined;
  const seconds = Math.min(Number(match[1]), maxSeconds);
  return seconds > 0 ? Math.round(seconds * 1000) : undefined;
}
