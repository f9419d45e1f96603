import type { Logger } from '@aws-lambda-powertools/logger';
import { startingJobOf } from '../catalogue/job-types';
import type { Clock } from '../platform/clock';
import type { OperationMetrics } from '../platform/metrics';
import { finishCommand, type FinishAnnouncer, type FinishHook } from './finish';
import type { JobQueue } from './queue';
import type { StoredCommand } from './record';
import { sendFirstJob } from './start';
import type { CommandStore } from './store';

/** When the janitor steps in. */
export interface JanitorPolicy {
  /** A command no worker has taken up this long after it was accepted has its job queued again… */
  requeueUnclaimedAfterMs: number;
  /** …at most once per this long (a long queue backlog should not be made longer). */
  requeueIntervalMs: number;
  /**
   * A command still in progress this long after its last change (or its acceptance, if never taken up) is failed with SYSTEM_ERROR
   * (retryable).
   */
  failStaleAfterMs: number;
  /** Commands looked at per run. */
  batchSize: number;
}

/**
 * Longer than any healthy command waits: a worker times out within two
 * minutes and each delivery (at most twelve minutes apart) touches the
 * command, so an hour without a change means nothing is coming.
 */
const JANITOR_POLICY: JanitorPolicy = {
  requeueUnclaimedAfterMs: 10 * 60_000,
  requeueIntervalMs: 30 * 60_000,
  failStaleAfterMs: 60 * 60_000,
  batchSize: 500,
};

export interface JanitorDependencies {
  commands: CommandStore;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn'>;
  metrics?: OperationMetrics;
  announce?: FinishAnnouncer;
  onFinished?: readonly FinishHook[];
}

export interface JanitorReport {
  examined: number;
  requeued: number;
  failed: number;
}

/**
 * Use case: makes sure no accepted command waits forever. A command whose
 * first job never reached a queue (its request died between the write and
 * the send) gets the job again; a command stuck past its deadline (its job
 * exhausted its deliveries while storage was down) is failed, so its caller
 * learns it and can retry. Queuing a job twice is harmless: workers ignore a
 * job whose command is taken or finished.
 */
export async function sweepCommands(deps: JanitorDependencies, policy: JanitorPolicy = JANITOR_POLICY): Promise<JanitorReport> {
  const now = deps.clock.now();
  const candidates = await deps.commands.listInProgress(new Date(now - policy.requeueUnclaimedAfterMs).toISOString(), policy.batchSize);
  const report: JanitorReport = { examined: candidates.length, requeued: 0, failed: 0 };
  for (const command of candidates) {
    // An unclaimed command counts from its acceptance (re-queuing touches updated_at), a claimed one from its last change.
    const idleMs = now - Date.parse(command.attempts === 0 ? command.created_at : command.updated_at);
    if (idleMs > policy.failStaleAfterMs) {
      // Read whole: the index holds only what the sweep reads, and the terminal write gives back what the command holds.
      const whole = await deps.commands.get(command.id);
      if (!whole || whole.status !== 'in_progress') continue;
      const failed = await finishCommand(deps, whole, {
        status: 'failed',
        error: {
          code: 'SYSTEM_ERROR',
          message: 'The command did not finish in time; nothing more will be done. The request can be retried.',
        },
      });
      if (failed) {
        report.failed += 1;
        deps.logger.warn('Stuck command failed by the janitor', { commandId: command.id, type: command.type, idleMs });
      }
      continue;
    }
    if (command.attempts > 0 || !startingJobOf(command.type) || !requeueDue(command, now, policy)) continue;
    await sendFirstJob(deps, command);
    await deps.commands.recordProgress(command.id, { requeued_at: new Date(now).toISOString() }, now);
    report.requeued += 1;
    deps.logger.warn('Unclaimed command queued again by the janitor', { commandId: command.id, type: command.type });
  }
  return report;
}

function requeueDue(command: StoredCommand, now: number, policy: JanitorPolicy): boolean {
  return !command.requeued_at || now - Date.parse(command.requeued_at) > policy.requeueIntervalMs;
}
