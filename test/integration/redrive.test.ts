import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { sqsJobQueue } from '../../shared/commands/sqs-queue';
import { redriveDeadLetters } from '../../shared/commands/redrive';
import { createSqsClient } from '../../shared/platform/sqs';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

const depth = async (url: string) => {
  const { Attributes } = await services.aws.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
};

/** Every message a queue shows now, each once (held for a minute so a second receive does not repeat it). */
const visibleBodies = async (url: string): Promise<string[]> => {
  const bodies = new Map<string, string>();
  for (;;) {
    const { Messages = [] } = await services.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (Messages.length === 0) return [...bodies.values()].sort();
    for (const message of Messages) bodies.set(message.MessageId!, message.Body ?? '');
  }
};

describe('redriveDeadLetters', () => {
  it('moves every dead letter back to its work queue, bodies unchanged, or only as many as asked', async () => {
    const { url, dlqUrl } = services.aws.queues.sales;
    const bodies = Array.from({ length: 13 }, (_, index) => JSON.stringify({ version: 1, n: index }));
    for (const body of bodies) await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: body }));

    expect(await redriveDeadLetters(services.aws.sqs, { from: dlqUrl, to: url, max: 4 })).toEqual({ moved: 4, skipped: 0 });
    expect(await depth(url)).toBe(4);
    expect(await redriveDeadLetters(services.aws.sqs, { from: dlqUrl, to: url })).toEqual({ moved: 9, skipped: 0 });
    expect(await depth(url)).toBe(13);
    expect(await depth(dlqUrl)).toBe(0);
    expect(await redriveDeadLetters(services.aws.sqs, { from: dlqUrl, to: url })).toEqual({ moved: 0, skipped: 0 });
    expect(await visibleBodies(url)).toEqual([...bodies].sort());
  });
});

describe('redriveDeadLetters while the jobs are still bad', () => {
  const badBodies = Array.from({ length: 7 }, (_, index) => JSON.stringify({ version: 1, still_bad: index }));
  let queues: { url: string; dlqUrl: string };
  let redriveClient: SQSClient;
  /** How often the failing consumer saw each body on the work queue. */
  let deliveries: Map<string, number>;

  /** A consumer that dead-letters at once whatever reaches the work queue, as the worker does with a poison job. */
  const reDeadLetterEverything = async () => {
    const jobs = sqsJobQueue(services.aws.sqs, { queues: { copywriter: queues.url }, deadLetterQueues: { copywriter: queues.dlqUrl } });
    for (;;) {
      const { Messages = [] } = await services.aws.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queues.url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
      );
      if (Messages.length === 0) return;
      for (const message of Messages) {
        const seen = (deliveries.get(message.Body!) ?? 0) + 1;
        deliveries.set(message.Body!, seen);
        if (seen > 3) throw new Error(`The same job was redriven ${seen} times in one run`);
        await jobs.sendToDeadLetter('copywriter', message.Body!, 'still bad');
        await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: queues.url, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
  };

  const deadLetterTheBadJobs = async () => {
    for (const body of badBodies) await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: queues.dlqUrl, MessageBody: body }));
  };

  let run = 0;
  const createQueue = async (name: string) => (await services.aws.sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;

  beforeEach(async () => {
    run += 1;
    queues = { url: await createQueue(`still-bad-${run}`), dlqUrl: await createQueue(`still-bad-${run}-dlq`) };
    deliveries = new Map();
    // The redrive's own client: right after each batch it sends to the work queue, the failing consumer runs.
    redriveClient = createSqsClient({ endpoint: services.aws.sqsEndpoint, region: services.aws.region });
    redriveClient.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'SendMessageBatchCommand' && (args.input as { QueueUrl?: string }).QueueUrl === queues.url)
          await reDeadLetterEverything();
        return result;
      },
      { step: 'initialize', name: 'failingConsumer' },
    );
  });
  afterEach(() => redriveClient.destroy());

  it('moves each of 7 bad jobs once and reports 7, though each is dead-lettered again at once', async () => {
    await deadLetterTheBadJobs();
    const report = await redriveDeadLetters(redriveClient, { from: queues.dlqUrl, to: queues.url });
    expect(report.moved).toBe(7);
    expect([...deliveries.entries()].sort()).toEqual(badBodies.map((body) => [body, 1]).sort());
    expect(await visibleBodies(queues.dlqUrl)).toEqual([...badBodies].sort());
  });

  it('skips jobs that came back during the run even when the queue seemed to hold more, and leaves them visible', async () => {
    // Another reader holds one dead letter, so the count at the start (8 here) leaves room for a job that comes back.
    await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: queues.dlqUrl, MessageBody: '{"held":true}' }));
    const held = await services.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queues.dlqUrl, MaxNumberOfMessages: 1, VisibilityTimeout: 60 }),
    );
    expect(held.Messages?.[0]?.Body).toBe('{"held":true}');
    await deadLetterTheBadJobs();
    expect(await depth(queues.dlqUrl)).toBe(8);

    const report = await redriveDeadLetters(redriveClient, { from: queues.dlqUrl, to: queues.url });
    expect(report).toEqual({ moved: 7, skipped: 7 });
    expect([...deliveries.entries()].sort()).toEqual(badBodies.map((body) => [body, 1]).sort());
    expect(await visibleBodies(queues.dlqUrl)).toEqual([...badBodies].sort());
  });
});
