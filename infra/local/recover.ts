import { startingJobOf } from '../../shared/catalogue/job-types';
import { jobFor } from '../../shared/commands/start';
import type { JobQueue } from '../../shared/commands/queue';
import type { CommandStore } from '../../shared/commands/store';
import { systemClock, type Clock } from '../../shared/platform/clock';

/** More unfinished commands than one machine's runtime will ever hold. */
const MAX_RECOVERED = 100_000;

/**
 * With `DATA_DIR`, commands outlive a restart but the embedded SQS does not:
 * at start, when nothing is running yet, every command still in progress has
 * its lease cleared and its job queued again, as the attempt after those it
 * was already taken up for (its `attempts`), so a restart never gives a
 * failing job its attempts back; once they are used up, the worker fails the
 * command instead of running it. A command whose later phase (a child
 * command) is still in progress is left to that child, which finishes it.
 * Workers ignore jobs of commands that are already finished, so a job
 * queued twice does no harm.
 */
export async function requeueUnfinishedCommands(
  commands: CommandStore,
  queue: Pick<JobQueue, 'sendAgain'>,
  clock: Clock = systemClock,
): Promise<number> {
  const unfinished = await commands.listInProgress(new Date(clock.now()).toISOString(), MAX_RECOVERED);
  const carriedByAChild = new Set(unfinished.flatMap((command) => (command.parent_id ? [command.parent_id] : [])));
  let requeued = 0;
  for (const command of unfinished) {
    const job = startingJobOf(command.type);
    if (!job) continue;
    await commands.release(command.id);
    if (carriedByAChild.has(command.id)) continue;
    await queue.sendAgain(job.queue.id, JSON.stringify(jobFor(command)), 0, (command.attempts || 0) + 1);
    requeued += 1;
  }
  return requeued;
}
