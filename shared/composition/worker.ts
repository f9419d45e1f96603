import { functionById, type FunctionId } from '../catalogue/functions';
import { QUEUES } from '../catalogue/job-types';
import type { WorkerDependencies } from '../commands/worker';
import { ConfigError } from '../platform/config';
import { platformDependencies, type PlatformDependencies } from './environment';

/**
 * Dependencies of a queue worker: the platform adapters plus its lease (the
 * function's timeout, so a crashed attempt's lease has run out by the time
 * SQS delivers the job again) and its queue's maxReceiveCount.
 * `WORKER_LEASE_SECONDS` overrides the lease (local runtime and tests).
 */
export function workerDependencies(
  functionId: FunctionId,
  env: Record<string, string | undefined> = process.env,
): PlatformDependencies & WorkerDependencies {
  const platform = platformDependencies(functionId, env);
  const queue = QUEUES.find((candidate) => candidate.workerFunction === functionId);
  if (!queue) throw new ConfigError(`No queue is consumed by ${functionId}`);
  const override = Number(env.WORKER_LEASE_SECONDS);
  const leaseSeconds = Number.isFinite(override) && override > 0 ? override : functionById(functionId).timeoutSeconds;
  return { ...platform, leaseMs: leaseSeconds * 1000, maxReceiveCount: queue.maxReceiveCount };
}
