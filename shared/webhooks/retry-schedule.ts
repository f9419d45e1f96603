/**
 * The retry schedule of a delivery: after a failed attempt, the wait before
 * the next one is the schedule's entry for that attempt (counted from the
 * start of the current round: the first delivery, or the last redelivery);
 * after the attempt that follows the last wait, the delivery fails. With the
 * default schedule (30 s, 2 min, 10 min, 1 h, 6 h, 24 h) a delivery makes
 * seven attempts over about 31 hours.
 *
 * @returns seconds to wait, or undefined when `attemptInRound` was the last attempt
 */
export function nextRetryDelaySeconds(delays: readonly number[], attemptInRound: number): number | undefined {
  if (attemptInRound < 1) return delays[0];
  return attemptInRound <= delays.length ? delays[attemptInRound - 1] : undefined;
}

/** Most SQS lets a message wait (DelaySeconds); a longer wait is made of hops of at most this long. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** The delay of the next hop towards a time `waitMs` away: at most {@link MAX_QUEUE_DELAY_SECONDS}, whole seconds, rounded up. */
export function hopDelaySeconds(waitMs: number): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(waitMs / 1000)));
}
