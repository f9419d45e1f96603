import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { dynamoEndpointStore } from '../../../shared/webhooks/endpoint-store';
import { newEndpointId, newSigningSecret } from '../../../shared/webhooks/ids';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';

/**
 * Under `npm start` a webhook endpoint may be on loopback, but never at a
 * port of the runtime itself: its API (and relay socket), the embedded
 * DynamoDB and SQS, the local telephony and CRM. Refused at registration, and again
 * before each delivery (an endpoint stored in an earlier run, whose port the
 * runtime took at this start), without a byte sent there.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let runtime: LocalRuntime;
/** Requests the embedded DynamoDB got that are no DynamoDB operation (no X-Amz-Target): what a webhook POST would be. */
const strayDynamoRequests: string[] = [];

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
      LEAD_FOLLOW_UP_OUTPUT: 'channel_messages',
      WEBHOOK_RETRY_DELAYS: '1',
    },
    onAwsRequest: (service, operation, request) => {
      if (service === 'dynamodb' && operation === '') strayDynamoRequests.push(`${request.method} ${request.url}`);
    },
  });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
});

const portOf = (url: string) => new URL(url).port;
const refusal = (port: string) =>
  `url: Port ${port} on this machine belongs to Switchboard itself (its API, storage, queues or telephony); point the endpoint at your receiver's port.`;

describe('a webhook endpoint at a port of the runtime itself', () => {
  it('is refused at registration, whichever of its ports and loopback names, and nothing is stored', async () => {
    const ports = [
      runtime.dynamodbEndpoint,
      runtime.sqsEndpoint,
      runtime.url,
      runtime.localTelephony!.baseUrl,
      runtime.localCrm!.baseUrl,
    ].map(portOf);
    expect(new Set(ports).size).toBe(5);
    const before = await call(runtime.url, 'GET', '/api/webhooks', { key: runtime.apiKey });
    for (const url of [
      ...ports.map((port) => `http://127.0.0.1:${port}/hook`),
      `https://localhost:${ports[0]}/hook`,
      `http://[::1]:${ports[1]}/`,
    ]) {
      const answer = await call(runtime.url, 'POST', '/api/webhooks', { key: runtime.apiKey, body: { url } });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', message: refusal(new URL(url).port), details: [expect.objectContaining({ path: ['url'] })] },
      });
    }
    const after = await call(runtime.url, 'GET', '/api/webhooks', { key: runtime.apiKey });
    expect(after.body.data).toEqual(before.body.data);
    expect(strayDynamoRequests).toEqual([]);
  });

  it('stored before (an earlier run), gets no delivery: the attempt is refused without contacting the port, and says why', async () => {
    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    const port = portOf(runtime.dynamodbEndpoint);
    const at = new Date().toISOString();
    const endpointId = newEndpointId();
    const stored = await dynamoEndpointStore(db, runtime.tableName).create({
      id: endpointId,
      tenant_id: runtime.tenantId,
      url: `http://127.0.0.1:${port}/hook`,
      events: ['command.completed'],
      secret: newSigningSecret(),
      created_at: at,
      updated_at: at,
    });
    db.destroy();
    expect(stored).toBe(true);

    const started = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
      headers: { prefer: 'wait=20' },
    });
    expect(started.status).toBe(200);

    const delivery = await eventually(
      async () => {
        const answer = await call(runtime.url, 'GET', `/api/webhooks/${endpointId}/deliveries`, { key: runtime.apiKey });
        const found = (answer.body.data?.deliveries as Record<string, unknown>[] | undefined)?.find((item) => item.status === 'failed');
        return found;
      },
      15_000,
      'the delivery to end failed',
    );
    const log = delivery.attempt_log as Record<string, unknown>[];
    expect(log).toHaveLength(2);
    for (const attempt of log) {
      expect(attempt).toMatchObject({ error: `not sent: ${refusal(port).slice('url: '.length)}` });
      expect(attempt).not.toHaveProperty('status_code');
      expect(attempt).not.toHaveProperty('response_excerpt');
    }
    expect(strayDynamoRequests).toEqual([]);
  });
});
