import type { JobQueue } from '../commands/queue';
import { sqsJobQueue } from '../commands/sqs-queue';
import type { FunctionId } from '../catalogue/function-definitions';
import { noTracing, type Tracing } from '../platform/tracing';
import { createSqsClient } from '../platform/sqs';
import { awsClientOptions, queueUrlsOf } from './adapters';
import type { Settings } from './settings';

/**
 * The queues a function declares it sends to (and the dead-letter queues),
 * their URLs read from its settings and the SQS client built at cold start,
 * its calls traced when `tracing` is on. For a function whose requests send
 * only in some cases, see `jobQueueOnFirstSendOf`.
 */
export function jobQueueOf(functionId: FunctionId, settings: Settings, tracing: Tracing = noTracing): JobQueue {
  const sqs = createSqsClient(awsClientOptions(settings, 'SQS'), (client) => tracing.captureClient(client));
  return sqsJobQueue(sqs, queueUrlsOf(functionId, settings));
}
