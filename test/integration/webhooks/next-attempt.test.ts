import { DeleteMessageCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import { ATTEMPT_ATTRIBUTE, type JobQueue } from '../../../shared/commands/queue';
import { sqsJobQueue } from '../../../shared/commands/sqs-queue';
import { createTaskWorker } from '../../../shared/commands/task-worker';
import { systemClock } from '../../../shared/platform/clock';
import { deliveryTask } from '../../../shared/webhooks/delivery';
import { deliveryJob, type DeliveryJobRequest } from '../../../shared/webhooks/delivery-job';
import { dynamoDeliveryStore, type DeliveryStore } from '../../../shared/webhooks/delivery-store';
import { dynamoEndpointStore, type EndpointStore } from '../../../shared/webhooks/endpoint-store';
import { dynamoEventStore, type EventStore } from '../../../shared/webhooks/event-store';
import { pinnedPost } from '../../../shared/webhooks/http-post';
import { newEndpointId, newEventId, newSigningSecret } from '../../../shared/webhooks/ids';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * The next attempt of a failed delivery, through the `webhook_delivery` task
 * worker, the embedded DynamoDB and SQS and a loopback receiver. Its job is
 * queued only once the attempt it follows is recorded, so a zero wait
 * (WEBHOOK_RETRY_DELAYS=0), whose job may run at once, neither loses nor
 * repeats an attempt; a run that stopped between recording and queuing
 * queues it when its own job comes back.
 */
const TENANT = 'acme';

let services: EmbeddedServices;
let receiver: WebhookReceiver;
let endpoints: EndpointStore;
let events: EventStore;
let deliveries: DeliveryStore;
let sqsQueue: JobQueue;
let queueUrl: string;
const logger = new Logger({ serviceName: 'test', logLevel: 'SILENT' });

beforeAll(async () => {
  services = await startEmbeddedServices();
  receiver = await startWebhookReceiver();
  endpoints = dynamoEndpointStore(services.db, services.aws.tableName);
  events = dynamoEventStore(services.db, services.aws.tableName);
  deliveries = dynamoDeliveryStore(services.db, services.aws.tableName);
  queueUrl = services.aws.queues.webhooks.url;
  sqsQueue = sqsJobQueue(services.aws.sqs, {
    queues: { webhooks: queueUrl },
    deadLetterQueues: { webhooks: services.aws.queues.webhooks.dlqUrl },
  });
});
afterAll(async () => {
  await receiver.close();
  await services.stop();
});
afterEach(async () => {
  for (const endpoint of await endpoints.list(TENANT)) await endpoints.remove(TENANT, endpoint.id);
  receiver.heal();
});

/** The worker with every wait zero: the delivery's own (WEBHOOK_RETRY_DELAYS=0) and the back-off after a fault. */
function worker(queue: JobQueue) {
  const definition = deliveryTask({
    endpoints,
    events,
    deliveries,
    queue,
    clock: systemClock,
    post: pinnedPost,
    urlPolicy: { allowLoopback: true },
    retryDelaysSeconds: [0],
    leaseMs: 30_000,
  });
  return createTaskWorker(definition, { queue, clock: systemClock, logger, maxReceiveCount: 5, retryDelaysSeconds: [0] });
}

function recordOf(message: Message): SQSRecord {
  const attempt = message.MessageAttributes?.[ATTEMPT_ATTRIBUTE]?.StringValue;
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body!,
    attributes: {
      ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: attempt
      ? { [ATTEMPT_ATTRIBUTE]: { stringValue: attempt, dataType: 'Number', stringListValues: [], binaryListValues: [] } }
      : {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:switchboard-webhooks',
    awsRegion: 'us-east-1',
  };
}

/** Runs what is on the webhooks queue, one message at a time, until it is empty (bounded: a job that requeues itself forever fails). */
async function runQueued(handler: ReturnType<typeof worker>): Promise<number> {
  let ran = 0;
  for (; ran < 20; ran++) {
    const { Messages = [] } = await services.aws.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 1,
        WaitTimeSeconds: 0,
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const [message] = Messages;
    if (!message) return ran;
    await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    expect(await handler({ Records: [recordOf(message)] })).toEqual({ batchItemFailures: [] });
  }
  throw new Error('The webhooks queue never emptied');
}

/** An endpoint that always answers 503, an event, its pending delivery due now, and (unless told not to) its first job on the queue. */
async function failingDelivery(path: string, queueFirstJob = true) {
  receiver.answerAlways(path, { status: 503 });
  const at = new Date().toISOString();
  const endpointId = newEndpointId();
  expect(
    await endpoints.create({
      id: endpointId,
      tenant_id: TENANT,
      url: `${receiver.url}${path}`,
      events: ['*'],
      secret: newSigningSecret(),
      created_at: at,
      updated_at: at,
    }),
  ).toBe(true);
  const event = await events.record(
    { tenantId: TENANT, type: 'command.completed', data: { command: { command_id: 'c1' } }, idempotencyKey: newEventId() },
    newEventId(),
    Date.now(),
  );
  expect(
    await deliveries.create({
      endpoint_id: endpointId,
      event_id: event.id,
      tenant_id: TENANT,
      event_type: event.type,
      event_key: event.key,
      status: 'pending',
      attempt_count: 0,
      round_start: 0,
      attempts: [],
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    }),
  ).toBe(true);
  const request: DeliveryJobRequest = { endpoint_id: endpointId, event_id: event.id, attempt: 1 };
  if (queueFirstJob) await sqsQueue.send('webhooks', deliveryJob(TENANT, request));
  return {
    firstJob: JSON.stringify(deliveryJob(TENANT, request)),
    read: () => deliveries.get(endpointId, event.id),
    posts: () => receiver.received.filter((item) => item.path === path),
  };
}

describe('the next attempt of a failed delivery', () => {
  it('with a zero wait is made once, even when its job runs the moment it is queued', async () => {
    const delivery = await failingDelivery('/zero');
    // A consumer as quick as a zero delay allows: the queued job runs before the send returns.
    const eager: JobQueue = {
      ...sqsQueue,
      sendAgain: async (...args) => {
        await sqsQueue.sendAgain(...args);
        await runQueued(handler);
      },
    };
    const handler = worker(eager);

    await runQueued(handler);

    expect(await delivery.read()).toMatchObject({ status: 'failed', attempt_count: 2, attempts: [{ number: 1 }, { number: 2 }] });
    expect(delivery.posts().map((post) => post.headers['switchboard-delivery-attempt'])).toEqual(['1', '2']);
  });

  it('is queued when the run that recorded its predecessor stopped before queuing it: its job, coming back, queues it', async () => {
    const delivery = await failingDelivery('/outage');
    let refusals = 1;
    // SQS refuses the first send of the attempt-2 job, as a process that died right after recording attempt 1 would never send it.
    const flaky: JobQueue = {
      ...sqsQueue,
      sendAgain: async (queue, body, delaySeconds, attempt) => {
        const request = (JSON.parse(body) as { request: DeliveryJobRequest }).request;
        if (request.attempt === 2 && refusals > 0) {
          refusals -= 1;
          throw new Error('SQS is unavailable');
        }
        await sqsQueue.sendAgain(queue, body, delaySeconds, attempt);
      },
    };

    const ran = await runQueued(worker(flaky));

    expect(refusals).toBe(0);
    expect(await delivery.read()).toMatchObject({ status: 'failed', attempt_count: 2, attempts: [{ number: 1 }, { number: 2 }] });
    expect(delivery.posts().map((post) => post.headers['switchboard-delivery-attempt'])).toEqual(['1', '2']);
    // Attempt 1's job, its retry after the fault, attempt 2's job; nothing more (the queue is empty).
    expect(ran).toBe(3);
  });

  it('is queued again by its predecessor’s job only when that job runs again, not by a duplicate’s first run', async () => {
    const delivery = await failingDelivery('/duplicate', false);
    const queued: number[] = [];
    const recording: JobQueue = {
      ...sqsQueue,
      sendAgain: async (queue, body, delaySeconds, attempt) => {
        queued.push((JSON.parse(body) as { request: DeliveryJobRequest }).request.attempt);
        await sqsQueue.sendAgain(queue, body, delaySeconds, attempt);
      },
    };
    const handler = worker(recording);
    const copy = (messageId: string, receiveCount: string): SQSRecord => ({
      ...recordOf({ MessageId: messageId, ReceiptHandle: 'r', Body: delivery.firstJob }),
      attributes: { ApproximateReceiveCount: receiveCount, SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
    });

    await handler({ Records: [copy('original', '1')] });
    expect(queued).toEqual([2]);
    // A second message with the same job (SQS delivers at least once): attempt 1 is recorded, so it is dropped.
    await handler({ Records: [copy('duplicate', '1')] });
    expect(queued).toEqual([2]);
    // The original back again (its run stopped before it was deleted): it may never have queued attempt 2, so it does.
    await handler({ Records: [copy('original', '2')] });
    expect(queued).toEqual([2, 2]);

    expect(await runQueued(handler)).toBe(2);
    expect(delivery.posts().map((post) => post.headers['switchboard-delivery-attempt'])).toEqual(['1', '2']);
    expect(await delivery.read()).toMatchObject({ status: 'failed', attempt_count: 2 });
  });
});
