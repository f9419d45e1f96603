import { Logger } from '@aws-lambda-powertools/logger';
import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { sqsEventOf } from '../../infra/local/sqs-poller';
import { QUEUES } from '../../shared/catalogue/job-types';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { DEAD_LETTER_REASON_ATTRIBUTE } from '../../shared/commands/queue';
import { sqsJobQueue } from '../../shared/commands/sqs-queue';
import type { StoredCommand } from '../../shared/commands/record';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { processJobRecord, type JobDefinition, type WorkerDependencies } from '../../shared/commands/worker';
import { systemClock } from '../../shared/platform/clock';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { newId } from '../../shared/platform/ids';
import { eventually } from '../support/embedded';
import { inMemoryTenants } from '../unit/lead-follow-up/fixtures';
import { tempDir } from '../support/temp-dir';

/**
 * The local runtime with DATA_DIR keeps commands across a restart but not
 * its in-memory SQS: at start it queues every unfinished command's job
 * again. A job whose phase keeps hitting an infrastructure fault must not
 * get its attempts back at each restart (it would never fail): it carries
 * the attempts its command was already taken up for, and a command whose
 * attempts ran out before the restart is failed without running again.
 * The runtime's own workers are off; a worker with a phase that always
 * fails takes the sales jobs here, one message at a time.
 */
const SETTINGS = { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined };
const MAX_RECEIVE_COUNT = QUEUES.find((queue) => queue.id === 'sales')!.maxReceiveCount;

const runs = new Map<string, number>();
const failingPhase: JobDefinition<{ site_id: string }, unknown> = {
  type: 'lead_follow_up',
  kind: { type: 'lead_follow_up', request: z.object({ site_id: z.string() }), progress: z.unknown() },
  siteIdOf: (request) => request.site_id,
  async run({ command }) {
    runs.set(command.id, (runs.get(command.id) ?? 0) + 1);
    throw new Error('storage unreachable');
  },
};

let dataDir: string;
let runtime: LocalRuntime | undefined;

beforeEach(async () => {
  dataDir = tempDir('restart');
  runtime = await start();
});
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

const start = () => startLocalRuntime({ port: 0, dataDir, workers: false, scheduleEveryMs: 0, settings: SETTINGS });

async function restart(): Promise<LocalRuntime> {
  await runtime!.stop();
  runtime = await start();
  return runtime;
}

/** The runtime's table, queues and a worker running the failing phase with no back-off. */
function harness(local: LocalRuntime) {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const db = createDocumentClient({ endpoint: local.dynamodbEndpoint, region: 'us-east-1', credentials });
  const sqs = new SQSClient({ endpoint: local.sqsEndpoint, region: 'us-east-1', credentials });
  const commands = dynamoCommandStore(db, local.tableName);
  const urls = {
    queues: Object.fromEntries(QUEUES.map((queue) => [queue.id, local.queues[queue.id].url])),
    deadLetterQueues: Object.fromEntries(QUEUES.map((queue) => [queue.id, local.queues[queue.id].dlqUrl])),
  };
  const deps: WorkerDependencies = {
    commands,
    idempotency: dynamoIdempotencyStore(db, local.tableName),
    tenants: inMemoryTenants({}),
    queue: sqsJobQueue(sqs, urls),
    clock: systemClock,
    logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
    leaseMs: 60_000,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    retryDelaysSeconds: [0],
  };
  const receive = (queueUrl: string) =>
    eventually(
      async () => {
        const { Messages } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, AttributeNames: ['All'], MessageAttributeNames: ['All'], WaitTimeSeconds: 0 }),
        );
        return Messages?.[0];
      },
      5_000,
      'a job on the queue',
    );
  const done = (queueUrl: string, message: Message) =>
    sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
  const salesUrl = local.queues.sales.url;
  return {
    commands,
    /** Takes the next sales job and runs it, as the poller would (the message is deleted once handled). */
    async runNextJob(): Promise<void> {
      const message = await receive(salesUrl);
      const [record] = sqsEventOf([message], {
        queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-sales',
        region: 'us-east-1',
      }).Records;
      await processJobRecord(failingPhase, deps, record!);
      await done(salesUrl, message);
    },
    /** A worker took the next sales job and its command, then its process died. */
    async dieHoldingNextJob(commandId: string): Promise<void> {
      await receive(salesUrl);
      const now = Date.now();
      expect((await commands.claim(commandId, { tenantId: local.tenantId, type: 'lead_follow_up' }, now, now + 60_000)).kind).toBe(
        'claimed',
      );
    },
    async deadLetterReasons(): Promise<(string | undefined)[]> {
      const message = await receive(local.queues.sales.dlqUrl);
      return [message.MessageAttributes?.[DEAD_LETTER_REASON_ATTRIBUTE]?.StringValue];
    },
    async depth(queueUrl: string): Promise<number> {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
        }),
      );
      return (
        Number(Attributes.ApproximateNumberOfMessages) +
        Number(Attributes.ApproximateNumberOfMessagesNotVisible) +
        Number(Attributes.ApproximateNumberOfMessagesDelayed)
      );
    },
    close() {
      sqs.destroy();
      db.destroy();
    },
  };
}

