import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { hashApiKey } from '../../../shared/access/api-keys';
import { documentClientOf } from '../../../shared/composition/adapters';
import { connectedCrm } from '../../../shared/crm/connected-client';
import { dynamoConnectionStore } from '../../../shared/crm/dynamo-connection-store';
import { DEFAULT_LEAD_STATUS_MAP } from '../../../shared/crm/lead-status';
import { secretBox } from '../../../shared/platform/secret-box';
import { hubspotCrm } from '../../../shared/providers/crm/hubspot';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';
import { call, type JsonAnswer } from '../../support/http';

/**
 * PUT, GET and DELETE /api/integrations/hubspot through the local runtime,
 * the token checked by the real client library against the loopback
 * HubSpot: what is answered, what is kept in the table (sealed), what one
 * tenant can see of another's, and that no secret reaches a log line.
 */
const PATH = '/api/integrations/hubspot';
const OTHER_KEY = 'sbk_crm-connection-other-tenant-01';
const CLIENT_SECRET = 'cs-7a3c1f0e-9b8d-4c6e-a5f4-3d2c1b0a9f8e';
const CRM_KEY = 'crm-connection-test-service-key-0123456789abcdef';

let hubspot: HubSpotFake;
let runtime: LocalRuntime;
let otherTenant: string;
const written: string[] = [];
const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

beforeAll(async () => {
  hubspot = await startHubSpotFake();
  const capture = (chunk: unknown) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  process.stdout.write = capture;
  process.stderr.write = capture;
  runtime = await startLocalRuntime({
    port: 0,
    apiKeys: { [OTHER_KEY]: [] },
    scheduleEveryMs: 0,
    workers: false,
    settings: { LOG_LEVEL: 'DEBUG', HUBSPOT_API_BASE_URL: hubspot.baseUrl, CRM_ENCRYPTION_KEY: CRM_KEY },
  });
  const other = await call(runtime.url, 'GET', PATH, { key: OTHER_KEY });
  expect(other.status).toBe(404);
  otherTenant = await tenantOfKey(OTHER_KEY);
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await hubspot?.close();
  process.stdout.write = originals.out;
  process.stderr.write = originals.err;
});

const db = () =>
  documentClientOf({
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: runtime.dynamodbEndpoint,
  });

/** The tenant a key belongs to, read as the service reads it. */
async function tenantOfKey(key: string): Promise<string> {
  const { Item } = await db().send(
    new GetCommand({ TableName: runtime.tableName, Key: { pk: `APIKEY#${hashApiKey(key)}`, sk: 'APIKEY' } }),
  );
  if (typeof Item?.tenant_id !== 'string') throw new Error('The other key has no tenant');
  return Item.tenant_id;
}

const connectionItem = async (tenantId: string) =>
  (await db().send(new GetCommand({ TableName: runtime.tableName, Key: { pk: `CRM#${tenantId}`, sk: 'CONNECTION#hubspot' } }))).Item;

const portalItems = async (portalId: number | string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `CRMPORTAL#hubspot#${portalId}` },
      }),
    )
  ).Items ?? [];

const connect = (body: unknown, key = runtime.apiKey) => call(runtime.url, 'PUT', PATH, { key, body });

