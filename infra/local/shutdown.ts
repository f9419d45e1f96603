/** What ending `npm start` needs from the process. */
export interface ShutdownOptions {
  /** Stops the service, telling `onWait` what it waits for. */
  stop: (onWait: (message: string) => void) => Promise<void>;
  write: (text: string) => void;
  exit: (code: number) => void;
  /** A stop that takes longer than this exits 1 anyway. @default 10000 */
  deadlineMs?: number;
}

/** How long `npm start` may take to stop before it exits regardless. */
export const STOP_DEADLINE_MS = 10_000;

/** Asks the service to stop; `insist: false` (the parent went away) never cuts a stop short. */
export type ShutdownRequest = (reason: string, options?: { insist?: boolean }) => void;

/**
 * Returns what a signal (or the loss of the parent process) calls: the first
 * call stops the service gracefully and exits 0 (1 if the stop fails or
 * outlasts `deadlineMs`); a later insisting call (a second Ctrl-C) exits 1
 * at once, abandoning the stop.
 */
export function shutdownOnRequest(options: ShutdownOptions): ShutdownRequest {
  let requested = false;
  return (reason, { insist = true } = {}) => {
    if (requested) {
      if (!insist) return;
      options.write(`${reason} again: exiting now.\n`);
      options.exit(1);
      return;
    }
    requested = true;
    options.write(`\n${reason}: stopping (Ctrl-C again to exit at once)…\n`);
    const deadlineMs = options.deadlineMs ?? STOP_DEADLINE_MS;
    const deadline = setTimeout(() => {
      options.write(`still stopping after ${deadlineMs / 1000} s: exiting now.\n`);
      options.exit(1);
    }, deadlineMs);
    deadline.unref();
    options
      .stop((message) => options.write(`  ${message}\n`))
      .then(
        () => {
          clearTimeout(deadline);
          options.write('stopped.\n');
          options.exit(0);
        },
        (error: unknown) => {
          clearTimeout(deadline);
          options.write(`stop failed: ${error instanceof Error ? error.message : String(error)}\n`);
          options.exit(1);
        },
      );
  };
}

/**
 * Calls `onGone` once when the process that started this one goes away
 * (`npm start` killed by SIGTERM exits without passing the signal on, which
 * would leave this process serving). Does nothing for a process started by
 * init. The check never keeps the process alive.
 */
export function watchParent(onGone: () => void, options: { intervalMs?: number; ppid?: () => number } = {}): () => void {
  const ppid = options.ppid ?? (() => process.ppid);
  const parent = ppid();
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}
