import { apiRoute } from '../../shared/api/route';
import { readCommandRetention } from '../../shared/commands/retention';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { crmSyncProducerOf, stepsWithCrmSync } from '../../shared/composition/crm-sync';
import { dynamoConnectedCheck } from '../../shared/crm/connected-check';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { answerEditFollowUp } from '../../shared/lead-follow-up/sequences/edit';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';

/**
 * PATCH /api/follow-ups/{id}: edit a step of the caller's sequence (copy, time) or end it (sent, skipped, cancelled); one conditional
 * write.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('updateFollowUpApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const logger = loggerOf('updateFollowUpApi', settings);
  const crm = crmSyncProducerOf(
    'updateFollowUpApi',
    jobQueueOnFirstSendOf('updateFollowUpApi', settings, tracing),
    logger,
    dynamoConnectedCheck(db, tableName, clock),
  );
  const deps = {
    logger,
    authenticate: authenticatorOf(db, tableName, settings, clock),
    // A step reported sent queues its write-back to the tenant's CRM (crm_sync), after the write and without waiting on the CRM.
    steps: stepsWithCrmSync(dynamoStepStore(db, tableName), crm),
    clock,
    ...readCommandRetention(settings),
  };
  return apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ event, principal, body }) =>
    answerEditFollowUp(deps, principal, event.pathParameters?.id, body),
  );
}

export const handler = lambdaEntry(build);
