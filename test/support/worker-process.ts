import { startPoller } from '../../infra/local/sqs-poller';
import { createSqsClient } from '../../shared/platform/sqs';

/**
 * A worker in a process of its own, polling the sales queue with the real
 * sales handler module, so a test can kill it (SIGKILL) in the middle of a
 * job. Its settings come from the environment, as a Lambda function's do.
 */
const { handler } = (await import('../../functions/workers/sales')) as { handler: Parameters<typeof startPoller>[0]['handler'] };
const poller = startPoller({
  sqs: createSqsClient(),
  queueUrl: process.env.SALES_QUEUE_URL!,
  queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-sales',
  region: 'us-east-1',
  functionName: 'salesWorker',
  timeoutSeconds: 60,
  batchSize: 1,
  concurrency: 1,
  handler,
});
process.stdout.write('worker ready\n');
process.on('SIGTERM', () => void poller.stop().then(() => process.exit(0)));
