import type { SQSClient } from '@aws-sdk/client-sqs';
import { startPoller, type Poller, type PollerOptions, type SqsHandler } from '../../infra/local/sqs-poller';

/**
 * A local poller as the runtime starts one for the sales worker (batches of
 * 5, the worker's 60 s timeout), on `queueUrl` of the embedded SQS, handing
 * batches to `handler`; `options` changes what a test needs changed.
 */
export function startSalesPoller(
  sqs: SQSClient,
  queueUrl: string,
  handler: SqsHandler,
  options: Partial<Omit<PollerOptions, 'sqs' | 'queueUrl' | 'handler'>> = {},
): Poller {
  return startPoller({
    sqs,
    queueUrl,
    queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-sales',
    region: 'us-east-1',
    functionName: 'salesWorker',
    timeoutSeconds: 60,
    batchSize: 5,
    concurrency: 2,
    handler,
    ...options,
  });
}
