import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { QUEUES } from '../../shared/catalogue/job-types';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { noTracing, type Tracing } from '../../shared/platform/tracing';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/**
 * A function whose requests send only in some cases builds its job queue
 * without the SQS client; the first send builds it (once, traced like any
 * client) and the job reaches the embedded SQS like any other.
 */
let services: EmbeddedServices;
const webhooks = QUEUES.find((queue) => queue.id === 'webhooks')!;

beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

function settingsFor(queueUrl: string | undefined): Record<string, string | undefined> {
  return {
    AWS_ENDPOINT_URL_SQS: services.aws.sqsEndpoint,
    AWS_REGION: services.aws.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    [webhooks.urlEnvVar]: queueUrl,
  };
}

describe('jobQueueOnFirstSendOf', () => {
  it('builds its SQS client on the first send, once, and sends through it', async () => {
    const captured: unknown[] = [];
    const tracing: Tracing = { ...noTracing, captureClient: (client) => (captured.push(client), client) };
    const queue = jobQueueOnFirstSendOf('webhooksApi', settingsFor(services.aws.queues.webhooks.url), tracing);
    expect(captured).toHaveLength(0);

    const job = { type: 'webhook_delivery', request: { delivery_id: 'd-1' } } as never;
    await Promise.all([queue.send('webhooks', job), queue.send('webhooks', job)]);
    expect(captured).toHaveLength(1);

    const bodies: unknown[] = [];
    for (const deadline = Date.now() + 10_000; bodies.length < 2 && Date.now() < deadline;) {
      const received = await services.aws.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: services.aws.queues.webhooks.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      bodies.push(...(received.Messages ?? []).map((message) => JSON.parse(message.Body!) as unknown));
    }
    expect(bodies).toEqual([job, job]);
  });

  it('still fails the cold start when a queue URL the function declares is missing', () => {
    expect(() => jobQueueOnFirstSendOf('webhooksApi', settingsFor(undefined))).toThrow(webhooks.urlEnvVar);
  });
});
