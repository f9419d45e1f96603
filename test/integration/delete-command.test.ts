import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { generateApiKey } from '../../shared/access/api-keys';
import { commandKey } from '../../shared/commands/store';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { call } from '../support/http';
import { eventually } from '../support/embedded';

/** DELETE /api/commands/{id}: erasing a command (a lead's personal data) and its child phases, end to end. */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const ROUTE = '/api/agents/sales/leadFollowUp';

let runtime: LocalRuntime;
const otherTenantKey = generateApiKey();
beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    apiKeys: { [otherTenantKey]: [DEMO_SITE] },
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
});
afterAll(() => runtime.stop());

/** A completed lead follow-up (sales, then copywriter): its id and its child's. */
async function completedCommand(headers: Record<string, string> = {}): Promise<{ id: string; childId: string; createdAt: string }> {
  const answer = await call(runtime.url, 'POST', ROUTE, {
    key: runtime.apiKey,
    headers: { prefer: 'wait=20', ...headers },
    body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
  });
  expect(answer.status).toBe(200);
  const id = String(answer.body.data?.command_id);
  const read = await call(runtime.url, 'GET', `/api/commands/${id}`, { key: runtime.apiKey });
  const childIds = read.body.data?.child_ids as string[];
  expect(childIds).toHaveLength(1);
  return { id, childId: childIds[0]!, createdAt: String(read.body.data?.created_at) };
}

async function inTable(id: string): Promise<boolean> {
  const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
  const { Item } = await db.send(new GetCommand({ TableName: runtime.tableName, Key: commandKey(id), ConsistentRead: true }));
  db.destroy();
  return Item !== undefined;
}

/** Waits until the sales queue holds no job, visible, in flight or delayed. */
async function salesQueueDrained(): Promise<void> {
  const sqs = new SQSClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1' });
  const counts = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'] as const;
  try {
    await eventually(
      async () => {
        const { Attributes = {} } = await sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: runtime.queues.sales.url, AttributeNames: [...counts] }),
        );
        return counts.every((name) => Number(Attributes[name] ?? '0') === 0) ? true : undefined;
      },
      15_000,
      'the sales queue to drain',
    );
  } finally {
    sqs.destroy();
  }
}

describe('DELETE /api/commands/{id}', () => {
  it('erases a completed command and its child phase; reading either then answers 404', async () => {
    const { id, childId } = await completedCommand();

    const deleted = await call(runtime.url, 'DELETE', `/api/commands/${id.toUpperCase()}`, { key: runtime.apiKey });

    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: { command_id: id, deleted: true, deleted_ids: [id, childId] } });
    for (const gone of [id, childId]) {
      const read = await call(runtime.url, 'GET', `/api/commands/${gone}`, { key: runtime.apiKey });
      expect([read.status, read.body.error?.code]).toEqual([404, 'COMMAND_NOT_FOUND']);
      expect(await inTable(gone)).toBe(false);
    }
    const again = await call(runtime.url, 'DELETE', `/api/commands/${id}`, { key: runtime.apiKey });
    expect([again.status, again.body.error?.code]).toEqual([404, 'COMMAND_NOT_FOUND']);
  });

  it("answers another tenant's command 404 COMMAND_NOT_FOUND and deletes nothing", async () => {
    const { id, childId } = await completedCommand();

    for (const target of [id, childId]) {
      const refused = await call(runtime.url, 'DELETE', `/api/commands/${target}`, { key: otherTenantKey });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ success: false, error: { code: 'COMMAND_NOT_FOUND', message: `Command ${target} was not found.` } });
    }
    expect((await call(runtime.url, 'GET', `/api/commands/${id}`, { key: runtime.apiKey })).body.data).toMatchObject({
      status: 'completed',
      child_ids: [childId],
    });
    expect(await inTable(childId)).toBe(true);
  });

  it('answers a missing or malformed id 404, and no key 401', async () => {
    for (const path of ['/api/commands/0190a5e0-0000-7000-8000-000000000000', '/api/commands/not-a-uuid']) {
      expect((await call(runtime.url, 'DELETE', path, { key: runtime.apiKey })).body.error?.code).toBe('COMMAND_NOT_FOUND');
    }
    expect((await call(runtime.url, 'DELETE', '/api/commands/0190a5e0-0000-7000-8000-000000000000')).status).toBe(401);
  });

  it('never brings a deleted command back: replaying its Idempotency-Key runs the request again as a new command', async () => {
    const first = await completedCommand({ 'idempotency-key': 'erase-then-replay' });
    expect((await call(runtime.url, 'DELETE', `/api/commands/${first.id}`, { key: runtime.apiKey })).status).toBe(200);

    const replay = await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20', 'idempotency-key': 'erase-then-replay' },
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    });

    expect(replay.status).toBe(200);
    const read = await call(runtime.url, 'GET', `/api/commands/${first.id}`, { key: runtime.apiKey });
    expect(read.body.data).toMatchObject({ command_id: first.id, status: 'completed' });
    expect(read.body.data?.created_at).not.toBe(first.createdAt);
    expect(read.body.data?.child_ids).not.toEqual([first.childId]);
  });

  it('sticks while the worker runs: sequences erased 0-400 ms after acceptance leave no follow-up behind', async () => {
    const erased: string[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        const accepted = await call(runtime.url, 'POST', ROUTE, {
          key: runtime.apiKey,
          body: { siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'follow_up_sequence', followUpInterval: '2 days' },
        });
        expect(accepted.status).toBe(202);
        const id = String(accepted.body.data?.command_id);
        await new Promise((resolve) => setTimeout(resolve, index * 80));
        const deleted = await call(runtime.url, 'DELETE', `/api/commands/${id}`, { key: runtime.apiKey });
        expect(deleted.status).toBe(200);
        erased.push(id);
      }),
    );
    await salesQueueDrained();

    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    const { Items } = await db.send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: 'begins_with(pk, :steps)',
        ExpressionAttributeValues: { ':steps': 'FOLLOWUP#' },
      }),
    );
    db.destroy();
    expect((Items ?? []).filter((item) => erased.includes(String(item.command_id)))).toEqual([]);
    for (const id of erased) expect(await inTable(id)).toBe(false);
    const listed = await call(runtime.url, 'GET', `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}`, { key: runtime.apiKey });
    expect(JSON.stringify(listed.body)).not.toMatch(new RegExp(erased.join('|')));
  });

  it('is offered beside GET on a command path (405 Allow for other methods)', async () => {
    const answer = await call(runtime.url, 'PATCH', '/api/commands/0190a5e0-0000-7000-8000-000000000000', {
      key: runtime.apiKey,
      body: {},
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, DELETE');
  });
});
