import type { JobQueueId } from '../catalogue/job-types';
import type { JobEnvelope } from './job';

/** Message attribute carrying which attempt a job queued again is (absent on a first attempt). */
export const ATTEMPT_ATTRIBUTE = 'attempt';

/** Message attribute naming why a job was put on a dead-letter queue. */
export const DEAD_LETTER_REASON_ATTRIBUTE = 'dead_letter_reason';

/** Port: where jobs are queued for workers. */
export interface JobQueue {
  /** Queues a job, delivered at once or after `delaySeconds` (at most 900). */
  send(queue: JobQueueId, job: JobEnvelope, delaySeconds?: number): Promise<void>;
  /** Parks a job that can never succeed on the queue's dead-letter queue, with its reason. */
  sendToDeadLetter(queue: JobQueueId, body: string, reason: string): Promise<void>;
  /**
   * Queues a job's body again as a new message, delivered after
   * `delaySeconds` (at most 900), carrying the attempt it will be.
   */
  sendAgain(queue: JobQueueId, body: string, delaySeconds: number, attempt: number): Promise<void>;
}

/** Queue URLs by job queue id, read from the function's environment at cold start. */
export interface QueueUrls {
  queues: Partial<Record<JobQueueId, string>>;
  deadLetterQueues: Partial<Record<JobQueueId, string>>;
}
