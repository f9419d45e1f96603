import { workerComposition } from '../../shared/composition/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { crmSyncProducerOf, leadFollowUpFinishHook } from '../../shared/composition/crm-sync';
import { dynamoConnectedCheck } from '../../shared/crm/connected-check';
import { createJobWorker } from '../../shared/commands/worker';
import { dynamoFollowUpStore } from '../../shared/lead-follow-up/follow-up-store';
import { dynamoLeadHistory } from '../../shared/lead-follow-up/history';
import { dynamoLeadStates } from '../../shared/lead-follow-up/lead-state';
import { salesJob } from '../../shared/lead-follow-up/sales-phase';
import { readLeadFollowUpSettings } from '../../shared/lead-follow-up/settings';
import { lazyLlm } from '../../shared/providers/llm/from-settings';

/** Composes the SQS handler of the `sales` queue (lead follow-up phase 1) from its settings. */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('salesWorker', settings, host);
  // A lead follow-up this worker completes with channel messages is noted on the lead's CRM contact.
  const crm = crmSyncProducerOf('salesWorker', deps.queue, deps.logger, dynamoConnectedCheck(deps.db, deps.tableName, deps.clock));
  const finishing = { ...deps, onFinished: [leadFollowUpFinishHook(crm, deps.clock)] };
  const definition = salesJob({
    ...finishing,
    followUps: dynamoFollowUpStore(deps.db, deps.tableName),
    history: dynamoLeadHistory(deps.db, deps.tableName),
    leadStates: dynamoLeadStates(deps.db, deps.tableName),
    llm: lazyLlm(deps.secrets, settings, deps.llmPolicy),
    defaultOutput: readLeadFollowUpSettings(settings).defaultOutput,
  });
  return createJobWorker(definition, finishing);
}

export const handler = lambdaEntry(build);
