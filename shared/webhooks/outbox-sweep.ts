import type { Logger } from '@aws-lambda-powertools/logger';
import type { Clock } from '../platform/clock';
import { describeError } from '../platform/logger';
import type { EventStore } from './event-store';
import type { WebhookEventPublisher } from './publisher';

/** When the sweep steps in. */
export interface OutboxSweepPolicy {
  /**
   * An event recorded this long ago and still not handed to delivery is handed on by the sweep (its writer died, or its queue was down).
   */
  handOnAfterMs: number;
  /** Events looked at per run. */
  batchSize: number;
}

/** A minute: far longer than a writer takes to hand its events on, far shorter than a receiver's patience. */
export const OUTBOX_SWEEP_POLICY: OutboxSweepPolicy = { handOnAfterMs: 60_000, batchSize: 500 };

export interface OutboxSweepDependencies {
  events: Pick<EventStore, 'listPending'>;
  publisher: Pick<WebhookEventPublisher, 'fanOut'>;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
}

export interface OutboxSweepReport {
  examined: number;
  handedOn: number;
  failed: number;
}

/**
 * Use case: no recorded event stays undelivered. Every event is written
 * with the change it announces (the outbox) and listed as pending until its
 * deliveries are queued; one still pending after `handOnAfterMs` lost its
 * hand-on (the process died right after the write, or the queue refused
 * it) and is handed on here. Handing on twice is harmless: deliveries are
 * created once and a delivery's job runs each attempt once. Run by the
 * janitor's schedule, and by the local runtime at start (the embedded
 * queue does not outlive a restart).
 */
export async function sweepPendingEvents(
  deps: OutboxSweepDependencies,
  policy: OutboxSweepPolicy = OUTBOX_SWEEP_POLICY,
): Promise<OutboxSweepReport> {
  const before = new Date(deps.clock.now() - policy.handOnAfterMs).toISOString();
  const keys = await deps.events.listPending(before, policy.batchSize);
  const report: OutboxSweepReport = { examined: keys.length, handedOn: 0, failed: 0 };
  for (const key of keys) {
    try {
      await deps.publisher.fanOut(key);
      report.handedOn += 1;
    } catch (error) {
      report.failed += 1;
      deps.logger.warn('A pending event could not be handed to delivery; the next sweep tries again', {
        eventKey: key,
        error: describeError(error),
      });
    }
  }
  if (report.handedOn > 0) deps.logger.warn('Events handed to delivery by the sweep (their writer did not)', { ...report });
  return report;
}
