import type { Context, ScheduledEvent } from 'aws-lambda';
import { lambdaContext } from './lambda-context';

export type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface ScheduleOptions {
  functionName: string;
  timeoutSeconds: number;
  everyMs: number;
  handler: ScheduledHandler;
  onError?: (error: unknown) => void;
}

/** A running schedule. */
export interface LocalSchedule {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Invokes a scheduled function every `everyMs`, as an EventBridge schedule
 * does in AWS, with the same event shape; a run never overlaps the previous one.
 */
export function startSchedule(options: ScheduleOptions): LocalSchedule {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    const event: ScheduledEvent = {
      version: '0',
      id: crypto.randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [`arn:aws:events:us-east-1:000000000000:rule/${options.functionName}`],
      detail: {},
    };
    running = options
      .handler(event, lambdaContext(options.functionName, options.timeoutSeconds))
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
