import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { EVENT_TYPES } from '../../../shared/webhooks/event-types';
import { MAX_ENDPOINTS_PER_TENANT } from '../../../shared/webhooks/endpoint-store';
import { call, type JsonAnswer } from '../../support/http';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';

/**
 * The /api/webhooks routes through the local runtime: registration checks
 * (under `npm start`, where loopback endpoints are allowed, and as in AWS,
 * where they are not), the secret shown once, and tenant isolation.
 */
const OTHER_TENANT_KEY = 'sbk_webhooks-api-other-tenant-key-01';
const SETTINGS = { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined };

let local: LocalRuntime;
let aws: LocalRuntime;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  local = await startLocalRuntime({ port: 0, settings: SETTINGS, apiKeys: { [OTHER_TENANT_KEY]: [] }, scheduleEveryMs: 0 });
  // As in AWS: WEBHOOK_ALLOW_LOOPBACK is unset there, which means false.
  aws = await startLocalRuntime({
    port: 0,
    settings: { ...SETTINGS, WEBHOOK_ALLOW_LOOPBACK: 'false' },
    scheduleEveryMs: 0,
    workers: false,
  });
}, 60_000);

afterAll(async () => {
  await local?.stop();
  await aws?.stop();
  await receiver?.close();
});

const register = (runtime: LocalRuntime, body: unknown, key = runtime.apiKey) => call(runtime.url, 'POST', '/api/webhooks', { key, body });

