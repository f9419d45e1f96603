import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { readCommandFor } from '../../shared/api/get-command';
import { TABLE } from '../../shared/catalogue/table';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { DEFAULT_COMMAND_RETENTION_DAYS, readCommandRetention } from '../../shared/commands/retention';
import { startCommand, type StartDependencies } from '../../shared/commands/start';
import { commandKey } from '../../shared/commands/store';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { newId } from '../../shared/platform/ids';
import { eventually } from '../support/embedded';
import { call } from '../support/http';

/** Commands hold a lead's personal data: each is deleted through the table's TTL once its retention has run out. */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

let runtime: LocalRuntime;
let db: DynamoDBDocumentClient;
beforeAll(async () => {
  runtime = await startLocalRuntime({ port: 0, settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, COMMAND_RETENTION_DAYS: '7' } });
  db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
});
afterAll(async () => {
  db.destroy();
  await runtime.stop();
});

/** The command's item as the table holds it. */
async function storedItem(id: string): Promise<Record<string, unknown>> {
  const { Item } = await db.send(new GetCommand({ TableName: runtime.tableName, Key: commandKey(id) }));
  if (!Item) throw new Error(`No item for command ${id}`);
  return Item;
}

/** The TTL value `days` after an ISO time, in epoch seconds. */
const expiryAfter = (iso: string, days: number) => Math.floor((Date.parse(iso) + days * DAY) / 1000);

describe('COMMAND_RETENTION_DAYS', () => {
  it('is 90 days unless set, and must be a whole number of days from 1 to 3650', () => {
    expect(DEFAULT_COMMAND_RETENTION_DAYS).toBe(90);
    expect(readCommandRetention({})).toEqual({ commandRetentionMs: 90 * DAY });
    expect(readCommandRetention({ COMMAND_RETENTION_DAYS: '30' })).toEqual({ commandRetentionMs: 30 * DAY });
    for (const bad of ['0', '1.5', 'ninety', '3651'])
      expect(() => readCommandRetention({ COMMAND_RETENTION_DAYS: bad })).toThrow('COMMAND_RETENTION_DAYS');
  });
});

/** Ports of startCommand on the runtime's table, at NOW, with a queue that takes every job. */
const startDeps = (retention?: number): StartDependencies => ({
  commands: dynamoCommandStore(db, runtime.tableName),
  idempotency: dynamoIdempotencyStore(db, runtime.tableName),
  queue: { send: async () => undefined },
  clock: { now: () => NOW },
  ...(retention === undefined ? {} : { commandRetentionMs: retention }),
});

describe('startCommand', () => {
  const deps = startDeps;
  const input = { type: 'lead_follow_up' as const, tenantId: 'retention', siteId: DEMO_SITE, request: { a: 1 } };

  it("writes the table's TTL attribute on every new command: creation plus the retention, in epoch seconds", async () => {
    const { command } = await startCommand(deps(7 * DAY), input);
    const { command: child } = await startCommand(deps(7 * DAY), { ...input, type: 'copywriter', id: newId(), parentId: command.id });
    for (const id of [command.id, child.id]) expect((await storedItem(id))[TABLE.ttlAttribute]).toBe((NOW + 7 * DAY) / 1000);
    expect(TABLE.ttlAttribute).toBe('expires_at');
  });

  it('keeps a command 90 days when its starter names no retention', async () => {
    const { command } = await startCommand(deps(), input);
    expect((await storedItem(command.id)).expires_at).toBe((NOW + 90 * DAY) / 1000);
  });
});

describe('reading a command past its retention', () => {
  it('answers COMMAND_NOT_FOUND even while the table has not yet deleted it (TTL deletion is lazy)', async () => {
    const eightDaysAgo = { now: () => Date.now() - 8 * DAY };
    const { command } = await startCommand(
      { ...startDeps(7 * DAY), clock: eightDaysAgo },
      { type: 'lead_follow_up', tenantId: runtime.tenantId, siteId: DEMO_SITE, request: {} },
    );
    const principal = { tenantId: runtime.tenantId, siteIds: [DEMO_SITE], keyId: 'k' };
    const store = dynamoCommandStore(db, runtime.tableName);
    await expect(readCommandFor(store, principal, command.id)).rejects.toMatchObject({ code: 'COMMAND_NOT_FOUND' });
    expect(await readCommandFor(store, principal, command.id, Date.now() - 2 * DAY)).toMatchObject({ id: command.id });
    expect((await call(runtime.url, 'GET', `/api/commands/${command.id}`, { key: runtime.apiKey })).body.error?.code).toBe(
      'COMMAND_NOT_FOUND',
    );
  });
});

describe('the local runtime with COMMAND_RETENTION_DAYS=7', () => {
  it('gives an API command and its copywriter child 7 days', async () => {
    const answer = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20' },
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    });
    expect(answer.status).toBe(200);
    const parent = await storedItem(String(answer.body.data?.command_id));
    const childIds = parent.child_ids as string[];
    expect(childIds).toHaveLength(1);
    const child = await storedItem(childIds[0]!);
    expect(parent.expires_at).toBe(expiryAfter(String(parent.created_at), 7));
    expect(child.expires_at).toBe(expiryAfter(String(child.created_at), 7));
  });

  it("gives a producer's job's command 7 days", async () => {
    const sqs = new SQSClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1' });
    const job = {
      version: 1,
      type: 'lead_follow_up',
      idempotency_key: 'retention-job',
      tenant_id: runtime.tenantId,
      request: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    };
    await sqs.send(new SendMessageCommand({ QueueUrl: runtime.queues.sales.url, MessageBody: JSON.stringify(job) }));
    sqs.destroy();
    const command = await eventually(
      async () => {
        const { Items } = await db.send(
          new ScanCommand({
            TableName: runtime.tableName,
            FilterExpression: 'begins_with(pk, :p) AND idempotency_key = :k',
            ExpressionAttributeValues: { ':p': 'CMD#', ':k': 'retention-job' },
          }),
        );
        return Items?.[0];
      },
      20_000,
      "the producer job's command",
    );
    expect(command.expires_at).toBe(expiryAfter(String(command.created_at), 7));
  });
});
