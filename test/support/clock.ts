import type { Clock } from '../../shared/platform/clock';

/** A clock a test moves on: the time of the functions it is given to. */
export interface MovableClock extends Clock {
  /** Moves the clock on by `ms` at once. */
  advance(ms: number): void;
}

/**
 * Real time plus what the test has moved the clock on by: handed to the local runtime, it makes a due time (a follow-up step, a
 * webhook retry) come at once, while the embedded DynamoDB and SQS, timeouts and the processes around keep real time.
 */
export function movableClock(): MovableClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    advance(ms) {
      offsetMs += ms;
    },
  };
}
