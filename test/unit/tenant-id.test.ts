import { isValidTenantId, TENANT_ID_PATTERN } from '../../shared/access/tenant-id';

describe('tenant ids', () => {
  it.each(['local', 'acme', 'tenant-1a2b3c4d', 'a', '0', 'acme_eu-2', 'a'.repeat(63)])('accepts %p', (id) => {
    expect(isValidTenantId(id)).toBe(true);
  });

  it.each([
    '',
    'Acme',
    'acme#lead_follow_up#x',
    'acme/x',
    '-acme',
    '_acme',
    'a'.repeat(64),
    'acme ',
    ' acme',
    'acmé',
    'acme\n',
    42,
    undefined,
    null,
  ])('refuses %p', (id) => {
    expect(isValidTenantId(id)).toBe(false);
  });

  it('has no flags that could make it stateful or case-blind', () => {
    expect(TENANT_ID_PATTERN.flags).toBe('');
  });
});
