import { startLocalRuntime } from '../../infra/local/runtime';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { newId } from '../../shared/platform/ids';
import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { tempDir } from '../support/temp-dir';

const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const API_KEY = 'sbk_local-runtime-test-key-0001';

describe('local runtime with DATA_DIR', () => {
  it('keeps data and commands across a restart and finishes a command accepted before it', async () => {
    const dataDir = tempDir('data');
    const settings = { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined };

    const first = await startLocalRuntime({ port: 0, dataDir, apiKey: API_KEY, workers: false, settings });
    const accepted = await call(first.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: API_KEY,
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    });
    expect(accepted.status).toBe(202);
    const id = accepted.body.data?.command_id as string;
    await first.stop();

    const second = await startLocalRuntime({ port: 0, dataDir, apiKey: API_KEY, settings });
    try {
      const finished = await eventually(
        async () => {
          const read = await call(second.url, 'GET', `/api/commands/${id}`, { key: API_KEY });
          return read.body.data?.status === 'completed' ? read : undefined;
        },
        20_000,
        'the command from before the restart to complete',
      );
      expect(finished.body.data).toMatchObject({ command_id: id, type: 'lead_follow_up', messages: expect.any(Object) });
    } finally {
      await second.stop();
    }
  });
});

describe('local runtime schedules', () => {
  it('runs the command janitor, which finishes a command whose job never reached the queue', async () => {
    const runtime = await startLocalRuntime({
      port: 0,
      apiKey: API_KEY,
      scheduleEveryMs: 100,
      settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
    });
    try {
      const commands = dynamoCommandStore(
        createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' }),
        runtime.tableName,
      );
      const acceptedLongAgo = new Date(Date.now() - 20 * 60_000).toISOString();
      const id = newId();
      await commands.create({
        id,
        type: 'lead_follow_up',
        status: 'in_progress',
        tenant_id: runtime.tenantId,
        site_id: DEMO_SITE,
        request: { siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'channel_messages' },
        created_at: acceptedLongAgo,
        updated_at: acceptedLongAgo,
        attempts: 0,
      });
      const finished = await eventually(
        async () => {
          const read = await call(runtime.url, 'GET', `/api/commands/${id}`, { key: API_KEY });
          return read.body.data?.status === 'completed' ? read : undefined;
        },
        20_000,
        'the stranded command to be queued again and completed',
      );
      expect(finished.body.data).toMatchObject({ messages: expect.any(Object), generated_by: 'offline' });
    } finally {
      await runtime.stop();
    }
  });
});

describe('local runtime started without workers', () => {
  it('leaves jobs queued until startWorkers(), and shows each embedded-service call to onAwsRequest', async () => {
    const calls: string[] = [];
    const runtime = await startLocalRuntime({
      port: 0,
      apiKey: API_KEY,
      workers: false,
      scheduleEveryMs: 0,
      onAwsRequest: (service, operation) => calls.push(`${service}:${operation}`),
      settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
    });
    try {
      calls.length = 0;
      const accepted = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
        key: API_KEY,
        body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
      });
      expect(accepted.status).toBe(202);
      expect(calls).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'sqs:SendMessage']));
      const id = accepted.body.data?.command_id as string;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await call(runtime.url, 'GET', `/api/commands/${id}`, { key: API_KEY })).body.data?.status).toBe('in_progress');

      await runtime.startWorkers();
      await runtime.startWorkers();

      await eventually(
        async () => {
          const read = await call(runtime.url, 'GET', `/api/commands/${id}`, { key: API_KEY });
          return read.body.data?.status === 'completed' ? read : undefined;
        },
        20_000,
        'the queued command to complete once the workers run',
      );
      expect(calls).toContain('sqs:ReceiveMessage');
    } finally {
      await runtime.stop();
    }
  });
});
