import { sweepCommands } from '../../shared/commands/janitor';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { documentClientOf, loggerOf, metricsOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOf } from '../../shared/composition/job-queue';
import { commandAnnouncerOf, webhookPublisherOf } from '../../shared/composition/events';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { dynamoEventStore } from '../../shared/webhooks/event-store';
import { sweepPendingEvents } from '../../shared/webhooks/outbox-sweep';

/**
 * Composes the janitor, which runs every few minutes (EventBridge schedule; a timer locally): no accepted command waits forever,
 * and no recorded event stays undelivered (the outbox sweep). A command it fails is told to the tenant's webhooks (command.failed).
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('commandJanitor', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const commands = dynamoCommandStore(db, tableName);
  const queue = jobQueueOf('commandJanitor', settings, tracing);
  const logger = loggerOf('commandJanitor', settings);
  const announce = commandAnnouncerOf('commandJanitor', { db, tableName, queue, clock, logger });
  const deps = {
    commands,
    queue,
    clock,
    logger,
    metrics: metricsOf('commandJanitor', settings),
    ...(announce ? { announce } : {}),
  };
  const outbox = {
    events: dynamoEventStore(db, tableName),
    publisher: webhookPublisherOf({ db, tableName, queue, clock, logger }),
    clock,
    logger,
  };
  return async (): Promise<void> => {
    const report = await sweepCommands(deps);
    if (report.requeued > 0 || report.failed > 0) deps.logger.info('Janitor run', { ...report });
    await sweepPendingEvents(outbox);
  };
}

export const handler = lambdaEntry(build);
