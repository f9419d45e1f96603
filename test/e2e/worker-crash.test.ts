import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { embeddedServiceSettings } from '../../infra/local/embedded-aws';
import { QUEUES } from '../../shared/catalogue/job-types';
import { functionById } from '../../shared/catalogue/functions';
import { DEMO_DATA_FILE, importFile } from '../../infra/local/provision';
import { startPoller, type Poller, type SqsHandler } from '../../infra/local/sqs-poller';
import { startCommand } from '../../shared/commands/start';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { sqsJobQueue } from '../../shared/commands/sqs-queue';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { systemClock } from '../../shared/platform/clock';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';
import { eventually, startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/**
 * A sales worker process is killed (SIGKILL) while its model call is in
 * flight. SQS delivers the job again after the visibility timeout, another
 * worker takes the command once the dead one's lease has run out, and the
 * lead follow-up completes exactly once.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let services: EmbeddedServices;
let fake: OpenAiFake;
let child: ChildProcess | undefined;
const pollers: Poller[] = [];

/** Answers any schema of channel objects with plain, placeholder-free copy. */
function validReply(body: { response_format?: unknown }) {
  const schema = (
    body.response_format as { json_schema: { schema: { properties: Record<string, { properties: Record<string, unknown> }> } } }
  ).json_schema.schema;
  const content = Object.fromEntries(
    Object.entries(schema.properties).map(([channel, item]) => [
      channel,
      Object.fromEntries(
        Object.keys(item.properties).map((field) => [
          field,
          field === 'title'
            ? 'Jordan, fewer double bookings'
            : field === 'strategy'
              ? 'Lead with the double-booking pain.'
              : 'Hi Jordan, Northwind Outdoor can end double-booked gear at Trailhead Rentals. Could we talk this week?',
        ]),
      ),
    ]),
  );
  return { content };
}

beforeAll(async () => {
  services = await startEmbeddedServices({ visibilityTimeoutSeconds: 2 });
  fake = await startOpenAiFake();
  fake.enqueue({ hangMs: 120_000 });
  fake.respondWith(validReply);
  await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await Promise.all(pollers.map((poller) => poller.stop()));
  await fake.close();
  await services.stop();
});

function workerEnvironment(): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ...embeddedServiceSettings(services.aws),
    OPENAI_API_KEY: 'sk-test-worker-crash',
    OPENAI_BASE_URL: fake.baseUrl,
    WORKER_LEASE_SECONDS: '1',
    LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
}

describe('a worker killed mid-job', () => {
  it('leaves a command that another worker completes exactly once', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-process.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...workerEnvironment(), NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let childOutput = '';
    child.stdout!.on('data', (chunk: Buffer) => (childOutput += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (childOutput += chunk.toString()));

    const commands = dynamoCommandStore(services.db, services.aws.tableName);
    const queue = sqsJobQueue(services.aws.sqs, {
      queues: { sales: services.aws.queues.sales.url },
      deadLetterQueues: {},
    });
    const { command } = await startCommand(
      { commands, idempotency: dynamoIdempotencyStore(services.db, services.aws.tableName), queue, clock: systemClock },
      {
        type: 'lead_follow_up',
        tenantId: 'tenant-a',
        siteId: DEMO_SITE,
        request: { siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'channel_messages' },
      },
    );

    // The child worker has taken the command and is waiting on the model: kill it there.
    await eventually(
      async () => (fake.requests.length === 1 ? true : undefined),
      30_000,
      `the child's model call (output: ${childOutput})`,
    );
    expect((await commands.get(command.id))?.attempts).toBe(1);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // Healthy workers in this process (the same handler modules) take over after the visibility timeout.
    for (const queueDefinition of QUEUES) {
      const fn = functionById(queueDefinition.workerFunction);
      const module = (await import(new URL(`../../${fn.entry}`, import.meta.url).href)) as {
        build: (settings: Record<string, string>) => SqsHandler;
      };
      pollers.push(
        startPoller({
          sqs: services.aws.sqs,
          queueUrl: services.aws.queues[queueDefinition.id].url,
          queueArn: `arn:aws:sqs:us-east-1:000000000000:${queueDefinition.localName}`,
          region: 'us-east-1',
          functionName: fn.id,
          timeoutSeconds: fn.timeoutSeconds,
          batchSize: queueDefinition.batchSize,
          concurrency: 1,
          handler: module.build(workerEnvironment()),
        }),
      );
    }

    const finished = await eventually(
      async () => {
        const current = await commands.get(command.id);
        return current?.status === 'completed' ? current : undefined;
      },
      30_000,
      'the command to complete after the crash',
    );

    expect(finished.attempts).toBe(2);
    expect(finished.child_ids).toHaveLength(1);
    expect(finished.result).toMatchObject({
      command_ids: { sales: command.id, copywriter: finished.child_ids![0] },
      generated_by: 'openai',
    });
    // One call died with its worker; then one sales call and one copywriter call: nothing ran twice after the crash.
    expect(fake.requests).toHaveLength(3);
  });
});
