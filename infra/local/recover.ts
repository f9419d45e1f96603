import { startingJobOf } from '../../shared/catalogue/job-types';
import { sendFirstJob } from '../../shared/commands/start';
import type { JobQueue } from '../../shared/commands/queue';
import type { CommandStore } from '../../shared/commands/store';

/** More unfinished commands than one machine's runtime will ever hold. */
const MAX_RECOVERED = 100_000;

/**
 * With `DATA_DIR`, commands outlive a restart but the embedded SQS does not:
 * at start, when nothing is running yet, every command still in progress has
 * its lease cleared and its job queued again. Workers ignore jobs of commands
 * that are already finished, so a job queued twice does no harm.
 */
export async function requeueUnfinishedCommands(commands: CommandStore, queue: JobQueue): Promise<number> {
  let requeued = 0;
  for (const command of await commands.listInProgress(new Date().toISOString(), MAX_RECOVERED)) {
    if (!startingJobOf(command.type)) continue;
    await commands.release(command.id);
    await sendFirstJob({ queue }, command);
    requeued += 1;
  }
  return requeued;
}
