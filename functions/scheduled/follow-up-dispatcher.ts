import { documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOf } from '../../shared/composition/job-queue';
import { eventPublisherOf } from '../../shared/composition/events';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { dispatchDueFollowUps } from '../../shared/lead-follow-up/sequences/dispatch';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';

/**
 * Composes the follow-up dispatcher, which runs every 5 minutes (EventBridge
 * schedule; every FOLLOW_UP_DISPATCH_SECONDS under `npm start`): due steps
 * become `due` once and `follow_up.due` is published to the tenant's
 * completion webhooks.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('followUpDispatcher', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    steps: dynamoStepStore(db, tableName),
    events: eventPublisherOf('followUpDispatcher', {
      db,
      tableName,
      queue: jobQueueOf('followUpDispatcher', settings, tracing),
      clock,
    }),
    clock,
    logger: loggerOf('followUpDispatcher', settings),
  };
  return async (): Promise<void> => {
    await dispatchDueFollowUps(deps);
  };
}

export const handler = lambdaEntry(build);
