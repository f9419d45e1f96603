import type { Server } from 'node:http';
import type { LocalSchedule } from './scheduler';
import type { Poller } from './sqs-poller';

/** How a local runtime stops. */
export interface StopOptions {
  /** How long jobs in hand, open requests and a scheduled run may take to finish. @default 5000 */
  graceMs?: number;
  /** Told, in a sentence, what the stop is waiting for and what it gave up on. */
  onWait?: (message: string) => void;
}

/** The grace `npm start` and `LocalRuntime.stop()` give work in hand. */
export const DEFAULT_STOP_GRACE_MS = 5_000;

/**
 * Stops taking requests and jobs, then waits at most `graceMs` for what is
 * in hand: answers being written, batches being handled, a scheduled run.
 * After that, open connections are closed and jobs in hand are abandoned
 * (their messages stay on the queue; with DATA_DIR their commands are queued
 * again at the next start), so a slow provider call never holds a stop.
 */
export async function drain(
  parts: { gateway: Server; pollers: Poller[]; schedules: LocalSchedule[] },
  options: StopOptions = {},
): Promise<void> {
  const graceMs = options.graceMs ?? DEFAULT_STOP_GRACE_MS;
  const say = options.onWait ?? (() => undefined);
  const gatewayClosed = new Promise<void>((resolve) => parts.gateway.close(() => resolve()));
  parts.gateway.closeIdleConnections();
  const pollersStopped = Promise.all(parts.pollers.map((poller) => poller.stop({ graceMs })));

  const busy = parts.pollers.filter((poller) => poller.inHand() > 0);
  if (busy.length > 0) say(`waiting for ${countJobs(busy)} job(s) in hand (${busy.map((poller) => poller.name).join(', ')})…`);

  const [stopped, gatewayDone] = await Promise.all([
    pollersStopped,
    within(gatewayClosed, graceMs),
    within(Promise.all(parts.schedules.map((schedule) => schedule.stop())), graceMs),
  ]);
  if (!gatewayDone) parts.gateway.closeAllConnections();
  const left = parts.pollers
    .map((poller, index) => ({ name: poller.name, count: stopped[index]!.abandoned }))
    .filter((entry) => entry.count > 0);
  if (left.length > 0) {
    const count = left.reduce((sum, entry) => sum + entry.count, 0);
    say(
      `gave up after ${graceMs / 1000} s on ${count} job(s) (${left.map((entry) => entry.name).join(', ')}); with DATA_DIR they run again at the next start`,
    );
  }
}

function countJobs(pollers: Poller[]): number {
  return pollers.reduce((sum, poller) => sum + poller.inHand(), 0);
}

/** Resolves true when `work` settles within `ms`, false otherwise. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    work.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return outcome;
}
