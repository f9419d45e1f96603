import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import type { SqsHandler } from '../../infra/local/sqs-poller';
import { startSalesPoller } from '../support/sales-poller';
import { eventually, startEmbeddedServices, type EmbeddedServices } from '../support/embedded';
import { call } from '../support/http';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';

/** Stopping the local runtime never waits long for a job stuck in a slow provider call. */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

describe('local SQS poller stop', () => {
  let services: EmbeddedServices;
  beforeAll(async () => {
    services = await startEmbeddedServices({ visibilityTimeoutSeconds: 30 });
  });
  afterAll(() => services.stop());

  const pollerFor = (queueUrl: string, handler: SqsHandler, onError: (error: unknown) => void = () => undefined) =>
    startSalesPoller(services.aws.sqs, queueUrl, handler, { name: 'sales', onError });

  it('waits for a batch that finishes within the grace, and deletes its message', async () => {
    const url = services.aws.queues.copywriter.url;
    let started = false;
    const poller = pollerFor(url, async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { batchItemFailures: [] };
    });
    await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'quick' }));
    await eventually(async () => (started ? true : undefined), 5_000, 'the batch to start');
    expect(poller.inHand()).toBe(1);
    expect(await poller.stop({ graceMs: 5_000 })).toEqual({ abandoned: 0 });
    const { Attributes } = await services.aws.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    expect(Attributes).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  });

  it('abandons a batch still in hand after the grace, and reports nothing it does later', async () => {
    const url = services.aws.queues.sales.url;
    let fail: ((error: Error) => void) | undefined;
    const errors: unknown[] = [];
    const poller = pollerFor(
      url,
      () => new Promise((_resolve, reject) => (fail = reject)),
      (error) => errors.push(error),
    );
    await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'stuck' }));
    await eventually(async () => (fail ? true : undefined), 5_000, 'the batch to start');
    expect(poller.inHand()).toBe(1);
    const started = Date.now();
    expect(await poller.stop({ graceMs: 300 })).toEqual({ abandoned: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    fail!(new Error('provider connection closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([]);
    const { Attributes } = await services.aws.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessagesNotVisible'] }),
    );
    expect(Attributes?.ApproximateNumberOfMessagesNotVisible).toBe('1');
  });
});

describe('local runtime stop', () => {
  let openai: OpenAiFake;
  let runtime: LocalRuntime | undefined;
  beforeAll(async () => {
    openai = await startOpenAiFake();
    openai.respondWith(() => ({ hangMs: 600_000 }));
  });
  afterAll(async () => {
    // Closing the provider ends the abandoned job's call; what the job does then ends before this file does.
    await openai.close();
    await runtime?.abandonedJobsEnded();
  });

  it('says what it waits for and gives up on a job stuck in a provider call after the grace', async () => {
    runtime = await startLocalRuntime({
      port: 0,
      scheduleEveryMs: 0,
      settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: openai.baseUrl },
    });
    const accepted = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    });
    expect(accepted.status).toBe(202);
    await eventually(async () => (openai.requests.length > 0 ? true : undefined), 10_000, 'the job to reach the provider');

    const said: string[] = [];
    const started = Date.now();
    await runtime.stop({ graceMs: 500, onWait: (message) => said.push(message) });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(said).toEqual([
      expect.stringMatching(/^waiting for 1 job\(s\) in hand \(sales\)/),
      expect.stringMatching(/^gave up after 0\.5 s on 1 job\(s\) \(sales\)/),
    ]);
  });
});
