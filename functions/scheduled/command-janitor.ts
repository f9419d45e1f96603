import { sweepCommands } from '../../shared/commands/janitor';
import { platformDependencies } from '../../shared/composition/environment';

const deps = platformDependencies('commandJanitor');

/** Runs every few minutes (EventBridge schedule; a timer locally): no accepted command waits forever. */
export const handler = async (): Promise<void> => {
  const report = await sweepCommands(deps);
  if (report.requeued > 0 || report.failed > 0) deps.logger.info('Janitor run', { ...report });
};
