import type { Logger } from '@aws-lambda-powertools/logger';
import type { EventPublisher } from '../../commands/events';
import type { Clock } from '../../platform/clock';
import { describeError } from '../../platform/logger';
import { followUpDueEvent } from './events';
import type { StoredStep } from './step';
import type { StepStore } from './step-store';

/** How a dispatcher run goes. */
export interface DispatchPolicy {
  /** Steps read from the index at a time. */
  batchSize: number;
  /** Most steps made due in one run (the rest wait for the next run). */
  maxSteps: number;
  /** Steps worked on at once. */
  concurrency: number;
  /** A run stops taking new batches this long after it started (well inside the function's timeout). */
  maxRunMs: number;
  /**
   * A step made due whose `follow_up.due` was not published (its run died,
   * or publishing failed) is published again once it has waited this long:
   * longer than any run, so a run in progress is never overtaken.
   */
  republishAfterMs: number;
}

/** The function runs for at most 60 s; a run stops taking work after 40 s and leaves a stalled announcement 2 minutes. */
export const DISPATCH_POLICY: DispatchPolicy = {
  batchSize: 100,
  maxSteps: 2_000,
  concurrency: 8,
  maxRunMs: 40_000,
  republishAfterMs: 120_000,
};

/** What the dispatcher works with. */
export interface DispatchDependencies {
  steps: StepStore;
  /** Where `follow_up.due` goes (`noEvents` without webhooks). */
  events: EventPublisher;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** What one run did. */
export interface DispatchReport {
  /** Steps moved from scheduled to due by this run. */
  due: number;
  /** `follow_up.due` events published (for steps made due now, or earlier by a run that did not publish). */
  published: number;
  /** Events that could not be published; they are published again by a later run. */
  unpublished: number;
  /** Steps a fault kept from being dispatched (storage, a malformed item); a later run tries again. */
  failed: number;
}

/** Thrown at the end of a run that left work undone (the function's error alarm hears of it); later runs take it up. */
export class DispatchIncompleteError extends Error {
  readonly report: DispatchReport;

  constructor(report: DispatchReport) {
    super(
      `Follow-up dispatch incomplete: ${report.unpublished} event(s) not published, ${report.failed} step(s) failed; later runs try again`,
    );
    this.name = 'DispatchIncompleteError';
    this.report = report;
  }
}

/**
 * Use case: the due-step dispatcher, run on a timer (every 5 minutes in AWS,
 * every FOLLOW_UP_DISPATCH_SECONDS under `npm start`). It finds scheduled
 * steps whose time has come through the due-time index and moves each to
 * `due` with a conditional write, so a step is made due once however many
 * dispatchers run; the run that moved it publishes `follow_up.due`
 * (idempotency key `<id>:due`) and then takes it out of the announcing
 * partition. A step whose announcement did not happen is published again
 * by a later run, so every due step is announced at least once.
 */
export async function dispatchDueFollowUps(deps: DispatchDependencies, policy: DispatchPolicy = DISPATCH_POLICY): Promise<DispatchReport> {
  const started = deps.clock.now();
  const report: DispatchReport = { due: 0, published: 0, unpublished: 0, failed: 0 };

  const at = () => new Date(deps.clock.now()).toISOString();

  const announce = async (step: StoredStep): Promise<void> => {
    try {
      await deps.events.publish(followUpDueEvent(step));
    } catch (error) {
      report.unpublished += 1;
      deps.logger.warn('follow_up.due could not be published; a later run tries again', {
        followUpId: step.id,
        error: describeError(error),
      });
      return;
    }
    report.published += 1;
    await deps.steps.markAnnounced(step.id, at());
  };

  // One step's fault (storage, a malformed item) never holds up the others; it is counted and the run fails at the end.
  const guarded = (work: (id: string) => Promise<void>) => async (id: string) => {
    try {
      await work(id);
    } catch (error) {
      report.failed += 1;
      deps.logger.error('A due follow-up could not be dispatched', { followUpId: id, error: describeError(error) });
    }
  };

  const stalled = await deps.steps.listAnnouncing(new Date(started - policy.republishAfterMs).toISOString(), policy.maxSteps);
  await inBatches(
    stalled,
    policy.concurrency,
    guarded(async (id) => {
      const step = await deps.steps.get(id);
      // A step sent, skipped or cancelled meanwhile is announced no more.
      if (step?.status === 'due') await announce(step);
      else await deps.steps.markAnnounced(id, at());
    }),
  );

  const seen = new Set<string>();
  while (report.due < policy.maxSteps && deps.clock.now() - started < policy.maxRunMs) {
    const now = at();
    const due = (await deps.steps.listDue(now, policy.batchSize)).filter((id) => !seen.has(id));
    if (due.length === 0) break;
    await inBatches(
      due,
      policy.concurrency,
      guarded(async (id) => {
        seen.add(id);
        const step = await deps.steps.markDue(id, now);
        if (!step) return; // another dispatcher moved it, or it changed since the index was read
        report.due += 1;
        await announce(step);
      }),
    );
  }
  if (report.due + report.published + report.unpublished + report.failed > 0) deps.logger.info('Follow-up dispatcher run', { ...report });
  if (report.unpublished + report.failed > 0) throw new DispatchIncompleteError(report);
  return report;
}

/** Runs `work` over `items`, at most `concurrency` at once. */
async function inBatches<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
