import { workerComposition } from '../../shared/composition/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { crmSyncProducerOf, leadFollowUpFinishHook } from '../../shared/composition/crm-sync';
import { dynamoConnectedCheck } from '../../shared/crm/connected-check';
import { createJobWorker } from '../../shared/commands/worker';
import { copywriterJob } from '../../shared/lead-follow-up/copywriter-phase';
import { lazyLlm } from '../../shared/providers/llm/from-settings';

/** Composes the SQS handler of the `copywriter` queue (lead follow-up phase 2) from its settings. */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('copywriterWorker', settings, host);
  // The lead follow-up this worker completes with its messages is noted on the lead's CRM contact.
  const crm = crmSyncProducerOf('copywriterWorker', deps.queue, deps.logger, dynamoConnectedCheck(deps.db, deps.tableName, deps.clock));
  const finishing = { ...deps, onFinished: [leadFollowUpFinishHook(crm, deps.clock)] };
  return createJobWorker(copywriterJob({ ...finishing, llm: lazyLlm(deps.secrets, settings, deps.llmPolicy) }), finishing);
}

export const handler = lambdaEntry(build);
