import { Logger } from '@aws-lambda-powertools/logger';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { sqsEventOf } from '../../infra/local/sqs-poller';
import { DEAD_LETTER_REASON_ATTRIBUTE, type JobQueue } from '../../shared/commands/queue';
import { sqsJobQueue } from '../../shared/commands/sqs-queue';
import { createTaskWorker, type TaskDefinition } from '../../shared/commands/task-worker';
import { systemClock } from '../../shared/platform/clock';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/**
 * A job type without a command (a webhook delivery) whose write DynamoDB
 * refuses as too large: the same write would be refused on every attempt,
 * so the job is dead-lettered at once with the reason, not retried.
 */
let services: EmbeddedServices;
let queue: JobQueue;
const resent: number[] = [];

beforeAll(async () => {
  services = await startEmbeddedServices();
  const urls = {
    queues: { webhooks: services.aws.queues.webhooks.url },
    deadLetterQueues: { webhooks: services.aws.queues.webhooks.dlqUrl },
  };
  const real = sqsJobQueue(services.aws.sqs, urls);
  queue = { ...real, sendAgain: async (_queue, _body, _delay, attempt) => void resent.push(attempt) };
});
afterAll(() => services.stop());

/** Writes an item over DynamoDB's 400 KB limit. */
const oversizedWrite: TaskDefinition<{ key: string }> = {
  type: 'webhook_delivery',
  parse: (request) => request as { key: string },
  async run({ input }) {
    await services.db.send(
      new PutCommand({ TableName: services.aws.tableName, Item: { pk: `DELIVERY#${input.key}`, sk: 'x', notes: 'x'.repeat(512 * 1024) } }),
    );
    return { outcome: 'delivered' };
  },
};

const eventFor = (key: string): SQSEvent =>
  sqsEventOf(
    [
      {
        MessageId: `m-${key}`,
        ReceiptHandle: 'r',
        Body: JSON.stringify({ version: 1, type: 'webhook_delivery', tenant_id: 'tenant-a', request: { key } }),
        Attributes: { ApproximateReceiveCount: '1' },
      },
    ],
    {
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-webhooks',
      region: 'us-east-1',
    },
  );

describe('task worker', () => {
  it('dead-letters at once, with the reason, a job whose write is refused as too large', async () => {
    const worker = createTaskWorker(oversizedWrite, {
      queue,
      clock: systemClock,
      logger: new Logger({ logLevel: 'SILENT' }),
      maxReceiveCount: 5,
      retryDelaysSeconds: [0],
    });
    expect(await worker(eventFor('huge'))).toEqual({ batchItemFailures: [] });
    expect(resent).toEqual([]);
    const { Messages = [] } = await services.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: services.aws.queues.webhooks.dlqUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }),
    );
    expect(Messages.map((message) => message.MessageAttributes?.[DEAD_LETTER_REASON_ATTRIBUTE]?.StringValue)).toEqual([
      "A write was refused as too large for DynamoDB's 400 KB item limit (Item size has exceeded the maximum allowed size)",
    ]);
  });
});
