import { ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { startEmbeddedAws, type EmbeddedAws } from '../../infra/local/embedded-aws';
import { IDLE_PAUSE_MS, type SqsHandler } from '../../infra/local/sqs-poller';
import { startSalesPoller } from '../support/sales-poller';
import { eventually } from '../support/eventually';

/**
 * An idle local poller is quiet: told by the embedded SQS when a message may
 * have arrived, it receives at once then, and otherwise polls only every
 * `quietPauseMs` (for visibility timeouts and delays running out; 1 s by
 * default, 400 ms here so the test waits less).
 */
const QUIET_MS = 400;
let aws: EmbeddedAws;
const receives: number[] = [];

beforeAll(async () => {
  aws = await startEmbeddedAws({
    visibilityTimeoutSeconds: 30,
    onRequest: (service, operation) => {
      if (service === 'sqs' && operation === 'ReceiveMessage') receives.push(performance.now());
    },
  });
});
afterAll(() => aws.stop());

/** A poller of `queueUrl`, told of arrivals unless `announced` is false. */
const pollerFor = (queueUrl: string, handler: SqsHandler, announced = true) =>
  startSalesPoller(aws.sqs, queueUrl, handler, announced ? { activity: aws.activity, quietPauseMs: QUIET_MS } : {});

/** Receives made in the `ms` after the poller has had `settleMs` to reach its longest pause. */
async function receivesWhileIdle(settleMs: number, ms: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const from = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return receives.filter((at) => at >= from && at < from + ms).length;
}

describe('an idle local poller', () => {
  it('receives once a quiet pause a loop when arrivals are announced, five times a second when not', async () => {
    const quiet = pollerFor(aws.queues.sales.url, async () => ({ batchItemFailures: [] }));
    const quietReceives = await receivesWhileIdle(1_000, 1_000);
    await quiet.stop();

    const polling = pollerFor(aws.queues.sales.url, async () => ({ batchItemFailures: [] }), false);
    const pollingReceives = await receivesWhileIdle(500, 1_000);
    await polling.stop();

    // Two loops: about 2 receives each in 1 s at the quiet pause (+40 ms the server holds a receive); at the 200 ms pause, 4.
    expect(quietReceives).toBeLessThanOrEqual(2 * (1_000 / QUIET_MS + 1));
    expect(pollingReceives).toBeGreaterThanOrEqual(2 * (1_000 / (IDLE_PAUSE_MS.max + 40)) - 2);
  });

  it('hands a message sent while it idles to the worker at once, and stops at once while it idles', async () => {
    const url = aws.queues.copywriter.url;
    let handedAt: number | undefined;
    const poller = pollerFor(url, async () => {
      handedAt = performance.now();
      return { batchItemFailures: [] };
    });
    await receivesWhileIdle(1_000, 0);
    const sentAt = performance.now();
    await aws.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'wake up' }));
    await eventually(async () => handedAt, 5_000, 'the message to reach the worker');
    expect(handedAt! - sentAt).toBeLessThan(QUIET_MS / 2);

    await receivesWhileIdle(1_000, 0);
    const stopping = performance.now();
    expect(await poller.stop()).toEqual({ abandoned: 0 });
    // A receive under way is answered within the 40 ms the embedded SQS holds it; the pause itself is cut short.
    expect(performance.now() - stopping).toBeLessThan(QUIET_MS / 2);
  });

  it('is woken only by news of its own queue: a send to another queue, or a read, wakes no one', async () => {
    const woken: string[] = [];
    const unsubscribe = [
      aws.activity(aws.queues.sales.url, () => woken.push('sales')),
      // The same queue by another host name: a queue is known by its name.
      aws.activity(aws.queues.copywriter.url.replace('127.0.0.1', 'localhost'), () => woken.push('copywriter')),
    ];
    await aws.sqs.send(new SendMessageCommand({ QueueUrl: aws.queues.copywriter.url, MessageBody: 'for the copywriter' }));
    await aws.sqs.send(new ReceiveMessageCommand({ QueueUrl: aws.queues.sales.url, WaitTimeSeconds: 0 }));
    await aws.sqs.send(new SendMessageBatchCommand({ QueueUrl: aws.queues.sales.url, Entries: [{ Id: '1', MessageBody: 'for sales' }] }));
    unsubscribe.forEach((stop) => stop());
    await aws.sqs.send(new SendMessageCommand({ QueueUrl: aws.queues.sales.url, MessageBody: 'after' }));
    expect(woken).toEqual(['copywriter', 'sales']);
  });
});
