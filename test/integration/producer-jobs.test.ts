import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { DEAD_LETTER_REASON_ATTRIBUTE } from '../../shared/commands/queue';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { eventually } from '../support/embedded';
import { call } from '../support/http';

/** The job contract for event producers, as docs/producers.md documents it, against the local runtime. */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let runtime: LocalRuntime;
let sqs: SQSClient;

beforeAll(async () => {
  runtime = await startLocalRuntime({ port: 0, settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined } });
  sqs = new SQSClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1' });
});
afterAll(async () => {
  sqs.destroy();
  await runtime.stop();
});

const produce = (job: unknown) =>
  sqs.send(new SendMessageCommand({ QueueUrl: runtime.queues.sales.url, MessageBody: JSON.stringify(job) }));

async function commandsWithKey(key: string): Promise<Record<string, unknown>[]> {
  const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
  const { Items } = await db.send(
    new ScanCommand({
      TableName: runtime.tableName,
      FilterExpression: 'begins_with(pk, :p) AND idempotency_key = :k',
      ExpressionAttributeValues: { ':p': 'CMD#', ':k': key },
    }),
  );
  db.destroy();
  return Items ?? [];
}

describe('jobs dropped on the sales queue by a producer', () => {
  it('get one command, run it, and are readable by a key of their tenant', async () => {
    const job = {
      version: 1,
      type: 'lead_follow_up',
      idempotency_key: 'crm-event-8812',
      tenant_id: runtime.tenantId,
      request: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    };
    await produce(job);
    await produce(job);
    const [command] = await eventually(
      async () => {
        const found = await commandsWithKey('crm-event-8812');
        return found.length > 0 && found.every((item) => item.status === 'completed') ? found : undefined;
      },
      20_000,
      'the producer job to complete',
    );
    expect(await commandsWithKey('crm-event-8812')).toHaveLength(1);
    const read = await call(runtime.url, 'GET', `/api/commands/${String(command!.id)}`, { key: runtime.apiKey });
    expect(read.body.data).toMatchObject({ type: 'lead_follow_up', status: 'completed', messages: expect.any(Object) });

    // The producer finds its command over HTTP: the same request with its idempotency_key as Idempotency-Key replays it.
    const found = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { 'idempotency-key': 'crm-event-8812' },
      body: job.request,
    });
    expect(found.status).toBe(200);
    expect(found.body.data?.command_id).toBe(command!.id);
    expect(await commandsWithKey('crm-event-8812')).toHaveLength(1);
  });

  it('that fail a data check end as a failed command with its code', async () => {
    await produce({
      version: 1,
      type: 'lead_follow_up',
      idempotency_key: 'crm-event-unknown-lead',
      tenant_id: runtime.tenantId,
      request: { siteId: DEMO_SITE, leadId: '0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f' },
    });
    const [command] = await eventually(
      async () => {
        const found = await commandsWithKey('crm-event-unknown-lead');
        return found[0]?.status === 'failed' ? found : undefined;
      },
      20_000,
      'the producer job to fail',
    );
    expect(command).toMatchObject({ error: { code: 'LEAD_NOT_FOUND' } });
  });

  it('that can never be valid go to the dead-letter queue with the reason', async () => {
    await produce({ version: 1, type: 'lead_follow_up', tenant_id: runtime.tenantId, request: { siteId: 'not-a-uuid' } });
    const letter = await eventually(
      async () => {
        const { Messages } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: runtime.queues.sales.dlqUrl, MessageAttributeNames: ['All'] }),
        );
        return Messages?.[0];
      },
      20_000,
      'a dead letter',
    );
    expect(letter.MessageAttributes?.[DEAD_LETTER_REASON_ATTRIBUTE]?.StringValue).toMatch(/INVALID_REQUEST|INVALID_INPUT/);
  });
});