/** A lead follow-up in progress, as the API stores it (its job is lost with the in-memory queue at the restart that follows). */
function unfinished(local: LocalRuntime, id: string, fields: Partial<StoredCommand> = {}): StoredCommand {
  const at = new Date().toISOString();
  return {
    id,
    type: 'lead_follow_up',
    status: 'in_progress',
    tenant_id: local.tenantId,
    request: { site_id: 'site-1' },
    created_at: at,
    updated_at: at,
    attempts: 0,
    ...fields,
  };
}

describe('attempts across a restart of the local runtime (DATA_DIR)', () => {
  it('are kept: a job that keeps failing ends failed after its attempts in all, not as many again after each restart', async () => {
    const id = newId();
    let local = harness(runtime!);
    expect(await local.commands.create(unfinished(runtime!, id))).toBe(true);
    local.close();

    // Its job is queued by the restart (the in-memory queue had nothing): two attempts, then another restart.
    runtime = await restart();
    local = harness(runtime);
    await local.runNextJob();
    await local.runNextJob();
    expect(await local.commands.get(id)).toMatchObject({ status: 'in_progress', attempts: 2 });
    local.close();

    runtime = await restart();
    local = harness(runtime);
    for (let job = 0; job < MAX_RECEIVE_COUNT && (await local.commands.get(id))?.status === 'in_progress'; job++) await local.runNextJob();
    expect(await local.commands.get(id)).toMatchObject({ status: 'failed', error: { code: 'SYSTEM_ERROR' }, attempts: MAX_RECEIVE_COUNT });
    expect(runs.get(id)).toBe(MAX_RECEIVE_COUNT);
    expect(await local.deadLetterReasons()).toEqual([`Gave up after ${MAX_RECEIVE_COUNT} attempts: Error`]);
    expect(await local.depth(runtime.queues.sales.url)).toBe(0);
    local.close();
  }, 60_000);

  it('once used up before the restart, fail the command without running it again', async () => {
    const id = newId();
    let local = harness(runtime!);
    expect(await local.commands.create(unfinished(runtime!, id))).toBe(true);
    local.close();
    runtime = await restart();
    local = harness(runtime);
    for (let job = 1; job < MAX_RECEIVE_COUNT; job++) await local.runNextJob();
    // Its last attempt kills the process (a job that crashes its worker would do so at every start).
    await local.dieHoldingNextJob(id);
    expect(await local.commands.get(id)).toMatchObject({ status: 'in_progress', attempts: MAX_RECEIVE_COUNT });
    local.close();

    runtime = await restart();
    local = harness(runtime);
    await local.runNextJob();
    expect(await local.commands.get(id)).toMatchObject({ status: 'failed', error: { code: 'SYSTEM_ERROR' } });
    expect(runs.get(id)).toBe(MAX_RECEIVE_COUNT - 1);
    expect(await local.deadLetterReasons()).toEqual([`Gave up: its ${MAX_RECEIVE_COUNT} attempts were used before this one`]);
    local.close();
  }, 60_000);

  it("leave a command whose later phase is still in progress to that phase: only the child's job is queued", async () => {
    const local = harness(runtime!);
    const [parent, child] = [newId(), newId()];
    expect(await local.commands.create(unfinished(runtime!, parent, { attempts: 1, child_ids: [child] }))).toBe(true);
    expect(await local.commands.create(unfinished(runtime!, child, { type: 'copywriter', parent_id: parent }))).toBe(true);
    local.close();

    runtime = await restart();
    const after = harness(runtime);
    expect(await after.depth(runtime.queues.copywriter.url)).toBe(1);
    expect(await after.depth(runtime.queues.sales.url)).toBe(0);
    after.close();
  }, 60_000);
});
