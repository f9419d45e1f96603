import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import type { Poller } from '../../infra/local/sqs-poller';
import { startSalesPoller } from '../support/sales-poller';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { DEAD_LETTER_REASON_ATTRIBUTE } from '../../shared/commands/queue';
import { sqsJobQueue } from '../../shared/commands/sqs-queue';
import type { CommandStore } from '../../shared/commands/store';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import type { StoredCommand as CommandRecord } from '../../shared/commands/record';
import { inMemoryTenants } from '../unit/lead-follow-up/fixtures';
import { createJobWorker, processJobRecord, type JobDefinition, type WorkerDependencies } from '../../shared/commands/worker';
import { AppError } from '../../shared/platform/errors';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { xrayTracing } from '../../shared/platform/xray/tracing';
import { startFakeXRayDaemon } from '../fakes/xray-daemon';
import { systemClock } from '../../shared/platform/clock';
import { newId } from '../../shared/platform/ids';
import { movableClock } from '../support/clock';
import { eventually, startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/**
 * The worker runner against the embedded SQS and DynamoDB, with a test phase
 * whose behaviour each test sets: a counter of effects shows whether work
 * was done twice.
 */
let services: EmbeddedServices;
let commands: CommandStore;
let deps: WorkerDependencies;
let poller: Poller | undefined;
let queueUrl: string;
let dlqUrl: string;

const requestSchema = z.object({
  site_id: z.string(),
  behaviour: z.enum(['ok', 'app-error', 'crash', 'hang', 'huge-progress', 'huge-result', 'full-then-huge-result']).default('ok'),
});
type TestRequest = z.infer<typeof requestSchema>;
const progressSchema = z.object({});
type TestProgress = z.infer<typeof progressSchema>;

const effects = new Map<string, number>();
/** More than DynamoDB keeps in one item (400 KB). */
const HALF_MEGABYTE = 'x'.repeat(512 * 1024);
const counted: string[] = [];
let hangRelease: (() => void) | undefined;

const definition: JobDefinition<TestRequest, TestProgress> = {
  type: 'lead_follow_up',
  kind: { type: 'lead_follow_up', request: requestSchema, progress: progressSchema },
  parseProducerRequest(request) {
    const parsed = requestSchema.safeParse(request);
    if (!parsed.success) throw new AppError('INVALID_REQUEST', `request: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  },
  siteIdOf: (request) => request.site_id,
  async run({ command, request }) {
    effects.set(command.id, (effects.get(command.id) ?? 0) + 1);
    if (request.behaviour === 'app-error') throw new AppError('SALES_COMMAND_FAILED', 'provider kept failing');
    if (request.behaviour === 'crash') throw new Error('worker infrastructure fault');
    if (request.behaviour === 'hang') await new Promise<void>((resolve) => (hangRelease = resolve));
    if (request.behaviour === 'huge-progress')
      await commands.recordProgress(command.id, { progress: { notes: HALF_MEGABYTE } }, Date.now());
    if (request.behaviour === 'huge-result') return { status: 'completed', result: { notes: HALF_MEGABYTE } };
    if (request.behaviour === 'full-then-huge-result') {
      await fillToTheLimit(command.id);
      return { status: 'completed', result: { notes: HALF_MEGABYTE } };
    }
    return { status: 'completed', result: { done_by_attempt: command.attempts } };
  },
};

/** Keeps the longest progress the command's item can hold (found by halving), so not even its failure fits beside it. */
async function fillToTheLimit(id: string): Promise<void> {
  let [fits, refused] = [0, HALF_MEGABYTE.length];
  while (refused - fits > 1) {
    const middle = Math.floor((fits + refused) / 2);
    try {
      await commands.recordProgress(id, { progress: { notes: HALF_MEGABYTE.slice(0, middle) } }, Date.now());
      fits = middle;
    } catch {
      refused = middle;
    }
  }
  await commands.recordProgress(id, { progress: { notes: HALF_MEGABYTE.slice(0, fits) } }, Date.now());
}

beforeAll(async () => {
  services = await startEmbeddedServices({ visibilityTimeoutSeconds: 1 });
  commands = dynamoCommandStore(services.db, services.aws.tableName);
  queueUrl = services.aws.queues.sales.url;
  dlqUrl = services.aws.queues.sales.dlqUrl;
  deps = {
    commands,
    idempotency: dynamoIdempotencyStore(services.db, services.aws.tableName),
    tenants: inMemoryTenants({ 'tenant-a': ['site-1'], 'tenant-p': ['site-9'], 'tenant-b': ['site-2'] }),
    queue: sqsJobQueue(services.aws.sqs, { queues: { sales: queueUrl }, deadLetterQueues: { sales: dlqUrl } }),
    clock: systemClock,
    logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
    leaseMs: 800,
    maxReceiveCount: 5,
    retryDelaysSeconds: [0],
    metrics: { count: (metric, type) => counted.push(`${metric}:${type}`) },
  };
});
afterEach(async () => {
  hangRelease?.();
  await poller?.stop();
  poller = undefined;
});
afterAll(() => services.stop());

function startWorker(): void {
  const worker = createJobWorker(definition, deps);
  poller = startSalesPoller(services.aws.sqs, queueUrl, worker, { concurrency: 1 });
}

async function newCommand(request: Record<string, unknown>, tenantId = 'tenant-a'): Promise<CommandRecord> {
  const now = new Date().toISOString();
  const command: CommandRecord = {
    id: newId(),
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: tenantId,
    site_id: 'site-1',
    request,
    created_at: now,
    updated_at: now,
    attempts: 0,
  };
  await commands.create(command);
  return command;
}

const job = (command: CommandRecord) =>
  JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: command.tenant_id, command_id: command.id, request: command.request });

/** What the worker queues again once a job has its command: a job that names it, and nothing more. */
const named = (command: CommandRecord) =>
  JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: command.tenant_id, command_id: command.id });

const send = (body: string) => services.aws.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));

const terminal = (id: string) =>
  eventually(
    async () => {
      const command = await commands.get(id);
      return command && command.status !== 'in_progress' ? command : undefined;
    },
    15_000,
    `command ${id} to end`,
  );

async function queueDepth(url: string): Promise<number> {
  const { Attributes } = await services.aws.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

async function drainDeadLetters(): Promise<{ body: string; reason: string | undefined }[]> {
  const found: { body: string; reason: string | undefined }[] = [];
  for (;;) {
    const { Messages } = await services.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'], VisibilityTimeout: 30 }),
    );
    if (!Messages?.length) return found;
    for (const message of Messages) {
      found.push({ body: message.Body ?? '', reason: message.MessageAttributes?.[DEAD_LETTER_REASON_ATTRIBUTE]?.StringValue });
      await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: message.ReceiptHandle! }));
    }
  }
}

describe('job worker lifecycle', () => {
  it('completes a command and ignores the same job delivered again', async () => {
    const command = await newCommand({ site_id: 'site-1' });
    startWorker();
    await send(job(command));
    expect(await terminal(command.id)).toMatchObject({ status: 'completed', result: { done_by_attempt: 1 } });
    await send(job(command));
    await eventually(async () => ((await queueDepth(queueUrl)) === 0 ? true : undefined), 10_000, 'queue to drain');
    expect(effects.get(command.id)).toBe(1);
    expect(counted).toEqual(['CommandCompleted:lead_follow_up', 'DuplicateJobIgnored:lead_follow_up']);
  });

  it('fails the command with the phase error code and does not retry it', async () => {
    const command = await newCommand({ site_id: 'site-1', behaviour: 'app-error' });
    startWorker();
    await send(job(command));
    expect(await terminal(command.id)).toMatchObject({ status: 'failed', error: { code: 'SALES_COMMAND_FAILED' } });
    await eventually(async () => ((await queueDepth(queueUrl)) === 0 ? true : undefined), 10_000, 'queue to drain');
    expect(effects.get(command.id)).toBe(1);
  });

  it('finishes, exactly once, a command whose worker died mid-job', async () => {
    const command = await newCommand({ site_id: 'site-1', behaviour: 'hang' });
    await send(job(command));
    // A worker takes the message and the command, then never comes back (its process died). Its message is visible again at
    // once (as after its visibility timeout), and the clock of the workers that come after is past its lease.
    const { Messages } = await services.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, AttributeNames: ['All'], VisibilityTimeout: 0 }),
    );
    const dying = processJobRecord(definition, deps, toRecord(Messages![0]!));
    await eventually(async () => ((await commands.get(command.id))?.attempts === 1 ? true : undefined), 5_000, 'the first claim');
    const later = movableClock();
    later.advance(deps.leaseMs);

    // The job is delivered again; the lease has run out, so a healthy worker finishes it.
    const healthy: JobDefinition<TestRequest, TestProgress> = {
      ...definition,
      run: async (input) => ({ status: 'completed', result: { done_by_attempt: input.command.attempts } }),
    };
    poller = startSalesPoller(services.aws.sqs, queueUrl, createJobWorker(healthy, { ...deps, clock: later }), { concurrency: 1 });
    expect(await terminal(command.id)).toMatchObject({ status: 'completed', result: { done_by_attempt: 2 } });

    // The dead worker's late write (if it ever came back) cannot produce a second result.
    hangRelease?.();
    await dying;
    expect((await commands.get(command.id))?.result).toEqual({ done_by_attempt: 2 });
  });

  it('queues a job that hit an infrastructure fault again, after its back-off, as its next attempt; only a failure to do even that is a batch item failure', async () => {
    const good = await newCommand({ site_id: 'site-1' });
    const bad = await newCommand({ site_id: 'site-1', behaviour: 'crash' });
    const resent: { body: string; delaySeconds: number; attempt: number }[] = [];
    const queue = {
      ...deps.queue,
      sendAgain: async (_queue: string, body: string, delaySeconds: number, attempt: number) =>
        void resent.push({ body, delaySeconds, attempt }),
    };
    const worker = createJobWorker(definition, { ...deps, queue, retryDelaysSeconds: [10, 60, 300] });
    const event: SQSEvent = {
      Records: [good, bad].map((command, index) =>
        toRecord({ MessageId: `m-${index}`, ReceiptHandle: 'r', Body: job(command), Attributes: { ApproximateReceiveCount: '1' } }),
      ),
    };
    expect(await worker(event)).toEqual({ batchItemFailures: [] });
    expect(await commands.get(good.id)).toMatchObject({ status: 'completed' });
    expect(await commands.get(bad.id)).toMatchObject({ status: 'in_progress' });
    expect(resent).toEqual([{ body: named(bad), delaySeconds: 10, attempt: 2 }]);

    // Its third attempt waits 5 minutes; the attempt travels on the message.
    const third = {
      ...toRecord({ MessageId: 'm-3', ReceiptHandle: 'r', Body: job(bad) }),
      messageAttributes: { attempt: { dataType: 'Number', stringValue: '3' } },
    };
    expect(await worker({ Records: [third] })).toEqual({ batchItemFailures: [] });
    expect(resent.at(-1)).toEqual({ body: named(bad), delaySeconds: 300, attempt: 4 });

    // SQS itself unreachable: the record is reported failed and SQS delivers it again.
    const broken = createJobWorker(definition, {
      ...deps,
      queue: { ...deps.queue, sendAgain: async () => Promise.reject(new Error('SQS down')) },
    });
    expect(await broken({ Records: [toRecord({ MessageId: 'm-4', ReceiptHandle: 'r', Body: job(bad) })] })).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm-4' }],
    });
  });

  it('fails the command and dead-letters the job, with its reason, when its last attempt hits a fault', async () => {
    const command = await newCommand({ site_id: 'site-1', behaviour: 'crash' });
    startWorker();
    await send(job(command));
    expect(await terminal(command.id)).toMatchObject({ status: 'failed', error: { code: 'SYSTEM_ERROR' }, attempts: 5 });
    const dead = await eventually(
      async () => {
        const letters = await drainDeadLetters();
        return letters.length > 0 ? letters : undefined;
      },
      10_000,
      'the job in the dead-letter queue',
    );
    expect(dead).toEqual([{ body: named(command), reason: 'Gave up after 5 attempts: Error' }]);
    expect(effects.get(command.id)).toBe(5);
  });

  it.each([
    ['a progress write of its phase', 'huge-progress'],
    ['its ending (a result too large to store)', 'huge-result'],
  ])('fails the command at once, and dead-letters the job with the reason, when %s is refused as too large', async (_what, behaviour) => {
    const command = await newCommand({ site_id: 'site-1', behaviour });
    startWorker();
    await send(job(command));
    const ended = await terminal(command.id);
    expect(ended).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'SYSTEM_ERROR', message: expect.stringContaining('more data than can be stored') },
    });
    expect(ended.result).toBeUndefined();
    const dead = await eventually(
      async () => {
        const letters = await drainDeadLetters();
        return letters.length > 0 ? letters : undefined;
      },
      10_000,
      'the job in the dead-letter queue',
    );
    expect(dead).toEqual([
      {
        body: job(command),
        reason: expect.stringMatching(
          /^A write was refused as too large for DynamoDB's 400 KB item limit \(Item size (to update )?has exceeded the maximum allowed size\)$/,
        ),
      },
    ]);
    await eventually(async () => ((await queueDepth(queueUrl)) === 0 ? true : undefined), 10_000, 'queue to drain');
    expect(effects.get(command.id)).toBe(1);
  });

  it('fails, without its progress, a command whose item is too full to hold even its failure', async () => {
    const command = await newCommand({ site_id: 'site-1', behaviour: 'full-then-huge-result' });
    startWorker();
    await send(job(command));
    const ended = await terminal(command.id);
    expect(ended).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'SYSTEM_ERROR', message: expect.stringContaining('more data than can be stored') },
    });
    expect(ended.progress).toBeUndefined();
    expect((await drainDeadLetters()).map((letter) => letter.reason)).toEqual([expect.stringContaining('too large')]);
  });

  it('does not count a busy command against the job: it is queued again for when the lease runs out', async () => {
    const command = await newCommand({ site_id: 'site-1' });
    const now = Date.now();
    await commands.claim(command.id, { tenantId: 'tenant-a', type: 'lead_follow_up' }, now, now + 5_000);
    const resent: { delaySeconds: number; attempt: number }[] = [];
    const queue = {
      ...deps.queue,
      sendAgain: async (_queue: string, _body: string, delaySeconds: number, attempt: number) =>
        void resent.push({ delaySeconds, attempt }),
    };
    await processJobRecord(
      definition,
      { ...deps, queue },
      toRecord({ MessageId: 'm-busy', ReceiptHandle: 'r', Body: job(command) }) as never,
    );
    expect(resent).toEqual([{ delaySeconds: expect.any(Number), attempt: 1 }]);
    expect(resent[0]!.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(resent[0]!.delaySeconds).toBeLessThanOrEqual(7);
    expect(effects.get(command.id)).toBeUndefined();
  });

  it('runs the records of a batch at the same time', async () => {
    const [first, second] = [
      await newCommand({ site_id: 'site-1', behaviour: 'hang' }),
      await newCommand({ site_id: 'site-1', behaviour: 'hang' }),
    ];
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const parallel = {
      ...definition,
      async run({ command }: { command: { id: string } }) {
        started.push(command.id);
        await new Promise<void>((resolve) => releases.push(resolve));
        return { status: 'completed' as const, result: {} };
      },
    };
    const batch = createJobWorker(
      parallel,
      deps,
    )({ Records: [first, second].map((command, index) => toRecord({ MessageId: `p-${index}`, ReceiptHandle: 'r', Body: job(command) })) });
    await eventually(async () => (started.length === 2 ? true : undefined), 5_000, 'both records to start before either ends');
    releases.forEach((release) => release());
    expect(await batch).toEqual({ batchItemFailures: [] });
  });

  it('puts poison jobs on the dead-letter queue with their reason after one attempt', async () => {
    startWorker();
    await send('this is not json');
    await send(JSON.stringify({ version: 2, type: 'lead_follow_up', tenant_id: 't', request: {} }));
    await send(JSON.stringify({ version: 1, type: 'deep_research', tenant_id: 't', request: { site_id: 's' } }));
    await send(JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: 't', request: { behaviour: 'ok' } }));
    await send(JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: 't', command_id: newId(), request: { site_id: 's' } }));
    await eventually(async () => ((await queueDepth(dlqUrl)) >= 5 ? true : undefined), 10_000, 'five dead letters');
    const dead = await drainDeadLetters();
    expect(dead.map((letter) => letter.reason)).toEqual(
      expect.arrayContaining([
        'The message body is not JSON',
        expect.stringContaining('version'),
        expect.stringContaining('does not belong on the sales queue'),
        expect.stringContaining('request:'),
        expect.stringContaining('No command'),
      ]),
    );
    expect(dead.find((letter) => letter.reason === 'The message body is not JSON')?.body).toBe('this is not json');
    expect(await queueDepth(queueUrl)).toBe(0);
  });

  it('dead-letters, at the first attempt and with a reason, a job nested deeper than the limit', async () => {
    startWorker();
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    await send(
      JSON.stringify({
        version: 1,
        type: 'lead_follow_up',
        tenant_id: 'tenant-p',
        request: { site_id: 'site-9', nested: JSON.parse('[1]') },
      }).replace('[1]', deep),
    );
    const dead = await eventually(
      async () => {
        const letters = await drainDeadLetters();
        return letters.length > 0 ? letters : undefined;
      },
      10_000,
      'the deep job in the dead-letter queue',
    );
    expect(dead.map((letter) => letter.reason)).toEqual([expect.stringContaining('deeper than 64 levels')]);
    expect(await queueDepth(queueUrl)).toBe(0);
  });

  it("refuses a producer's job whose tenant is unknown or has no grant for the site: dead-lettered, no command created", async () => {
    startWorker();
    const before = effects.size;
    await send(
      JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: 'nobody', idempotency_key: 'u-1', request: { site_id: 'site-9' } }),
    );
    await send(
      JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: 'tenant-b', idempotency_key: 'u-2', request: { site_id: 'site-9' } }),
    );
    await eventually(async () => ((await queueDepth(dlqUrl)) >= 2 ? true : undefined), 10_000, 'two dead letters');
    const dead = await drainDeadLetters();
    expect(dead.map((letter) => letter.reason).sort()).toEqual(['Tenant nobody is unknown', 'Tenant tenant-b may not act on site site-9']);
    expect(effects.size).toBe(before);
    const idempotency = dynamoIdempotencyStore(services.db, services.aws.tableName);
    // No command id was ever reserved for either job: the keys are still free.
    for (const [tenantId, key] of [
      ['nobody', 'u-1'],
      ['tenant-b', 'u-2'],
    ] as const) {
      expect(
        await idempotency.claim({ tenantId, scope: 'lead_follow_up', key, bodyHash: 'h', commandId: newId(), now: Date.now() }),
      ).toEqual({ kind: 'first' });
    }
  });

  it("never lets a job take over another tenant's command, and runs a named command's stored request, not the job's", async () => {
    const strangers = await newCommand({ site_id: 'site-2', behaviour: 'hang' }, 'tenant-b');
    const own = await newCommand({ site_id: 'site-1' });
    startWorker();
    await send(
      JSON.stringify({
        version: 1,
        type: 'lead_follow_up',
        tenant_id: 'tenant-a',
        command_id: strangers.id,
        request: { site_id: 'site-1' },
      }),
    );
    await send(
      JSON.stringify({
        version: 1,
        type: 'lead_follow_up',
        tenant_id: 'tenant-a',
        command_id: own.id,
        request: { site_id: 'site-1', behaviour: 'app-error' },
      }),
    );
    expect(await terminal(own.id)).toMatchObject({ status: 'completed', request: { site_id: 'site-1' } });
    const dead = await eventually(
      async () => {
        const letters = await drainDeadLetters();
        return letters.length > 0 ? letters : undefined;
      },
      10_000,
      'the hijacking job in the dead-letter queue',
    );
    expect(dead.map((letter) => letter.reason)).toEqual([`Command ${strangers.id} is not a lead_follow_up command of tenant tenant-a`]);
    expect(await commands.get(strangers.id)).toMatchObject({ status: 'in_progress', attempts: 0, tenant_id: 'tenant-b' });
    expect(effects.get(strangers.id)).toBeUndefined();
  });

  it('runs each job in a trace span annotated with its command id', async () => {
    const command = await newCommand({ site_id: 'site-1' });
    const spans: { name: string; annotations: Record<string, string> }[] = [];
    const tracing = {
      captureClient: <Client>(client: Client) => client,
      span: <T>(name: string, annotations: Readonly<Record<string, string>>, work: () => Promise<T>) => {
        spans.push({ name, annotations: { ...annotations } });
        return work();
      },
    };
    await processJobRecord(
      definition,
      { ...deps, tracing },
      toRecord({ MessageId: 'm-trace', ReceiptHandle: 'r', Body: job(command) }) as never,
    );
    expect(spans).toEqual([{ name: '## lead_follow_up', annotations: { commandId: command.id } }]);
    expect(await commands.get(command.id)).toMatchObject({ status: 'completed' });
  });

  it("sends the job's span and the storage calls inside it to X-Ray's daemon, under the invocation's trace", async () => {
    const daemon = await startFakeXRayDaemon();
    const trace = { root: '1-67a1b2c3-00112233445566778899aabb', parent: 'a1b2c3d4e5f60718' };
    const tracing = xrayTracing({
      captureHttps: false,
      daemon: daemon.address,
      traceHeader: () => `Root=${trace.root};Parent=${trace.parent};Sampled=1`,
    });
    const traced = createDocumentClient({ endpoint: services.aws.dynamodbEndpoint, region: services.aws.region }, tracing.captureClient);
    try {
      const command = await newCommand({ site_id: 'site-1' });
      await processJobRecord(
        definition,
        { ...deps, commands: dynamoCommandStore(traced, services.aws.tableName), tracing },
        toRecord({ MessageId: 'm-xray', ReceiptHandle: 'r', Body: job(command) }) as never,
      );
      expect(await commands.get(command.id)).toMatchObject({ status: 'completed' });
      const documents = await eventually(
        async () => (daemon.documents.some((document) => document.name === '## lead_follow_up') ? daemon.documents : undefined),
        5_000,
        "the job's span",
      );
      const span = documents.find((document) => document.name === '## lead_follow_up')!;
      expect(span).toMatchObject({ trace_id: trace.root, parent_id: trace.parent, annotations: { commandId: command.id } });
      const calls = documents.filter((document) => document.namespace === 'aws');
      expect(calls.length).toBeGreaterThanOrEqual(2);
      for (const call of calls) {
        expect(call).toMatchObject({ name: 'DynamoDB', parent_id: span.id });
        const { table_name, table_names } = call.aws as { table_name?: string; table_names?: string };
        expect(table_name ?? table_names).toBe(services.aws.tableName);
      }
      expect(calls.map((call) => (call.aws as { operation: string }).operation)).toEqual(expect.arrayContaining(['UpdateItem']));
    } finally {
      tracing.stop();
      traced.destroy();
      await daemon.close();
    }
  });

  it("gives a producer's job without an idempotency key one command even when a fault makes it run again", async () => {
    startWorker();
    await send(
      JSON.stringify({ version: 1, type: 'lead_follow_up', tenant_id: 'tenant-p', request: { site_id: 'site-9', behaviour: 'crash' } }),
    );
    const failed = await eventually(
      async () => {
        const found = (await Promise.all([...effects.keys()].map((id) => commands.get(id)))).filter(
          (command) =>
            command?.request && (command.request as { behaviour?: string }).behaviour === 'crash' && command.tenant_id === 'tenant-p',
        );
        return found.length > 0 && found.every((command) => command!.status === 'failed') ? found : undefined;
      },
      15_000,
      'the producer command to fail after its attempts',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ attempts: 5 });
    expect(effects.get(failed[0]!.id)).toBe(5);
    await drainDeadLetters();
  });

  it("gives a producer's job one command, even when it is delivered twice", async () => {
    startWorker();
    const body = JSON.stringify({
      version: 1,
      type: 'lead_follow_up',
      tenant_id: 'tenant-p',
      idempotency_key: 'evt-42',
      request: { site_id: 'site-9' },
    });
    await send(body);
    await send(body);
    await eventually(async () => ((await queueDepth(queueUrl)) === 0 ? true : undefined), 10_000, 'queue to drain');
    const adopted = [...effects.keys()];
    const producerCommands = (await Promise.all(adopted.map((id) => commands.get(id)))).filter(
      (command) => command?.tenant_id === 'tenant-p' && command.idempotency_key === 'evt-42',
    );
    expect(producerCommands).toHaveLength(1);
    expect(producerCommands[0]).toMatchObject({ status: 'completed', site_id: 'site-9', idempotency_key: 'evt-42' });
    // The stored request is the parsed one (defaults applied, unknown fields dropped).
    expect(producerCommands[0]!.request).toEqual({ site_id: 'site-9', behaviour: 'ok' });
    expect(effects.get(producerCommands[0]!.id)).toBe(1);
  });
});

function toRecord(message: { MessageId?: string; ReceiptHandle?: string; Body?: string; Attributes?: Record<string, string> }) {
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn',
    awsRegion: 'us-east-1',
  };
}
