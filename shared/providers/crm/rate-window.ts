/** Waits a number of milliseconds (tests may pass one that records instead). */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A rolling-window limiter: at most `limit` starts in any `windowMs`, as
 * HubSpot counts them (a rolling window, not a fixed one). Callers take a
 * turn with `acquire()` before each request; turns are handed out in
 * order, so a burst queues instead of racing.
 */
export function rateWindow(limit: number, windowMs: number, now: () => number = Date.now, sleep: Sleep = realSleep) {
  const starts: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  const takeTurn = async (): Promise<void> => {
    for (;;) {
      const at = now();
      while (starts.length > 0 && starts[0]! <= at - windowMs) starts.shift();
      if (starts.length < limit) {
        starts.push(at);
        return;
      }
      await sleep(starts[0]! + windowMs - at);
    }
  };
  return {
    /** Resolves when a request may start (and counts it). */
    acquire(): Promise<void> {
      const turn = queue.then(takeTurn);
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

/** A limiter of {@link rateWindow}. */
export type RateWindow = ReturnType<typeof rateWindow>;
