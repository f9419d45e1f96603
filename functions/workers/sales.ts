import { workerDependencies } from '../../shared/composition/worker';
import { createJobWorker } from '../../shared/commands/worker';
import { dynamoFollowUpStore } from '../../shared/lead-follow-up/follow-up-store';
import { lazyLlm } from '../../shared/providers/llm/from-settings';
import { salesJob } from '../../shared/lead-follow-up/sales-phase';
import { readLeadFollowUpSettings } from '../../shared/lead-follow-up/settings';

const deps = workerDependencies('salesWorker');

/** Lead follow-up phase 1, unwrapped: the job definition the handler runs. */
export const definition = salesJob({
  ...deps,
  followUps: dynamoFollowUpStore(deps.db, deps.tableName),
  llm: lazyLlm(deps.secrets),
  defaultOutput: readLeadFollowUpSettings().defaultOutput,
});

/** SQS handler of the `sales` queue. */
export const handler = createJobWorker(definition, deps);
