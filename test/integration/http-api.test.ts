import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { generateApiKey } from '../../shared/access/api-keys';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { call } from '../support/http';
import { tempDir } from '../support/temp-dir';

/**
 * The foundation's HTTP contract, end to end through the local runtime:
 * authentication, the error envelope, idempotency and waiting.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const OTHER_SITE = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const ROUTE = '/api/agents/sales/leadFollowUp';

let runtime: LocalRuntime;
const secondTenantKey = generateApiKey();
const otherSiteKey = generateApiKey();

beforeAll(async () => {
  const dir = tempDir('http');
  const dataFile = join(dir, 'data.json');
  await writeFile(dataFile, JSON.stringify({ sites: [{ id: OTHER_SITE, name: 'Other Co' }] }));
  runtime = await startLocalRuntime({
    port: 0,
    dataFiles: [dataFile],
    apiKeys: { [secondTenantKey]: [DEMO_SITE], [otherSiteKey]: [OTHER_SITE] },
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
});
afterAll(() => runtime.stop());

const validBody = { siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'email' };

describe('routing and authentication', () => {
  it('answers /health without a key', async () => {
    const answer = await call(runtime.url, 'GET', '/health');
    expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it.each([
    ['POST', ROUTE],
    ['GET', '/api/commands/0190a5e0-0000-7000-8000-000000000000'],
    ['GET', '/api/no-such-route'],
  ])('refuses %s %s without a key with 401, whether or not the route exists', async (method, path) => {
    const answer = await call(runtime.url, method, path, { body: method === 'POST' ? validBody : undefined });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });

  it('refuses a wrong key with 401, by either header', async () => {
    expect((await call(runtime.url, 'POST', ROUTE, { key: 'sbk_not-a-real-key', body: validBody })).status).toBe(401);
    const bearer = await call(runtime.url, 'POST', ROUTE, { headers: { authorization: 'Bearer sbk_nope' }, body: validBody });
    expect(bearer.body.error?.code).toBe('UNAUTHORIZED');
  });

  it('answers 404 NOT_FOUND in the envelope for an unknown route', async () => {
    const inApi = await call(runtime.url, 'GET', '/api/no-such-route', { key: runtime.apiKey });
    expect(inApi).toMatchObject({ status: 404, body: { success: false, error: { code: 'NOT_FOUND' } } });
    const outside = await call(runtime.url, 'DELETE', '/nowhere');
    expect(outside).toMatchObject({ status: 404, body: { success: false, error: { code: 'NOT_FOUND' } } });
  });

  it('answers HEAD /health with 200', async () => {
    expect((await call(runtime.url, 'HEAD', '/health')).status).toBe(200);
  });

  it('answers a known path with the wrong method 405 METHOD_NOT_ALLOWED and Allow, under /api only after the key check', async () => {
    const health = await call(runtime.url, 'POST', '/health');
    expect(health).toMatchObject({ status: 405, body: { success: false, error: { code: 'METHOD_NOT_ALLOWED' } } });
    expect(health.headers.get('allow')).toBe('GET, HEAD');
    const commandPath = '/api/commands/0190a5e0-0000-7000-8000-000000000000';
    expect((await call(runtime.url, 'POST', commandPath, { body: {} })).status).toBe(401);
    const command = await call(runtime.url, 'POST', commandPath, { key: runtime.apiKey, body: {} });
    expect(command).toMatchObject({ status: 405, body: { error: { code: 'METHOD_NOT_ALLOWED' } } });
    expect(command.headers.get('allow')).toBe('GET, DELETE');
    const leadFollowUp = await call(runtime.url, 'GET', ROUTE, { key: runtime.apiKey });
    expect(leadFollowUp.status).toBe(405);
    expect(leadFollowUp.headers.get('allow')).toBe('POST');
  });

  it('refuses two different keys in x-api-key and Authorization with 401, and accepts the same key twice', async () => {
    const path = '/api/commands/0190a5e0-0000-7000-8000-000000000000';
    const conflicting = await call(runtime.url, 'GET', path, {
      key: runtime.apiKey,
      headers: { authorization: `Bearer ${secondTenantKey}` },
    });
    expect(conflicting).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
    const same = await call(runtime.url, 'GET', path, { key: runtime.apiKey, headers: { authorization: `Bearer ${runtime.apiKey}` } });
    expect(same.body.error?.code).toBe('COMMAND_NOT_FOUND');
  });

  it('answers 403 FORBIDDEN for an existing site outside the key and 404 SITE_NOT_FOUND for a site that exists nowhere', async () => {
    const forbidden = await call(runtime.url, 'POST', ROUTE, { key: otherSiteKey, body: validBody });
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    const nowhere = { ...validBody, siteId: '11111111-2222-4333-8444-555555555555' };
    for (const key of [otherSiteKey, runtime.apiKey]) {
      expect((await call(runtime.url, 'POST', ROUTE, { key, body: nowhere })).body.error?.code).toBe('SITE_NOT_FOUND');
    }
  });

  it("reads another tenant's command as 404, and a malformed id too", async () => {
    const created = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody });
    const id = created.body.data?.command_id as string;
    expect((await call(runtime.url, 'GET', `/api/commands/${id}`, { key: runtime.apiKey })).status).toBe(200);
    const foreign = await call(runtime.url, 'GET', `/api/commands/${id}`, { key: secondTenantKey });
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: 'COMMAND_NOT_FOUND' } } });
    expect((await call(runtime.url, 'GET', '/api/commands/not-a-uuid', { key: runtime.apiKey })).body.error?.code).toBe(
      'COMMAND_NOT_FOUND',
    );
  });

  it('reads a command by its upper-cased id', async () => {
    const created = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody });
    const id = created.body.data?.command_id as string;
    const read = await call(runtime.url, 'GET', `/api/commands/${id.toUpperCase()}`, { key: runtime.apiKey });
    expect(read).toMatchObject({ status: 200, body: { success: true, data: { command_id: id } } });
  });
});

describe('the error envelope', () => {
  it('answers a body that is not JSON with 400 and the route code', async () => {
    const answer = await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      rawBody: '{"siteId": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'INVALID_REQUEST', message: 'The request body is not valid JSON.' } },
    });
  });

  it('answers an empty body with 400', async () => {
    expect((await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, rawBody: '' })).body.error?.code).toBe('INVALID_REQUEST');
  });

  it('answers a body over 256 KiB with 413 and writes nothing; the key is still checked first', async () => {
    const huge = JSON.stringify({ ...validBody, padding: 'x'.repeat(256 * 1024) });
    const answer = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, rawBody: huge });
    expect(answer).toMatchObject({ status: 413, body: { success: false, error: { code: 'PAYLOAD_TOO_LARGE' } } });
    expect((await call(runtime.url, 'POST', ROUTE, { rawBody: huge })).status).toBe(401);
  });

  it('never answers with a stack trace', async () => {
    const answer = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, rawBody: '[1,2,3]' });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/at .+\.ts:\d+|Error:/);
  });
});

describe('asynchrony, waiting and idempotency', () => {
  it('accepts with 202, Location and the command id; GET shows the command until it ends', async () => {
    const answer = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody });
    expect(answer.status).toBe(202);
    const id = answer.body.data?.command_id as string;
    expect(answer.body.data).toMatchObject({ command_id: id, status: 'in_progress' });
    expect(answer.headers.get('location')).toBe(`/api/commands/${id}`);
    const read = await call(runtime.url, 'GET', `/api/commands/${id}`, { key: runtime.apiKey });
    expect(read.body.data).toMatchObject({
      command_id: id,
      type: 'lead_follow_up',
      status: expect.stringMatching(/in_progress|completed/),
    });
  });

  it('lets GET wait for the end of a command with Prefer: wait', async () => {
    const accepted = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody });
    const id = accepted.body.data?.command_id as string;
    const read = await call(runtime.url, 'GET', `/api/commands/${id}`, { key: runtime.apiKey, headers: { prefer: 'wait=20' } });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ command_id: id, status: 'completed', messages: expect.any(Object) });
  });

  it('answers 200 with the finished result when the caller waits', async () => {
    const answer = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody, headers: { prefer: 'wait=20' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('location')).toMatch(/^\/api\/commands\//);
    expect(answer.body).toMatchObject({ success: true, data: { command_id: expect.any(String), messages: expect.any(Object) } });
  });

  it('returns the same command for the same Idempotency-Key and body, and queues no second job', async () => {
    const headers = { 'idempotency-key': 'order-7781' };
    const first = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody, headers });
    const second = await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      body: { followUpType: 'email', leadId: DEMO_LEAD, siteId: DEMO_SITE },
      headers,
    });
    expect(first.status).toBe(202);
    expect([200, 202]).toContain(second.status);
    expect(second.body.data?.command_id).toBe(first.body.data?.command_id);
    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    const { Items } = await db.send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: 'idempotency_key = :k AND #t = :t',
        ExpressionAttributeNames: { '#t': 'type' },
        ExpressionAttributeValues: { ':k': 'order-7781', ':t': 'lead_follow_up' },
      }),
    );
    db.destroy();
    expect(Items).toHaveLength(1);
  });

  it('refuses the same Idempotency-Key with another body with 409', async () => {
    const headers = { 'idempotency-key': 'order-7782' };
    await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody, headers });
    const conflict = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: { ...validBody, followUpType: 'call' }, headers });
    expect(conflict).toMatchObject({ status: 409, body: { success: false, error: { code: 'IDEMPOTENCY_CONFLICT' } } });
  });

  it('scopes Idempotency-Keys per tenant', async () => {
    const headers = { 'idempotency-key': 'shared-key-1' };
    const mine = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body: validBody, headers });
    const theirs = await call(runtime.url, 'POST', ROUTE, { key: secondTenantKey, body: validBody, headers });
    expect(theirs.status).toBe(202);
    expect(theirs.body.data?.command_id).not.toBe(mine.body.data?.command_id);
  });
});

describe('UUIDs in upper case (RFC 9562: they compare case-insensitively)', () => {
  it('name the same site, lead and command as lower-case ones', async () => {
    const accepted = await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      body: { siteId: DEMO_SITE.toUpperCase(), leadId: DEMO_LEAD.toUpperCase() },
      headers: { prefer: 'wait=20' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ lead: expect.objectContaining({ name: expect.any(String) }) });
    const id = String(accepted.body.data?.command_id);
    const read = await call(runtime.url, 'GET', `/api/commands/${id.toUpperCase()}`, { key: runtime.apiKey });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ command_id: id, site_id: DEMO_SITE, status: 'completed' });
  });
});
