import { spawn } from 'node:child_process';
import { createAuthenticator } from '../../shared/access/authenticate';
import { hashApiKey, keyIdOf } from '../../shared/access/api-keys';
import { dynamoApiKeyStore } from '../../shared/access/dynamo-api-keys';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import type { ApiKeyStore } from '../../shared/access/api-keys';
import { runKeysCommand, type KeysCommandPorts } from '../../infra/cli/keys-command';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const NOW = Date.parse('2026-11-23T10:00:00.000Z');
const DAY = 86_400_000;

let services: EmbeddedServices;
let keys: ApiKeyStore;
let ports: KeysCommandPorts;
beforeAll(async () => {
  services = await startEmbeddedServices();
  keys = dynamoApiKeyStore(services.db, services.aws.tableName);
  ports = { keys, tenants: dynamoTenantStore(services.db, services.aws.tableName), now: () => NOW };
});
afterAll(() => services.stop());

/** Runs `npm run keys -- …args` in this process; its exit status and what it wrote. */
async function keysCli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const status = await runKeysCommand(args, ports, {
    stdout: (text) => (written.stdout += text),
    stderr: (text) => (written.stderr += text),
  });
  return { status, ...written };
}

async function createKey(...extra: string[]): Promise<{ key: string; keyId: string; stderr: string }> {
  const created = await keysCli('create', '--sites', SITE, ...extra);
  expect(created.status).toBe(0);
  const key = created.stdout.trim();
  return { key, keyId: keyIdOf(hashApiKey(key)), stderr: created.stderr };
}

