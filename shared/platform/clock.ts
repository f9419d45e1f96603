/** The time source. Injected so tests can fix it, or move it on. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Waits `ms` of this clock's time (a retry's back-off): a test's clock may move itself on rather than let real time pass.
   * @default a timer of `ms` (sleepOn)
   */
  sleep?(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Waits `ms` on `clock`: its own `sleep`, else a real timer. */
export function sleepOn(clock: Clock, ms: number): Promise<void> {
  return clock.sleep ? clock.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
}

/** Epoch seconds, as DynamoDB's TTL attribute wants them. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
