import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startCommand, type StartDependencies } from '../../shared/commands/start';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import type { JobEnvelope } from '../../shared/commands/job';
import type { JobQueue } from '../../shared/commands/queue';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { systemClock } from '../../shared/platform/clock';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/** startCommand when the queue fails between the command's write and its job's send. */
let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

function flakyQueue(failures: number): JobQueue & { sent: JobEnvelope[] } {
  let left = failures;
  const queue = {
    sent: [] as JobEnvelope[],
    async send(_queue: string, job: JobEnvelope) {
      if (left-- > 0) throw new Error('SQS unreachable');
      queue.sent.push(job);
    },
    async sendToDeadLetter() {},
    async retryLater() {},
    async sendAgain() {},
  };
  return queue;
}

const depsWith = (queue: JobQueue): StartDependencies => ({
  commands: dynamoCommandStore(services.db, services.aws.tableName),
  idempotency: dynamoIdempotencyStore(services.db, services.aws.tableName),
  queue,
  clock: systemClock,
});

const input = { type: 'lead_follow_up' as const, tenantId: 't1', siteId: 's1', request: { a: 1 } };

describe('startCommand', () => {
  it('queues the job again when the caller retries with the same Idempotency-Key after a failed send', async () => {
    const queue = flakyQueue(1);
    const deps = depsWith(queue);
    const idempotency = { key: 'retry-me', bodyHash: 'h1' };
    await expect(startCommand(deps, { ...input, idempotency })).rejects.toThrow('SQS unreachable');
    const retry = await startCommand(deps, { ...input, idempotency });
    expect(retry.replayed).toBe(true);
    expect(queue.sent).toHaveLength(1);
    expect(queue.sent[0]).toMatchObject({ command_id: retry.command.id, type: 'lead_follow_up', version: 1 });
    expect(retry.command.status).toBe('in_progress');
    expect((await deps.commands.get(retry.command.id))?.enqueue_failed_at).toBeUndefined();
    await startCommand(deps, { ...input, idempotency });
    expect(queue.sent).toHaveLength(1);
  });

  it('closes a command it could not queue when no key lets the caller come back to it', async () => {
    const queue = flakyQueue(1);
    const deps = depsWith(queue);
    await expect(startCommand(deps, { ...input, tenantId: 'no-key-tenant' })).rejects.toThrow('SQS unreachable');
    const { Items } = await services.db.send(
      new ScanCommand({
        TableName: services.aws.tableName,
        FilterExpression: 'tenant_id = :t',
        ExpressionAttributeValues: { ':t': 'no-key-tenant' },
      }),
    );
    // The closed command, and its (empty) usage item, labelled by its terminal write.
    expect(Items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'SYSTEM_ERROR' }) }),
        expect.objectContaining({ sk: 'USAGE', type: 'lead_follow_up' }),
      ]),
    );
    expect(Items).toHaveLength(2);
    const next = await startCommand(deps, { ...input, tenantId: 'no-key-tenant' });
    expect(next.replayed).toBe(false);
    expect(queue.sent).toHaveLength(1);
  });

  it('queues nothing new on a replay of a healthy command, taken up or not', async () => {
    const queue = flakyQueue(0);
    const deps = depsWith(queue);
    const idempotency = { key: 'healthy', bodyHash: 'h3' };
    const first = await startCommand(deps, { ...input, idempotency });
    const replay = await startCommand(deps, { ...input, idempotency });
    expect(replay).toMatchObject({ replayed: true, command: { id: first.command.id } });
    expect(queue.sent).toHaveLength(1);
  });

  it('queues nothing new on a replay of a command a worker already took up', async () => {
    const queue = flakyQueue(0);
    const deps = depsWith(queue);
    const idempotency = { key: 'taken', bodyHash: 'h2' };
    const first = await startCommand(deps, { ...input, idempotency });
    await deps.commands.claim(first.command.id, { tenantId: 't1', type: 'lead_follow_up' }, Date.now(), Date.now() + 60_000);
    const replay = await startCommand(deps, { ...input, idempotency });
    expect(replay.command.id).toBe(first.command.id);
    expect(queue.sent).toHaveLength(1);
  });
});
