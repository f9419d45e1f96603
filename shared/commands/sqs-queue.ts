import type { SQSClient } from '@aws-sdk/client-sqs';
import { sqsMessageSender } from '../platform/sqs';
import type { JobQueue, QueueUrls } from './queue';
import { jobQueueSendingWith } from './sqs-messages';

/** JobQueue on SQS: one queue and one dead-letter queue per job queue id. */
export function sqsJobQueue(sqs: SQSClient, urls: QueueUrls): JobQueue {
  return jobQueueSendingWith(sqsMessageSender(sqs), urls);
}
