import { workerComposition } from '../../shared/composition/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { createJobWorker } from '../../shared/commands/worker';
import { dynamoFollowUpStore } from '../../shared/lead-follow-up/follow-up-store';
import { dynamoLeadHistory } from '../../shared/lead-follow-up/history';
import { salesJob } from '../../shared/lead-follow-up/sales-phase';
import { readLeadFollowUpSettings } from '../../shared/lead-follow-up/settings';
import { lazyLlm } from '../../shared/providers/llm/from-settings';

/** Composes the SQS handler of the `sales` queue (lead follow-up phase 1) from its settings. */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('salesWorker', settings, host);
  const definition = salesJob({
    ...deps,
    followUps: dynamoFollowUpStore(deps.db, deps.tableName),
    history: dynamoLeadHistory(deps.db, deps.tableName),
    llm: lazyLlm(deps.secrets, settings, deps.llmPolicy),
    defaultOutput: readLeadFollowUpSettings(settings).defaultOutput,
  });
  return createJobWorker(definition, deps);
}

export const handler = lambdaEntry(build);
