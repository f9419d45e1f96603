import { isValidTenantId } from '../../shared/access/tenant-id';
import { tenantMayActOn, type TenantRecord } from '../../shared/access/tenants';
import { canonicalId } from '../../shared/platform/ids';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const tenant: TenantRecord = {
  tenant_id: 'acme',
  site_ids: [SITE, 'site-b'],
  created_at: '2026-11-23T00:00:00.000Z',
  updated_at: '2026-11-23T00:00:00.000Z',
};

describe('tenantMayActOn', () => {
  it('lets a tenant act on its own sites', () => {
    expect(tenantMayActOn(tenant, SITE)).toBe(true);
    expect(tenantMayActOn(tenant, 'site-b')).toBe(true);
  });

  it('compares UUID site ids case-insensitively, other ids exactly', () => {
    expect(tenantMayActOn(tenant, SITE.toUpperCase())).toBe(true);
    expect(tenantMayActOn(tenant, 'SITE-B')).toBe(false);
  });

  it('refuses a site outside the tenant, and an empty site id', () => {
    expect(tenantMayActOn(tenant, '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f')).toBe(false);
    expect(tenantMayActOn(tenant, '')).toBe(false);
  });

  it('lets an existing tenant run a site-less operation, even with no sites', () => {
    expect(tenantMayActOn(tenant, undefined)).toBe(true);
    expect(tenantMayActOn({ ...tenant, site_ids: [] }, undefined)).toBe(true);
  });

  it('refuses an unknown tenant everything', () => {
    expect(tenantMayActOn(undefined, SITE)).toBe(false);
    expect(tenantMayActOn(undefined, undefined)).toBe(false);
  });
});

describe('isValidTenantId', () => {
  it('accepts lower-case ids of letters, digits, "_" and "-" up to 63 characters', () => {
    for (const id of ['acme', 'local', 'tenant-0a1b2c3d', 'a', '9_lives', 'a'.repeat(63)]) expect(isValidTenantId(id)).toBe(true);
  });

  it('refuses upper case, spaces, separators, a leading "-" or "_", empty and over-long ids', () => {
    for (const id of ['Acme', 'acme corp', 'acme#1', 'a/b', '-acme', '_acme', '', 'a'.repeat(64), 'acme\n'])
      expect(isValidTenantId(id)).toBe(false);
  });
});

describe('canonicalId', () => {
  it('lower-cases UUID-shaped ids and keeps any other id as given', () => {
    expect(canonicalId(SITE.toUpperCase())).toBe(SITE);
    expect(canonicalId('Site-B')).toBe('Site-B');
    expect(canonicalId(`${SITE.toUpperCase()}x`)).toBe(`${SITE.toUpperCase()}x`);
  });
});