describe('npm run keys', () => {
  it('create prints the key on stdout and its key id (never the key) on stderr', async () => {
    const { key, keyId, stderr } = await createKey('--tenant', 'cli-create');
    expect(key).toMatch(/^sbk_/);
    expect(stderr).toContain(`Key ${keyId} created for tenant cli-create`);
    expect(stderr).not.toContain(key);
    expect(await keys.findById(keyId)).toMatchObject({ key_hash: hashApiKey(key), tenant_id: 'cli-create' });
  });

  it('list shows every key of a tenant with its sites, creation, expiry and revocation, and no key', async () => {
    const first = await createKey('--tenant', 'cli-list', '--label', 'crm');
    const second = await createKey('--tenant', 'cli-list', '--expires-in', '90d');
    const other = await createKey('--tenant', 'cli-list-other');
    await keysCli('revoke', '--id', first.keyId);

    const listed = await keysCli('list', '--tenant', 'cli-list');
    expect(listed.status).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^KEY ID\s+TENANT\s+STATE\s+CREATED\s+EXPIRES\s+REVOKED\s+LABEL\s+SITES$/);
    expect(lines).toHaveLength(3);
    const row = (keyId: string) => lines.find((line) => line.startsWith(keyId))!.split(/\s+/);
    expect(row(first.keyId)).toEqual([
      first.keyId,
      'cli-list',
      'revoked',
      '2026-11-23T10:00:00.000Z',
      '-',
      '2026-11-23T10:00:00.000Z',
      'crm',
      SITE,
    ]);
    expect(row(second.keyId)).toEqual([
      second.keyId,
      'cli-list',
      'active',
      '2026-11-23T10:00:00.000Z',
      new Date(NOW + 90 * DAY).toISOString(),
      '-',
      '-',
      SITE,
    ]);
    expect(listed.stdout).not.toContain(other.keyId);
    expect(listed.stdout).not.toContain(first.key);
    expect((await keysCli('list')).stdout).toContain(other.keyId);
  });

  it('revoke --id stops the key it names (and only it); revoke --key still works', async () => {
    const byId = await createKey('--tenant', 'cli-revoke');
    const byKey = await createKey('--tenant', 'cli-revoke');
    const kept = await createKey('--tenant', 'cli-revoke');

    const revoked = await keysCli('revoke', '--id', byId.keyId.toUpperCase());
    expect(revoked.status).toBe(0);
    expect(revoked.stderr).toContain(`Key ${byId.keyId} of tenant cli-revoke revoked`);
    expect((await keysCli('revoke', '--key', byKey.key)).status).toBe(0);

    const authenticate = createAuthenticator(keys);
    await expect(authenticate({ 'x-api-key': byId.key })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate({ 'x-api-key': byKey.key })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await authenticate({ 'x-api-key': kept.key })).toMatchObject({ tenantId: 'cli-revoke', keyId: kept.keyId });
  });

  it('answers a key id that names no key with status 1, and a malformed one with the usage', async () => {
    expect(await keysCli('revoke', '--id', '0123456789ab')).toMatchObject({ status: 1, stderr: 'No such key.\n' });
    const malformed = await keysCli('revoke', '--id', 'sbk_not-an-id');
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('--id: a key id is 12 hex characters');
    expect((await keysCli('revoke')).status).toBe(2);
  });

  it('limits shows and sets a tenant’s own limits, keeps those not named, refuses bad values and unknown tenants', async () => {
    await createKey('--tenant', 'cli-limits');
    expect(await keysCli('limits', '--tenant', 'cli-limits')).toMatchObject({
      status: 0,
      stdout: '{"tenant_id":"cli-limits","limits":{}}\n',
    });

    const set = await keysCli('limits', '--tenant', 'cli-limits', '--requests-per-second', '2', '--burst', '4');
    expect(set.status).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ tenant_id: 'cli-limits', limits: { requests_per_second: 2, burst: 4 } });
    await keysCli('limits', '--tenant', 'cli-limits', '--in-progress', '10');
    expect((await ports.tenants.get('cli-limits'))?.limits).toEqual({ requests_per_second: 2, burst: 4, in_progress: 10 });

    const refused = await keysCli('limits', '--tenant', 'cli-limits', '--burst', '0');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^--burst: /);
    expect((await keysCli('limits', '--tenant', 'cli-limits', '--monthly-tokens', 'lots')).stderr).toMatch(
      /--monthly-tokens: "lots" is not a number/,
    );
    expect((await ports.tenants.get('cli-limits'))?.limits).toEqual({ requests_per_second: 2, burst: 4, in_progress: 10 });

    expect(JSON.parse((await keysCli('limits', '--tenant', 'cli-limits', '--clear', '--burst', '3')).stdout).limits).toEqual({ burst: 3 });
    expect(await keysCli('limits', '--tenant', 'nobody-here', '--burst', '3')).toMatchObject({
      status: 1,
      stderr: 'No tenant "nobody-here".\n',
    });
    expect((await keysCli('limits', '--burst', '3')).status).toBe(2);
  });

  it('create --expires-at sets the expiry; a past, malformed or doubled expiry is refused and nothing is made', async () => {
    const { keyId } = await createKey('--tenant', 'cli-expiry', '--expires-at', '2027-03-01T00:00:00Z');
    expect((await keys.findById(keyId))?.valid_until).toBe('2027-03-01T00:00:00.000Z');
    for (const option of [
      ['--expires-at', '2026-01-01T00:00:00Z'],
      ['--expires-at', 'soon'],
      ['--expires-in', '3 weeks'],
      ['--expires-in', '1d', '--expires-at', '2027-03-01'],
    ]) {
      const refused = await keysCli('create', '--sites', SITE, '--tenant', 'cli-expiry-refused', ...option);
      expect([refused.status, refused.stdout]).toEqual([2, '']);
    }
    expect(await keys.list('cli-expiry-refused')).toEqual([]);
  });

  it('runs as `npm run keys` against the embedded DynamoDB', async () => {
    const child = spawn(
      process.execPath,
      ['infra/cli/run.mjs', 'infra/cli/keys.ts', 'create', '--sites', SITE, '--tenant', 'cli-process'],
      {
        env: {
          ...process.env,
          AWS_ENDPOINT_URL_DYNAMODB: services.aws.dynamodbEndpoint,
          TABLE_NAME: services.aws.tableName,
          NODE_OPTIONS: '',
        },
      },
    );
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
    const keyId = keyIdOf(hashApiKey(output.stdout.trim()));
    expect(output.stderr).toContain(`Key ${keyId} created for tenant cli-process`);
    expect(await keys.findById(keyId)).toMatchObject({ tenant_id: 'cli-process' });
  });
});
