import type { JobQueue } from '../commands/queue';
import { jobQueueSendingWith } from '../commands/sqs-messages';
import type { FunctionId } from '../catalogue/function-definitions';
import { onFirstUse } from '../platform/memo';
import { noTracing, type Tracing } from '../platform/tracing';
import { awsClientOptions, queueUrlsOf } from './adapters';
import type { Settings } from './settings';

/**
 * The queues of `jobQueueOf`, for a function whose requests send only in
 * some cases (a redelivery, a reply, a finished call, a tenant with webhook
 * endpoints or a CRM): the SQS client and its code are loaded by the first
 * send instead of at cold start, where they cost about a tenth of a small
 * function's init (docs/performance.md). The URLs are still read at cold
 * start, so a missing one fails it. Nothing this module imports at load
 * reaches the SQS client: keep it so (test/infra/bundle-budgets.test.ts).
 */
export function jobQueueOnFirstSendOf(functionId: FunctionId, settings: Settings, tracing: Tracing = noTracing): JobQueue {
  const urls = queueUrlsOf(functionId, settings);
  const options = awsClientOptions(settings, 'SQS');
  const sender = onFirstUse(async () => {
    const { createSqsClient, sqsMessageSender } = await import('../platform/sqs');
    return sqsMessageSender(createSqsClient(options, (client) => tracing.captureClient(client)));
  });
  return jobQueueSendingWith(async (input) => (await sender())(input), urls);
}
