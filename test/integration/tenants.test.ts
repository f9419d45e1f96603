import { generateApiKey, hashApiKey, registerApiKey } from '../../shared/access/api-keys';
import { dynamoApiKeyStore } from '../../shared/access/dynamo-api-keys';
import type { TenantStore } from '../../shared/access/tenants';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import { registerKeys } from '../../infra/local/provision';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

const SITE_A = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const SITE_B = '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const T1 = Date.parse('2026-11-23T11:00:00.000Z');

let services: EmbeddedServices;
let tenants: TenantStore;
beforeAll(async () => {
  services = await startEmbeddedServices();
  tenants = dynamoTenantStore(services.db, services.aws.tableName);
});
afterAll(() => services.stop());

describe('dynamoTenantStore', () => {
  it('knows no tenant before its first grant', async () => {
    expect(await tenants.get('nobody')).toBeUndefined();
  });

  it('creates the tenant on its first grant and merges a second grant into it', async () => {
    const first = await tenants.grantSites('merge', [SITE_A], T0);
    expect(first).toEqual({
      tenant_id: 'merge',
      site_ids: [SITE_A],
      created_at: '2026-11-23T10:00:00.000Z',
      updated_at: '2026-11-23T10:00:00.000Z',
    });

    const second = await tenants.grantSites('merge', [SITE_B, SITE_A], T1);
    expect(second).toEqual({
      tenant_id: 'merge',
      site_ids: [SITE_B, SITE_A].sort(),
      created_at: '2026-11-23T10:00:00.000Z',
      updated_at: '2026-11-23T11:00:00.000Z',
    });
    expect(await tenants.get('merge')).toEqual(second);
  });

  it('keeps every one of many concurrent grants', async () => {
    const sites = Array.from({ length: 12 }, (_, index) => `site-${index}`);
    await Promise.all(sites.map((site) => tenants.grantSites('concurrent', [site], T0)));
    expect((await tenants.get('concurrent'))?.site_ids).toEqual([...sites].sort());
  });

  it('stores UUID site ids in lower case and other site ids as given', async () => {
    const record = await tenants.grantSites('cases', [SITE_A.toUpperCase(), 'Site-X'], T0);
    expect(record.site_ids).toEqual([SITE_A, 'Site-X']);
  });

  it('creates a tenant with no sites from an empty grant, and an empty grant keeps existing sites', async () => {
    expect(await tenants.grantSites('empty', [], T0)).toMatchObject({ tenant_id: 'empty', site_ids: [] });
    await tenants.grantSites('empty', [SITE_A], T0);
    expect((await tenants.grantSites('empty', [], T1)).site_ids).toEqual([SITE_A]);
  });

  it('refuses a malformed tenant id or an empty site id, and writes nothing', async () => {
    await expect(tenants.grantSites('Acme Corp', [SITE_A], T0)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('Acme Corp'),
    });
    await expect(tenants.grantSites('blank', [' '], T0)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await tenants.get('blank')).toBeUndefined();
  });
});

describe('registerApiKey', () => {
  it("grants the key's sites to its tenant, creating or extending it; the key covers a subset", async () => {
    const keys = dynamoApiKeyStore(services.db, services.aws.tableName);
    await tenants.grantSites('acme', [SITE_A], T0);
    const key = generateApiKey();

    const record = await registerApiKey(
      { keys, tenants },
      { key, tenantId: 'acme', siteIds: [SITE_B.toUpperCase(), 'site-c', SITE_B], now: T1 },
    );

    expect(record.site_ids).toEqual([SITE_B, 'site-c']);
    expect(await keys.findByHash(hashApiKey(key))).toEqual(record);
    const tenant = await tenants.get('acme');
    expect(tenant?.site_ids).toEqual([SITE_A, SITE_B, 'site-c'].sort());
    expect(record.site_ids.every((site) => tenant?.site_ids.includes(site))).toBe(true);
  });

  it('saves no key when its tenant id is malformed', async () => {
    const keys = dynamoApiKeyStore(services.db, services.aws.tableName);
    const key = generateApiKey();
    await expect(registerApiKey({ keys, tenants }, { key, tenantId: 'ACME', siteIds: [SITE_A], now: T0 })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(await keys.findByHash(hashApiKey(key))).toBeUndefined();
  });
});

describe('registerKeys (npm start)', () => {
  it("keeps tenant records in step: 'local' gets every loaded site, each API_KEYS key's tenant its own sites", async () => {
    const [mainKey, otherKey] = [generateApiKey(), generateApiKey()];
    const registered = await registerKeys(services.db, services.aws.tableName, [
      { key: mainKey, siteIds: [SITE_A, SITE_B], tenantId: 'local', label: 'API_KEY' },
      { key: otherKey, siteIds: [SITE_B.toUpperCase()], label: 'API_KEYS' },
    ]);

    const otherTenant = `tenant-${hashApiKey(otherKey).slice(0, 8)}`;
    expect(registered).toEqual([
      { key: mainKey, tenantId: 'local' },
      { key: otherKey, tenantId: otherTenant },
    ]);
    expect((await tenants.get('local'))?.site_ids).toEqual([SITE_A, SITE_B].sort());
    expect((await tenants.get(otherTenant))?.site_ids).toEqual([SITE_B]);
  });
});
