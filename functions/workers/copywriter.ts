import { workerComposition } from '../../shared/composition/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { createJobWorker } from '../../shared/commands/worker';
import { copywriterJob } from '../../shared/lead-follow-up/copywriter-phase';
import { lazyLlm } from '../../shared/providers/llm/from-settings';

/** Composes the SQS handler of the `copywriter` queue (lead follow-up phase 2) from its settings. */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('copywriterWorker', settings, host);
  return createJobWorker(copywriterJob({ ...deps, llm: lazyLlm(deps.secrets, settings, deps.llmPolicy) }), deps);
}

export const handler = lambdaEntry(build);
