import { secretBox, SealedValueError } from '../../../shared/platform/secret-box';
import { CONNECT_POLICY, crmCallWorstCaseMs, DEFAULT_CRM_POLICY, resolveCrmPolicy } from '../../../shared/providers/crm/policy';

const KEY = 'unit-test-service-key-0123456789abcdef';
const TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555';
const A = { tenantId: 'tenant-a', purpose: 'crm:hubspot:access_token' };

describe('secretBox', () => {
  it('seals to a versioned string that holds no plaintext, and opens it again in the same context', () => {
    const box = secretBox(KEY);
    const sealed = box.seal(A, TOKEN);

    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain(Buffer.from(TOKEN).toString('base64url'));
    expect(box.open(A, sealed)).toBe(TOKEN);
    expect(secretBox(KEY).open(A, sealed)).toBe(TOKEN);
  });

  it('uses a fresh IV for every value: the same token never seals the same way twice', () => {
    const box = secretBox(KEY);
    expect(box.seal(A, TOKEN)).not.toBe(box.seal(A, TOKEN));
  });

  it('never opens a value for another tenant, as another field, under another service key, or altered', () => {
    const sealed = secretBox(KEY).seal(A, TOKEN);
    const [version, iv, ciphertext, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] = flipped[0]! ^ 1;

    const attempts = [
      () => secretBox(KEY).open({ ...A, tenantId: 'tenant-b' }, sealed),
      () => secretBox(KEY).open({ ...A, purpose: 'crm:hubspot:client_secret' }, sealed),
      () => secretBox(`${KEY}-rotated`).open(A, sealed),
      () => secretBox(KEY).open(A, [version, iv, flipped.toString('base64url'), tag].join('.')),
      () => secretBox(KEY).open(A, `v2.${iv}.${ciphertext}.${tag}`),
      () => secretBox(KEY).open(A, TOKEN),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(SealedValueError);
      try {
        attempt();
      } catch (error) {
        expect((error as Error).message).not.toContain(TOKEN);
      }
    }
  });

  it('refuses a service key shorter than 32 characters', () => {
    expect(() => secretBox('too-short')).toThrow(/at least 32 characters/);
  });
});

describe('the CRM call policy', () => {
  it('bounds one call inside a worker minute, and the token check inside its route timeout (8 s)', () => {
    expect(crmCallWorstCaseMs(DEFAULT_CRM_POLICY)).toBe(53_000);
    expect(crmCallWorstCaseMs(resolveCrmPolicy(CONNECT_POLICY))).toBe(6_500);
    expect(DEFAULT_CRM_POLICY.requestsPerWindow * 2).toBe(100);
  });
});
