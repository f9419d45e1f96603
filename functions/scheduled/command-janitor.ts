import { sweepCommands } from '../../shared/commands/janitor';
import { dynamoCommandStore } from '../../shared/commands/store';
import { documentClientOf, jobQueueOf, loggerOf, metricsOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { commandFinishHooksOf } from '../../shared/composition/events';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { systemClock } from '../../shared/platform/clock';

/**
 * Composes the janitor, which runs every few minutes (EventBridge schedule; a timer locally): no accepted command waits forever.
 * A command it fails is told to the tenant's webhooks (command.failed).
 */
export function build(settings: Settings) {
  const tracing = tracingOf('commandJanitor', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const commands = dynamoCommandStore(db, tableName);
  const queue = jobQueueOf('commandJanitor', settings, tracing);
  const deps = {
    commands,
    queue,
    clock: systemClock,
    logger: loggerOf('commandJanitor', settings),
    metrics: metricsOf('commandJanitor', settings),
    onFinished: commandFinishHooksOf('commandJanitor', { db, tableName, queue, clock: systemClock, commands }),
  };
  return async (): Promise<void> => {
    const report = await sweepCommands(deps);
    if (report.requeued > 0 || report.failed > 0) deps.logger.info('Janitor run', { ...report });
  };
}

export const handler = lambdaEntry(build);
