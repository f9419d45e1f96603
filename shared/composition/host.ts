import { systemClock, type Clock } from '../platform/clock';

/**
 * What a host other than Lambda may hand a function's `build` beside its
 * settings. The local runtime passes its clock (tests give it one they can
 * move on, so a due time comes without waiting for it); Lambda passes
 * nothing, and the function reads the system clock.
 */
export interface HostPorts {
  /** @default systemClock */
  clock?: Clock;
}

/** The clock a function composes with: the host's, else the system clock. */
export function clockOf(host: HostPorts = {}): Clock {
  return host.clock ?? systemClock;
}
