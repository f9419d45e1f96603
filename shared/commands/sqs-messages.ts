import type { JobQueueId } from '../catalogue/job-types';
import type { SendSqsMessage } from '../platform/sqs';
import { ATTEMPT_ATTRIBUTE, DEAD_LETTER_REASON_ATTRIBUTE, type JobQueue, type QueueUrls } from './queue';

/**
 * JobQueue on SQS through a `SendMessage` function: one queue and one
 * dead-letter queue per job queue id. Nothing here loads the SQS client, so a
 * function may load it on its first send (shared/composition/job-queue-on-first-send.ts).
 */
export function jobQueueSendingWith(send: SendSqsMessage, urls: QueueUrls): JobQueue {
  const urlOf = (table: Partial<Record<JobQueueId, string>>, id: JobQueueId, what: string): string => {
    const url = table[id];
    if (!url) throw new Error(`This function has no ${what} URL for queue "${id}"`);
    return url;
  };
  return {
    async send(queue, job, delaySeconds) {
      await send({
        QueueUrl: urlOf(urls.queues, queue, 'queue'),
        MessageBody: JSON.stringify(job),
        ...(delaySeconds ? { DelaySeconds: sqsDelay(delaySeconds) } : {}),
      });
    },
    async sendAgain(queue, body, delaySeconds, attempt) {
      await send({
        QueueUrl: urlOf(urls.queues, queue, 'queue'),
        MessageBody: body,
        DelaySeconds: sqsDelay(delaySeconds),
        MessageAttributes: { [ATTEMPT_ATTRIBUTE]: { DataType: 'Number', StringValue: String(attempt) } },
      });
    },
    async sendToDeadLetter(queue, body, reason) {
      await send({
        QueueUrl: urlOf(urls.deadLetterQueues, queue, 'dead-letter queue'),
        MessageBody: body,
        MessageAttributes: {
          [DEAD_LETTER_REASON_ATTRIBUTE]: { DataType: 'String', StringValue: reason.slice(0, 1000) },
        },
      });
    },
  };
}

/** A delay as SQS takes it: whole seconds, 0 to 900 (rounded up, so a job never comes early). */
const sqsDelay = (seconds: number): number => Math.min(900, Math.max(0, Math.ceil(seconds)));
