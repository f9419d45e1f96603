/**
 * One work queue and its dead-letter queue, its id left open: a feature
 * declares its queues with this, and job-types.ts narrows the id to the
 * service's queues (`QueueDefinition`).
 */
export interface QueueSpec<Id extends string = string> {
  id: Id;
  /** Queue name on the local runtime; CDK derives the physical name itself. */
  localName: string;
  /** Environment variable holding the queue's URL, for functions that send to it. */
  urlEnvVar: string;
  /** Environment variable holding its dead-letter queue's URL. */
  dlqUrlEnvVar: string;
  /** Deliveries before SQS moves a message to the dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Seconds a job waits before its next delivery after an infrastructure
   * fault, by attempt (the last value repeats): the worker shortens the
   * message's visibility to this instead of waiting the full timeout.
   */
  retryDelaysSeconds: readonly number[];
  /** Records handed to one worker invocation. */
  batchSize: number;
  /** Seconds the event source may wait to fill a batch. */
  maxBatchingWindowSeconds: number;
  /** Most worker invocations at once (protects provider quotas). */
  maxConcurrency: number;
}

/** Back-off after an infrastructure fault: 10 s, 1 minute, then 5 minutes (a job ends within about 11 minutes). */
const JOB_RETRY_DELAYS_SECONDS = [10, 60, 300] as const;

/**
 * A work queue with the house defaults: five attempts with back-off,
 * batches of five, at most ten worker invocations at once (provider quotas).
 */
export function workQueue<Id extends string>(id: Id, envPrefix: string): QueueSpec<Id> {
  return {
    id,
    localName: `switchboard-${id}`,
    urlEnvVar: `${envPrefix}_QUEUE_URL`,
    dlqUrlEnvVar: `${envPrefix}_DLQ_URL`,
    maxReceiveCount: 5,
    retryDelaysSeconds: JOB_RETRY_DELAYS_SECONDS,
    batchSize: 5,
    maxBatchingWindowSeconds: 1,
    maxConcurrency: 10,
  };
}
