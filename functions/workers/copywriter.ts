import { workerDependencies } from '../../shared/composition/worker';
import { createJobWorker } from '../../shared/commands/worker';
import { copywriterJob } from '../../shared/lead-follow-up/copywriter-phase';
import { lazyLlm } from '../../shared/providers/llm/from-settings';

const deps = workerDependencies('copywriterWorker');

/** Lead follow-up phase 2, unwrapped: the job definition the handler runs. */
export const definition = copywriterJob({ ...deps, llm: lazyLlm(deps.secrets) });

/** SQS handler of the `copywriter` queue. */
export const handler = createJobWorker(definition, deps);
