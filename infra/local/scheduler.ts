import type { Context, ScheduledEvent } from 'aws-lambda';
import { systemClock, type Clock } from '../../shared/platform/clock';
import { lambdaContext } from './lambda-context';

export type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface ScheduleOptions {
  functionName: string;
  timeoutSeconds: number;
  /** Interval of the timer; 0 starts none (the function runs only when `runNow` asks). */
  everyMs: number;
  handler: ScheduledHandler;
  /** Where a timer run's error goes (`runNow` hands its own back). */
  onError?: (error: unknown) => void;
  /** The time the event carries. @default systemClock */
  clock?: Clock;
}

/** A running schedule. */
export interface LocalSchedule {
  /**
   * Runs the function now, after a run in progress ends (runs never
   * overlap), and settles as that run does: tests make a scheduled run
   * happen when they need it instead of waiting for the timer.
   */
  runNow(): Promise<void>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Invokes a scheduled function every `everyMs`, as an EventBridge schedule
 * does in AWS, with the same event shape; a run never overlaps the previous one.
 */
export function startSchedule(options: ScheduleOptions): LocalSchedule {
  const clock = options.clock ?? systemClock;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = (): Promise<void> => {
    const event: ScheduledEvent = {
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: new Date(clock.now()).toISOString(),
      region: 'us-east-1',
      resources: [`arn:aws:events:us-east-1:000000000000:rule/${options.functionName}`],
      detail: {},
    };
    const done = options.handler(event, lambdaContext(options.functionName, options.timeoutSeconds)).then(() => undefined);
    const current: Promise<void> = done
      .catch(() => undefined)
      .finally(() => {
        if (running === current) running = undefined;
      });
    running = current;
    return done;
  };
  const tick = () => {
    if (running) return;
    run().catch((error: unknown) => options.onError?.(error));
  };
  const timer = options.everyMs > 0 ? setInterval(tick, options.everyMs) : undefined;
  timer?.unref();
  return {
    async runNow() {
      while (running) await running;
      if (stopped) throw new Error(`${options.functionName} is stopped`);
      return run();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
