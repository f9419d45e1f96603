import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { newId } from '../../../shared/platform/ids';
import { verifyWebhookSignature } from '../../../shared/webhooks/signature';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { captureOutput } from '../../support/capture-output';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';

/**
 * Commands that fail are told as `command.failed`: one a worker ends (the
 * model's quota is gone) and one the janitor ends (stuck past its deadline).
 * The whole run logs at DEBUG, as JSON: no signing secret reaches a log line,
 * an error or a GET answer, including across a rotation.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let openai: OpenAiFake;
let receiver: WebhookReceiver;

beforeAll(async () => {
  openai = await startOpenAiFake();
  openai.respondWith(() => ({
    status: 429,
    error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
  }));
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await openai.close();
  await receiver.close();
});

const failedFor = (commandId: string) => (item: ReceivedWebhook) =>
  item.body.type === 'command.failed' && (item.body.data.command as { command_id?: string }).command_id === commandId;

describe('commands that fail', () => {
  it('are told as command.failed, from a worker and from the janitor, and no secret is ever logged or shown', async () => {
    const secrets: string[] = [];
    let runtime: LocalRuntime | undefined;
    const output = await captureOutput(async () => {
      runtime = await startLocalRuntime({
        port: 0,
        scheduleEveryMs: 250,
        settings: {
          LOG_LEVEL: 'DEBUG',
          LOG_FORMAT: 'json',
          OPENAI_API_KEY: 'sk-webhooks-test-key-0123456789',
          OPENAI_BASE_URL: openai.baseUrl,
          WEBHOOK_RETRY_DELAYS: '1',
        },
      });
      try {
        const rt = runtime;
        const registered = await call(rt.url, 'POST', '/api/webhooks', {
          key: rt.apiKey,
          body: { url: `${receiver.url}/failures`, events: ['command.failed'] },
        });
        expect(registered.status).toBe(201);
        const id = String(registered.body.data?.id);
        secrets.push(String(registered.body.data?.secret));
        // Rotated: deliveries carry a signature for each secret for the next 24 hours.
        const rotated = await call(rt.url, 'POST', `/api/webhooks/${id}/rotate-secret`, { key: rt.apiKey });
        secrets.push(String(rotated.body.data?.secret));

        // A worker fails the command: the model's quota is exhausted.
        const answer = await call(rt.url, 'POST', '/api/agents/sales/leadFollowUp', {
          key: rt.apiKey,
          body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
          headers: { prefer: 'wait=20' },
        });
        expect(answer.status).toBe(500);
        const failedId = String(answer.headers.get('location')).split('/').at(-1)!;
        const [told] = await eventually(
          async () => {
            const found = receiver.received.filter(failedFor(failedId));
            return found.length > 0 ? found : undefined;
          },
          15_000,
          'command.failed from the worker',
        );
        const read = await call(rt.url, 'GET', `/api/commands/${failedId}`, { key: rt.apiKey });
        // All of GET's answer but its usage, which goes on growing after the end.
        const { usage: _usage, ...readWithoutUsage } = read.body.data!;
        expect(told!.body.data.command).toEqual(readWithoutUsage);
        expect(read.body.data).toMatchObject({ status: 'failed', error: { code: 'SALES_COMMAND_FAILED' } });
        const header = String(told!.headers['switchboard-signature']);
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
        expect(verifyWebhookSignature(secrets[0]!, header, told!.rawBody)).toBe(true);
        expect(verifyWebhookSignature(secrets[1]!, header, told!.rawBody)).toBe(true);

        // The janitor fails a command stuck for hours.
        const commands = dynamoCommandStore(createDocumentClient({ endpoint: rt.dynamodbEndpoint, region: 'us-east-1' }), rt.tableName);
        const longAgo = new Date(Date.now() - 3 * 3600_000).toISOString();
        const stuckId = newId();
        await commands.create({
          id: stuckId,
          type: 'deep_research',
          status: 'in_progress',
          tenant_id: rt.tenantId,
          request: { query: 'stuck' },
          created_at: longAgo,
          updated_at: longAgo,
          attempts: 0,
        });
        const [janitor] = await eventually(
          async () => {
            const found = receiver.received.filter(failedFor(stuckId));
            return found.length > 0 ? found : undefined;
          },
          15_000,
          'command.failed from the janitor',
        );
        expect(janitor!.body.data.command).toMatchObject({
          command_id: stuckId,
          type: 'deep_research',
          status: 'failed',
          error: { code: 'SYSTEM_ERROR' },
        });

        // What the API shows never holds a secret.
        for (const path of ['/api/webhooks', `/api/webhooks/${id}/deliveries`]) {
          const shown = await call(rt.url, 'GET', path, { key: rt.apiKey });
          expect(shown.status).toBe(200);
          for (const secret of secrets) expect(shown.text).not.toContain(secret);
        }
        expect(receiver.received.filter(failedFor(failedId))).toHaveLength(1);
      } finally {
        await runtime?.stop();
      }
    });
    const logged = `${output.stdout}\n${output.stderr}`;
    // The run was logged (deliveries included), and no secret is in it, nor any part of one.
    expect(logged).toContain('webhook_delivery');
    expect(secrets).toHaveLength(2);
    for (const secret of secrets) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 16));
    }
    expect(logged).not.toContain('sk-webhooks-test-key-0123456789');
  }, 60_000);
});