function expectValidationError(answer: JsonAnswer, path?: string[]): void {
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
  if (path) expect(answer.body.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
}

describe('registering an endpoint', () => {
  it('answers 201 with the endpoint and its signing secret, shown this once; events default to all', async () => {
    const answer = await register(local, { url: `${receiver.url}/hooks`, description: 'CRM sync' });

    expect(answer.status).toBe(201);
    const data = answer.body.data!;
    expect(data).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{24}$/),
      url: `${receiver.url}/hooks`,
      events: ['*'],
      description: 'CRM sync',
      status: 'enabled',
      disabled: false,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{44}$/),
    });

    const list = await call(local.url, 'GET', '/api/webhooks', { key: local.apiKey });
    expect(list.status).toBe(200);
    const listed = (list.body.data!.webhooks as Record<string, unknown>[]).find((item) => item.id === data.id);
    expect(listed).toMatchObject({ id: data.id, url: `${receiver.url}/hooks`, events: ['*'] });
    expect(listed).not.toHaveProperty('secret');
    expect(list.text).not.toContain(String(data.secret));
    expect(list.text).not.toContain('whsec_');
  });

  it('keeps the event types asked for, each once, in the catalogue order; "*" means all', async () => {
    const some = await register(local, { url: `${receiver.url}/some`, events: ['command.failed', 'command.completed', 'command.failed'] });
    expect(some.body.data?.events).toEqual(['command.completed', 'command.failed']);
    const all = await register(local, { url: `${receiver.url}/all`, events: ['call.status_changed', '*'] });
    expect(all.body.data?.events).toEqual(['*']);
    for (const answer of [some, all])
      await call(local.url, 'DELETE', `/api/webhooks/${String(answer.body.data?.id)}`, { key: local.apiKey });
  });

  it.each([
    ['no url', {}, ['url']],
    ['an empty url', { url: '' }, ['url']],
    ['a url that is not one', { url: 'not a url' }, ['url']],
    ['another scheme', { url: 'ftp://127.0.0.1/hooks' }, ['url']],
    ['credentials in the url', { url: 'http://user:pass@127.0.0.1/hooks' }, ['url']],
    ['a private address', { url: 'http://10.0.0.7/hooks' }, ['url']],
    ['a private address over https', { url: 'https://192.168.1.20/hooks' }, ['url']],
    ['the metadata address', { url: 'https://169.254.169.254/latest/meta-data' }, ['url']],
    ['an unknown event type', { url: 'http://127.0.0.1:9/x', events: ['command.exploded'] }, ['events', '0']],
    ['an empty event list', { url: 'http://127.0.0.1:9/x', events: [] }, ['events']],
    ['a description too long', { url: 'http://127.0.0.1:9/x', description: 'x'.repeat(501) }, ['description']],
    ['an unknown field', { url: 'http://127.0.0.1:9/x', secret: 'whsec_mine' }, []],
    ['not an object', ['http://127.0.0.1:9/x'], []],
  ])('refuses %s with 400 VALIDATION_ERROR and changes nothing', async (_what, body, path) => {
    const before = await call(local.url, 'GET', '/api/webhooks', { key: local.apiKey });
    expectValidationError(await register(local, body), path);
    const after = await call(local.url, 'GET', '/api/webhooks', { key: local.apiKey });
    expect(after.body.data).toEqual(before.body.data);
  });

  it('refuses a body that is not JSON, and a request without a key first', async () => {
    expectValidationError(await call(local.url, 'POST', '/api/webhooks', { key: local.apiKey, rawBody: '{"url": ' }));
    expectValidationError(await call(local.url, 'POST', '/api/webhooks', { key: local.apiKey }));
    const anonymous = await call(local.url, 'POST', '/api/webhooks', { body: { url: `${receiver.url}/x` } });
    expect(anonymous.status).toBe(401);
    expect((await call(local.url, 'GET', '/api/webhooks')).status).toBe(401);
  });

  it('lists every event type it knows when one is unknown', async () => {
    const answer = await register(local, { url: `${receiver.url}/x`, events: ['nope'] });
    expect(JSON.stringify(answer.body.error?.details)).toContain(EVENT_TYPES[0]);
  });

  it(`accepts at most ${MAX_ENDPOINTS_PER_TENANT} endpoints per tenant`, async () => {
    const key = OTHER_TENANT_KEY;
    const ids: string[] = [];
    for (let index = 0; index < MAX_ENDPOINTS_PER_TENANT; index++) {
      const answer = await register(local, { url: `${receiver.url}/bound-${index}` }, key);
      expect(answer.status).toBe(201);
      ids.push(String(answer.body.data?.id));
    }
    const refused = await register(local, { url: `${receiver.url}/one-too-many` }, key);
    expectValidationError(refused);
    expect(refused.body.error?.message).toContain(`at most ${MAX_ENDPOINTS_PER_TENANT}`);
    // Deleting one frees its place.
    expect((await call(local.url, 'DELETE', `/api/webhooks/${ids[3]}`, { key })).status).toBe(200);
    expect((await register(local, { url: `${receiver.url}/again` }, key)).status).toBe(201);
    const list = await call(local.url, 'GET', '/api/webhooks', { key });
    expect(list.body.data?.webhooks).toHaveLength(MAX_ENDPOINTS_PER_TENANT);
    for (const item of list.body.data!.webhooks as { id: string }[]) await call(local.url, 'DELETE', `/api/webhooks/${item.id}`, { key });
  });
});

describe('registering as in AWS (WEBHOOK_ALLOW_LOOPBACK unset or false)', () => {
  it.each([
    ['plain http, even on loopback', `http://127.0.0.1:9/hooks`],
    ['https on loopback', 'https://127.0.0.1/hooks'],
    ['https on IPv6 loopback', 'https://[::1]/hooks'],
    ['a name that resolves to loopback', 'https://localhost/hooks'],
    ['a private address', 'https://10.1.2.3/hooks'],
    ['carrier-grade NAT', 'https://100.64.0.1/hooks'],
    ['a name that does not resolve', 'https://no-such-host.invalid/hooks'],
  ])('refuses %s', async (_what, url) => {
    expectValidationError(await register(aws, { url }), ['url']);
  });

  it('accepts https to a public address', async () => {
    const answer = await register(aws, { url: 'https://93.184.215.14/hooks' });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ url: 'https://93.184.215.14/hooks', secret: expect.stringMatching(/^whsec_/) });
  });
});

