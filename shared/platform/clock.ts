/** The time source. Injected so tests can fix it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Epoch seconds, as DynamoDB's TTL attribute wants them. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
