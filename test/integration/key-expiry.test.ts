import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { generateApiKey, registerApiKey } from '../../shared/access/api-keys';
import { dynamoApiKeyStore } from '../../shared/access/dynamo-api-keys';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { call } from '../support/http';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const SOME_COMMAND = '/api/commands/0190a5e0-0000-7000-8000-000000000000';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startLocalRuntime({ port: 0, workers: false, scheduleEveryMs: 0, settings: { LOG_LEVEL: 'SILENT' } });
});
afterAll(() => runtime.stop());

async function register(input: { validUntil?: number; revoked?: boolean }): Promise<string> {
  const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
  const keys = dynamoApiKeyStore(db, runtime.tableName);
  const key = generateApiKey();
  const record = await registerApiKey(
    { keys, tenants: dynamoTenantStore(db, runtime.tableName) },
    {
      key,
      tenantId: 'expiry',
      siteIds: [SITE],
      now: Date.now() - 60_000,
      ...(input.validUntil === undefined ? {} : { validUntil: input.validUntil }),
    },
  );
  if (input.revoked) await keys.save({ ...record, revoked_at: new Date().toISOString() });
  db.destroy();
  return key;
}

describe('API keys with an expiry, over HTTP', () => {
  it('answers an expired key 401 UNAUTHORIZED, exactly like a revoked one; a key not yet expired works', async () => {
    const expired = await call(runtime.url, 'GET', SOME_COMMAND, { key: await register({ validUntil: Date.now() - 1_000 }) });
    const revoked = await call(runtime.url, 'GET', SOME_COMMAND, { key: await register({ revoked: true }) });
    const current = await call(runtime.url, 'GET', SOME_COMMAND, { key: await register({ validUntil: Date.now() + 3_600_000 }) });

    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(revoked.body);
    expect(expired.body.error?.code).toBe('UNAUTHORIZED');
    expect([current.status, current.body.error?.code]).toEqual([404, 'COMMAND_NOT_FOUND']);
  });
});
