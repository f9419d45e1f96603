import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { call } from '../support/http';

/**
 * Bodies under /api are JSON only: any other declared type answers 415
 * UNSUPPORTED_MEDIA_TYPE and changes nothing, after the key (401) and the
 * size (413), before the JSON check (400). Provider webhooks keep their formats.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const FOLLOW_UP = '/api/agents/sales/leadFollowUp';

let runtime: LocalRuntime;
let db: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    workers: false,
    scheduleEveryMs: 0,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
  db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
});
afterAll(async () => {
  db.destroy();
  await runtime.stop();
});

/** Every item of the table, as one sorted list of keys: what a refused request must leave as it was. */
async function tableKeys(): Promise<string[]> {
  const keys: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: runtime.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) keys.push(`${String(item.pk)}|${String(item.sk)}`);
    start = page.LastEvaluatedKey;
  } while (start);
  return keys.sort();
}

const json = (value: unknown) => JSON.stringify(value);
const leadFollowUp = json({ siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'email' });
const leadEvent = json({ site_id: DEMO_SITE, type: 'opened' });
const FORM = 'application/x-www-form-urlencoded';

describe('a body that is not declared JSON', () => {
  it.each([
    ['POST', FOLLOW_UP, 'text/plain', leadFollowUp],
    ['POST', FOLLOW_UP, FORM, `siteId=${DEMO_SITE}&leadId=${DEMO_LEAD}`],
    ['POST', `/api/leads/${DEMO_LEAD}/events`, 'text/plain;charset=UTF-8', leadEvent],
    ['POST', `/api/leads/${DEMO_LEAD}/events`, FORM, `site_id=${DEMO_SITE}&type=opened`],
    ['POST', '/api/webhooks', FORM, json({ url: 'https://hooks.example.com/switchboard' })],
    ['POST', '/api/deepResearch/operation', 'text/plain', json({ operation_type: 'llm_news' })],
    ['PATCH', `/api/follow-ups/${DEMO_LEAD}`, 'text/plain', json({ status: 'sent' })],
    ['PUT', '/api/integrations/hubspot', 'multipart/form-data; boundary=x', json({ access_token: 'pat-na1-0000' })],
    ['POST', FOLLOW_UP, 'application/json; charset=iso-8859-1', leadFollowUp],
    ['POST', FOLLOW_UP, 'application/jsonp', leadFollowUp],
  ])('%s %s as %s answers 415 and changes nothing', async (method, path, type, body) => {
    const before = await tableKeys();
    const answer = await call(runtime.url, method, path, {
      key: runtime.apiKey,
      rawBody: body,
      headers: { 'content-type': type, 'idempotency-key': `content-type-${method}-${path}` },
    });
    expect(answer).toMatchObject({
      status: 415,
      body: { success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('application/json') } },
    });
    expect(await tableKeys()).toEqual(before);
  });

  it('answers 415 for a body sent with no Content-Type at all', async () => {
    const response = await fetch(`${runtime.url}${FOLLOW_UP}`, {
      method: 'POST',
      headers: { 'x-api-key': runtime.apiKey },
      body: new Uint8Array(Buffer.from(leadFollowUp)),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });
});

describe('the order of checks', () => {
  it('checks the key before the type', async () => {
    const answer = await call(runtime.url, 'POST', FOLLOW_UP, { rawBody: leadFollowUp, headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(401);
  });

  it('checks the size before the type', async () => {
    const huge = 'x'.repeat(300 * 1024);
    const answer = await call(runtime.url, 'POST', FOLLOW_UP, {
      key: runtime.apiKey,
      rawBody: huge,
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.body.error?.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('checks the type before the JSON', async () => {
    const answer = await call(runtime.url, 'POST', FOLLOW_UP, {
      key: runtime.apiKey,
      rawBody: '{"siteId": ',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
    const asJson = await call(runtime.url, 'POST', FOLLOW_UP, { key: runtime.apiKey, rawBody: '{"siteId": ' });
    expect(asJson).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
  });
});

describe('what is taken', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;Charset="UTF-8"', 'application/vnd.api+json'])(
    'takes %s',
    async (type) => {
      const answer = await call(runtime.url, 'POST', FOLLOW_UP, {
        key: runtime.apiKey,
        rawBody: leadFollowUp,
        headers: { 'content-type': type },
      });
      expect(answer.status).toBe(202);
    },
  );

  it('needs no Content-Type on a request without a body', async () => {
    const answer = await call(runtime.url, 'GET', `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}`, { key: runtime.apiKey });
    expect(answer.status).toBe(200);
    const erased = await call(runtime.url, 'DELETE', '/api/commands/0190a5e0-0000-7000-8000-000000000000', { key: runtime.apiKey });
    expect(erased.body.error?.code).toBe('COMMAND_NOT_FOUND');
  });
});

describe("providers' webhooks keep their own formats", () => {
  it("reads Twilio's form-encoded status callback (refused for its signature, not its type)", async () => {
    const answer = await call(runtime.url, 'POST', `/webhooks/twilio/call-status?command_id=${DEMO_SITE}`, {
      rawBody: 'CallSid=CA1&CallStatus=ringing',
      headers: { 'content-type': FORM },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error?.code).not.toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
