import type { Clock } from '../platform/clock';
import type { HttpEvent } from '../platform/http/types';

/**
 * Measures each request of a route from the moment its handler is invoked,
 * so every answer of deep research, errors included (401, 413, a body that
 * is not JSON, a validation error), carries `processing_time_ms`.
 */
export interface ProcessingTimer {
  /** The handler, noting when each request arrives. */
  timed<Context, Result>(
    handler: (event: HttpEvent, context: Context) => Promise<Result>,
  ): (event: HttpEvent, context: Context) => Promise<Result>;
  /** Top-level fields of an error answer to `event`: `{processing_time_ms}`. */
  errorExtra(event: HttpEvent): { processing_time_ms: number };
}

export function processingTimer(clock: Clock): ProcessingTimer {
  const arrivals = new WeakMap<HttpEvent, number>();
  return {
    timed: (handler) => (event, context) => {
      arrivals.set(event, clock.now());
      return handler(event, context);
    },
    errorExtra: (event) => {
      const now = clock.now();
      return { processing_time_ms: Math.max(0, now - (arrivals.get(event) ?? now)) };
    },
  };
}