describe("another tenant's endpoints", () => {
  it('read as 404 NOT_FOUND for list, delete, rotation, deliveries and redelivery', async () => {
    const mine = await register(local, { url: `${receiver.url}/mine` });
    const id = String(mine.body.data?.id);
    const other = OTHER_TENANT_KEY;

    const theirList = await call(local.url, 'GET', '/api/webhooks', { key: other });
    expect((theirList.body.data!.webhooks as { id: string }[]).map((item) => item.id)).not.toContain(id);
    const notFound = { success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } };
    for (const [method, path] of [
      ['DELETE', `/api/webhooks/${id}`],
      ['POST', `/api/webhooks/${id}/rotate-secret`],
      ['GET', `/api/webhooks/${id}/deliveries`],
      ['POST', `/api/webhooks/${id}/deliveries/evt_${'0'.repeat(32)}/redeliver`],
    ] as const) {
      const answer = await call(local.url, method, path, { key: other });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect(answer.body).toMatchObject(notFound);
    }
    // Still there, secret unchanged (its owner rotates it below and gets a new one).
    const list = await call(local.url, 'GET', '/api/webhooks', { key: local.apiKey });
    expect((list.body.data!.webhooks as { id: string }[]).map((item) => item.id)).toContain(id);

    // Malformed and unknown ids read the same.
    for (const path of ['/api/webhooks/nope', `/api/webhooks/we_${'0'.repeat(24)}`]) {
      expect((await call(local.url, 'DELETE', path, { key: local.apiKey })).status).toBe(404);
    }
    await call(local.url, 'DELETE', `/api/webhooks/${id}`, { key: local.apiKey });
  });
});

describe('rotating a secret and deleting an endpoint', () => {
  it('shows the new secret once, keeps the old one signing for 24 hours unless told otherwise', async () => {
    const created = await register(local, { url: `${receiver.url}/rotate` });
    const id = String(created.body.data?.id);
    const before = Date.now();
    const rotated = await call(local.url, 'POST', `/api/webhooks/${id}/rotate-secret`, { key: local.apiKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.data?.secret).not.toBe(created.body.data?.secret);
    const expires = Date.parse(String(rotated.body.data?.previous_secret_expires_at));
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 5_000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3600_000 + 5_000);

    const immediate = await call(local.url, 'POST', `/api/webhooks/${id}/rotate-secret`, {
      key: local.apiKey,
      body: { previous_secret_expires_in: 0 },
    });
    expect(immediate.body.data).toMatchObject({ previous_secret_expires_at: null });
    expectValidationError(
      await call(local.url, 'POST', `/api/webhooks/${id}/rotate-secret`, {
        key: local.apiKey,
        body: { previous_secret_expires_in: 90_000 },
      }),
      ['previous_secret_expires_in'],
    );

    const list = await call(local.url, 'GET', '/api/webhooks', { key: local.apiKey });
    for (const secret of [created.body.data?.secret, rotated.body.data?.secret, immediate.body.data?.secret])
      expect(list.text).not.toContain(String(secret));

    const deleted = await call(local.url, 'DELETE', `/api/webhooks/${id}`, { key: local.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, deleted: true });
    expect((await call(local.url, 'DELETE', `/api/webhooks/${id}`, { key: local.apiKey })).status).toBe(404);
    expect((await call(local.url, 'GET', `/api/webhooks/${id}/deliveries`, { key: local.apiKey })).status).toBe(404);
  });

  it('refuses a deliveries limit out of range', async () => {
    const created = await register(local, { url: `${receiver.url}/limits` });
    const id = String(created.body.data?.id);
    expect((await call(local.url, 'GET', `/api/webhooks/${id}/deliveries?limit=5`, { key: local.apiKey })).body.data).toEqual({
      endpoint_id: id,
      deliveries: [],
    });
    for (const limit of ['0', '101', 'ten', '-1']) {
      expectValidationError(await call(local.url, 'GET', `/api/webhooks/${id}/deliveries?limit=${limit}`, { key: local.apiKey }), [
        'limit',
      ]);
    }
    expect(
      (await call(local.url, 'POST', `/api/webhooks/${id}/deliveries/evt_${'0'.repeat(32)}/redeliver`, { key: local.apiKey })).status,
    ).toBe(404);
    await call(local.url, 'DELETE', `/api/webhooks/${id}`, { key: local.apiKey });
  });
});
