import type { Clock } from '../../shared/platform/clock';

/** A clock a test moves on: the time of the functions it is given to. */
export interface MovableClock extends Clock {
  /** Moves the clock on by `ms` at once. */
  advance(ms: number): void;
  /** A function's wait on this clock (a retry's back-off) moves it on by `ms` and resolves at once. */
  sleep(ms: number): Promise<void>;
}

/**
 * Real time plus what the test has moved the clock on by: handed to the local runtime, it makes a due time (a follow-up step, a
 * webhook retry) come at once, and a wait on it (a search retry's back-off) end at once, while the embedded DynamoDB and SQS,
 * timeouts and the processes around keep real time.
 */
export function movableClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    advance(ms) {
      offsetMs += ms;
    },
    sleep(ms) {
      offsetMs += ms;
      return Promise.resolve();
    },
  };
}
