import type { CommandRecord } from './record';
import { isTerminal } from './record';
import type { CommandStore } from './store';

/** The longest pause between two reads once a wait has gone on a while (reads then cost less than the latency they save). */
export const LONGEST_POLL_PAUSE_MS = 1_000;

/**
 * Polls a command until it is terminal or the time is up, starting fast and
 * backing off (25 ms doubling to 250 ms, then an eighth of the time waited
 * so far, at most {@link LONGEST_POLL_PAUSE_MS}), so a `Prefer: wait` caller
 * hears of a quick completion within ~100 ms and of a slow one within about
 * an eighth of its duration. Each poll reads only the command's status (a
 * small strongly consistent read, whatever the command's size); the command
 * is read whole once, at the end. Returns the last state read.
 */
export async function waitForTerminal(
  commands: Pick<CommandStore, 'get' | 'statusOf'>,
  id: string,
  timeoutMs: number,
  initial?: CommandRecord,
): Promise<CommandRecord | undefined> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let status = initial ? initial.status : await commands.statusOf(id);
  let pause = 25;
  let polled = false;
  while (status && !isTerminal(status) && Date.now() < deadline) {
    polled = true;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(0, deadline - Date.now()))));
    const waited = Date.now() - started;
    pause = Math.min(Math.max(pause * 2 > 250 ? 250 : pause * 2, Math.floor(waited / 8)), LONGEST_POLL_PAUSE_MS);
    status = await commands.statusOf(id);
  }
  if (initial && !polled) return initial;
  return status === undefined ? undefined : commands.get(id);
}

/** Parses `Prefer: wait=N` (RFC 7240) into milliseconds, capped; undefined when absent or malformed. */
export function preferredWaitMs(preferHeader: string | undefined, maxSeconds: number): number | undefined {
  if (!preferHeader) return undefined;
  const match = /(?:^|[,;\s])wait\s*=\s*"?(\d+(?:\.\d+)?)"?/i.exec(preferHeader);
  if (!match) return undefined;
  const seconds = Math.min(Number(match[1]), maxSeconds);
  return seconds > 0 ? Math.round(seconds * 1000) : undefined;
}