function expectInvalid(answer: JsonAnswer, path?: string[]) {
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
  if (path) expect(answer.body.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
}

describe('PUT /api/integrations/hubspot', () => {
  afterEach(async () => {
    hubspot.heal();
    await call(runtime.url, 'DELETE', PATH, { key: runtime.apiKey });
    await call(runtime.url, 'DELETE', PATH, { key: OTHER_KEY });
  });

  it('checks the token against HubSpot, keeps the connection sealed, and GET shows it without a secret', async () => {
    const answer = await connect({ access_token: hubspot.token, client_secret: CLIENT_SECRET, lead_status_map: { replied: 'OPEN_DEAL' } });

    expect(answer.status).toBe(200);
    const view = {
      provider: 'hubspot',
      connected: true,
      portal_id: String(hubspot.portalId),
      scopes: ['crm.lists.read', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'sales-email-read'],
      connected_at: expect.any(String),
      last_sync_at: null,
      last_error: null,
      client_secret_set: true,
      lead_status_map: { ...DEFAULT_LEAD_STATUS_MAP, replied: 'OPEN_DEAL' },
    };
    expect(answer.body).toEqual({ success: true, data: view });
    expect(hubspot.requests.at(-1)).toMatchObject({ method: 'POST', body: { tokenKey: hubspot.token } });

    const shown = await call(runtime.url, 'GET', PATH, { key: runtime.apiKey });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual({ ...view, connected_at: answer.body.data!.connected_at });
    for (const text of [answer.text, shown.text]) {
      expect(text).not.toContain(hubspot.token);
      expect(text).not.toContain(CLIENT_SECRET);
    }
  });

  it('stores no plaintext secret: both are sealed for the tenant, and open only with its key and the service key', async () => {
    await connect({ access_token: hubspot.token, client_secret: CLIENT_SECRET });

    const item = (await connectionItem(runtime.tenantId))!;
    const raw = JSON.stringify(item);
    expect(raw).not.toContain(hubspot.token);
    expect(raw).not.toContain(CLIENT_SECRET);
    expect(item.access_token_sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(item.client_secret_sealed).toMatch(/^v1\./);

    const store = dynamoConnectionStore(db(), runtime.tableName, async () => secretBox(CRM_KEY));
    expect((await store.credentials(runtime.tenantId, 'hubspot'))?.secrets).toEqual({
      accessToken: hubspot.token,
      clientSecret: CLIENT_SECRET,
    });
    const otherService = dynamoConnectionStore(db(), runtime.tableName, async () => secretBox(`${CRM_KEY}-another`));
    await expect(otherService.credentials(runtime.tenantId, 'hubspot')).rejects.toThrow(/did not open/);
    expect(await store.tenantsOfPortal('hubspot', String(hubspot.portalId))).toEqual([runtime.tenantId]);
  });

  it("refuses a token HubSpot refuses with HubSpot's reason, and keeps nothing", async () => {
    const answer = await connect({ access_token: 'pat-na1-00000000-0000-0000-0000-000000000000', client_secret: CLIENT_SECRET });

    expectInvalid(answer, ['access_token']);
    expect(answer.body.error?.message).toBe('HubSpot refused the access token: The access token is invalid, expired or has been revoked.');
    expect(await connectionItem(runtime.tenantId)).toBeUndefined();
    expect(await portalItems(hubspot.portalId)).toEqual([]);
    expect((await call(runtime.url, 'GET', PATH, { key: runtime.apiKey })).status).toBe(404);
  });

  it('refuses a token without the contacts scopes, naming them, and one HubSpot echoes back without repeating it', async () => {
    hubspot.addToken('pat-na1-lists-only-token', { scopes: ['crm.lists.read'] });
    const narrow = await connect({ access_token: 'pat-na1-lists-only-token' });
    expectInvalid(narrow, ['access_token']);
    expect(narrow.body.error?.message).toContain('crm.objects.contacts.read, crm.objects.contacts.write');

    hubspot.failNext(1, {
      status: 401,
      body: { status: 'error', message: `Token ${hubspot.token} is expired`, category: 'EXPIRED_AUTHENTICATION' },
    });
    const echoed = await connect({ access_token: hubspot.token });
    expectInvalid(echoed, ['access_token']);
    expect(echoed.text).not.toContain(hubspot.token);
    expect(echoed.body.error?.message).toContain('Token [token] is expired');
    expect(await connectionItem(runtime.tenantId)).toBeUndefined();
  });

  it('answers RATE_LIMITED with Retry-After when HubSpot keeps limiting, and SYSTEM_ERROR when it is down; nothing kept', async () => {
    hubspot.failNext(1, { rateLimited: { retryAfterSeconds: 30 } });
    const limited = await connect({ access_token: hubspot.token });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED' });

    hubspot.failNext(Infinity, 'server_error');
    const down = await connect({ access_token: hubspot.token });
    expect(down.status).toBe(500);
    expect(down.body.error).toMatchObject({ code: 'SYSTEM_ERROR', message: expect.stringContaining('nothing was kept') });
    expect(await connectionItem(runtime.tenantId)).toBeUndefined();
  });

  it('refuses a malformed body before asking HubSpot', async () => {
    const before = hubspot.requests.length;
    expectInvalid(await connect({}), ['access_token']);
    expectInvalid(await connect({ access_token: hubspot.token, portal: 1 }));
    expectInvalid(await connect({ access_token: hubspot.token, lead_status_map: { replied: 'not a status!' } }), [
      'lead_status_map',
      'replied',
    ]);
    expectInvalid(await connect({ access_token: hubspot.token, lead_status_map: { opened: 'OPEN' } }));
    expectInvalid(await call(runtime.url, 'PUT', PATH, { key: runtime.apiKey, rawBody: '{"access_token":' }));
    expect(hubspot.requests.length).toBe(before);
  });

  it('shows what an import or a write-back recorded (last sync, last error); reconnecting keeps the sync and clears the error', async () => {
    await connect({ access_token: hubspot.token });
    const store = dynamoConnectionStore(db(), runtime.tableName, async () => secretBox(CRM_KEY));
    const show = async () => (await call(runtime.url, 'GET', PATH, { key: runtime.apiKey })).body.data;

    expect(await store.recordSync(runtime.tenantId, 'hubspot', { at: '2026-11-26T10:00:00.000Z' })).toBe(true);
    expect(await store.recordSync(runtime.tenantId, 'hubspot', { at: '2026-11-26T10:05:00.000Z', error: 'HubSpot answered 503' })).toBe(
      true,
    );
    expect(await show()).toMatchObject({
      last_sync_at: '2026-11-26T10:00:00.000Z',
      last_error: { at: '2026-11-26T10:05:00.000Z', message: 'HubSpot answered 503' },
    });

    await connect({ access_token: hubspot.token });
    expect(await show()).toMatchObject({ last_sync_at: '2026-11-26T10:00:00.000Z', last_error: null });
    await call(runtime.url, 'DELETE', PATH, { key: runtime.apiKey });
    expect(await store.recordSync(runtime.tenantId, 'hubspot', { at: '2026-11-26T11:00:00.000Z' })).toBe(false);
    expect(await connectionItem(runtime.tenantId)).toBeUndefined();
  });

  it('reconnecting the same portal keeps when it was connected; another portal moves its entry', async () => {
    const first = await connect({ access_token: hubspot.token, client_secret: CLIENT_SECRET });
    const again = await connect({ access_token: hubspot.token });
    expect(again.body.data).toMatchObject({ connected_at: first.body.data!.connected_at, client_secret_set: false });

    hubspot.addToken('pat-na1-other-portal', { portalId: 13_579 });
    const moved = await connect({ access_token: 'pat-na1-other-portal' });
    expect(moved.body.data).toMatchObject({ portal_id: '13579' });
    expect(await portalItems(hubspot.portalId)).toEqual([]);
    expect((await portalItems(13_579)).map((item) => item.sk)).toEqual([runtime.tenantId]);
  });
});

describe('DELETE /api/integrations/hubspot, and tenants', () => {
  it('forgets the connection and its portal entry; then GET and DELETE answer 404', async () => {
    await connect({ access_token: hubspot.token, client_secret: CLIENT_SECRET });

    const deleted = await call(runtime.url, 'DELETE', PATH, { key: runtime.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: { provider: 'hubspot', portal_id: String(hubspot.portalId), deleted: true } });
    expect(await connectionItem(runtime.tenantId)).toBeUndefined();
    expect(await portalItems(hubspot.portalId)).toEqual([]);
    const shown = await call(runtime.url, 'GET', PATH, { key: runtime.apiKey });
    expect(shown.status).toBe(404);
    expect(shown.body.error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call(runtime.url, 'DELETE', PATH, { key: runtime.apiKey })).status).toBe(404);
  });

  it("never shows nor removes another tenant's connection; each tenant's secrets open for it alone", async () => {
    await connect({ access_token: hubspot.token, client_secret: CLIENT_SECRET });

    expect((await call(runtime.url, 'GET', PATH, { key: OTHER_KEY })).status).toBe(404);
    expect((await call(runtime.url, 'DELETE', PATH, { key: OTHER_KEY })).status).toBe(404);
    expect((await call(runtime.url, 'GET', PATH, { key: runtime.apiKey })).status).toBe(200);

    hubspot.addToken('pat-na1-other-tenant');
    expect((await connect({ access_token: 'pat-na1-other-tenant' }, OTHER_KEY)).status).toBe(200);
    const store = dynamoConnectionStore(db(), runtime.tableName, async () => secretBox(CRM_KEY));
    expect((await store.credentials(otherTenant, 'hubspot'))?.secrets).toEqual({ accessToken: 'pat-na1-other-tenant' });
    expect((await store.credentials(runtime.tenantId, 'hubspot'))?.secrets.accessToken).toBe(hubspot.token);
    expect((await store.tenantsOfPortal('hubspot', String(hubspot.portalId))).sort()).toEqual([otherTenant, runtime.tenantId].sort());

    // Each tenant's client runs on its own token.
    const crm = hubspotCrm({ baseUrl: hubspot.baseUrl });
    const before = hubspot.requests.length;
    await (await connectedCrm({ connections: store, crm }, otherTenant))!.client.listContacts();
    await (await connectedCrm({ connections: store, crm }, runtime.tenantId))!.client.listContacts();
    expect(hubspot.requests.slice(before).map((request) => request.headers.authorization)).toEqual([
      'Bearer pat-na1-other-tenant',
      `Bearer ${hubspot.token}`,
    ]);
    expect(await connectedCrm({ connections: store, crm }, 'tenant-never-connected')).toBeUndefined();

    // A sealed token copied into another tenant's item does not open there.
    const mine = (await connectionItem(runtime.tenantId))!;
    const box = secretBox(CRM_KEY);
    expect(() => box.open({ tenantId: otherTenant, purpose: 'crm:hubspot:access_token' }, String(mine.access_token_sealed))).toThrow();

    await call(runtime.url, 'DELETE', PATH, { key: OTHER_KEY });
    expect((await call(runtime.url, 'GET', PATH, { key: runtime.apiKey })).status).toBe(200);
    await call(runtime.url, 'DELETE', PATH, { key: runtime.apiKey });
  });
});

describe('secrets in output', () => {
  it('never writes a token or client secret to the logs (debug level), whatever was answered above', () => {
    const output = written.join('');
    expect(output.length).toBeGreaterThan(0);
    expect(output).not.toContain(hubspot.token);
    expect(output).not.toContain(CLIENT_SECRET);
    expect(output).not.toContain('pat-na1-other-tenant');
    expect(output).not.toContain(CRM_KEY);
  });
});
