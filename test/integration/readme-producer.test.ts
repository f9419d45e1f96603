import { readFile } from 'node:fs/promises';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { eventually } from '../support/embedded';
import { call } from '../support/http';

/**
 * docs/producers.md, as written: its settings, its job on
 * the sales queue (sent with the SDK, as the `aws` CLI would), then its curl
 * with the same Idempotency-Key finds the job's command instead of making a
 * second one.
 */
const PAGE = new URL('../../docs/producers.md', import.meta.url);

interface Walkthrough {
  env: Record<string, string>;
  queuePath: string;
  messageBody: string;
  idempotencyKey: string;
  postBody: string;
  script: string;
}

async function readWalkthrough(): Promise<Walkthrough> {
  const section = await readFile(PAGE, 'utf8');
  const script = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!script) throw new Error('docs/producers.md has no sh block');
  const pick = (pattern: RegExp, what: string) => {
    const found = pattern.exec(script)?.[1];
    if (found === undefined) throw new Error(`The walkthrough shows no ${what}`);
    return found;
  };
  const env: Record<string, string> = {};
  for (const line of script.split('\n').filter((candidate) => candidate.startsWith('export '))) {
    for (const [, name, value] of line.matchAll(/\b(AWS_[A-Z_]+)=(\S+)/g)) env[name!] = value!;
  }
  return {
    env,
    queuePath: pick(/--queue-url "\$SQS(\/[^"]+)"/, 'queue URL under $SQS'),
    messageBody: pick(/--message-body '([^']+)'/, 'message body'),
    idempotencyKey: pick(/-H 'Idempotency-Key: ([^']+)'/, 'Idempotency-Key'),
    postBody: pick(/curl[^\n]*leadFollowUp[\s\S]*?-d '([^']+)'/, 'POST body'),
    script,
  };
}

let runtime: LocalRuntime;
let walkthrough: Walkthrough;

beforeAll(async () => {
  walkthrough = await readWalkthrough();
  runtime = await startLocalRuntime({ port: 0, scheduleEveryMs: 0, settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined } });
});
afterAll(() => runtime?.stop());

async function commandsWithKey(key: string): Promise<Record<string, unknown>[]> {
  const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
  try {
    const { Items } = await db.send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: 'begins_with(pk, :p) AND idempotency_key = :k',
        ExpressionAttributeValues: { ':p': 'CMD#', ':k': key },
      }),
    );
    return Items ?? [];
  } finally {
    db.destroy();
  }
}

describe('docs/producers.md: jobs from event producers', () => {
  it('shows a region, credentials and the endpoint the aws CLI needs, and the queue URL the banner prints', () => {
    expect(Object.keys(walkthrough.env)).toEqual(
      expect.arrayContaining(['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']),
    );
    expect(walkthrough.script).toContain('--endpoint-url "$SQS"');
    expect(`${runtime.sqsEndpoint}${walkthrough.queuePath}`).toBe(runtime.queues.sales.url);
  });

  it("acts for the banner key's tenant", () => {
    expect(JSON.parse(walkthrough.messageBody)).toMatchObject({ tenant_id: runtime.tenantId });
    expect(runtime.tenantId).toBe('local');
  });

  it("finds the job's command with the same Idempotency-Key, and makes no second one", async () => {
    const sqs = new SQSClient({
      endpoint: runtime.sqsEndpoint,
      region: walkthrough.env.AWS_REGION,
      credentials: { accessKeyId: walkthrough.env.AWS_ACCESS_KEY_ID!, secretAccessKey: walkthrough.env.AWS_SECRET_ACCESS_KEY! },
    });
    try {
      await sqs.send(
        new SendMessageCommand({ QueueUrl: `${runtime.sqsEndpoint}${walkthrough.queuePath}`, MessageBody: walkthrough.messageBody }),
      );
    } finally {
      sqs.destroy();
    }
    const [jobCommand] = await eventually(
      async () => {
        const found = await commandsWithKey(walkthrough.idempotencyKey);
        return found.length > 0 ? found : undefined;
      },
      20_000,
      "the producer job's command",
    );

    const found = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { 'idempotency-key': walkthrough.idempotencyKey, 'content-type': 'application/json' },
      rawBody: walkthrough.postBody,
    });
    expect([200, 202]).toContain(found.status);
    expect(found.body.data?.command_id).toBe(jobCommand!.id);
    expect(await commandsWithKey(walkthrough.idempotencyKey)).toHaveLength(1);
  });
});
