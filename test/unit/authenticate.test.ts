import { generateApiKey, hashApiKey, type ApiKeyRecord, type ApiKeyStore } from '../../shared/access/api-keys';
import { createAuthenticator, presentedKey } from '../../shared/access/authenticate';

function memoryStore(records: ApiKeyRecord[]): ApiKeyStore & { reads: number } {
  const byHash = new Map(records.map((record) => [record.key_hash, record]));
  const store = {
    reads: 0,
    async findByHash(hash: string) {
      store.reads += 1;
      return byHash.get(hash);
    },
    async save(record: ApiKeyRecord) {
      byHash.set(record.key_hash, record);
    },
  };
  return store;
}

describe('authenticator', () => {
  const key = generateApiKey();
  const record: ApiKeyRecord = { key_hash: hashApiKey(key), tenant_id: 'tenant-a', site_ids: ['s1'], created_at: '2026-11-23T00:00:00Z' };

  it('reads the key from Authorization: Bearer or x-api-key', () => {
    expect(presentedKey({ authorization: `Bearer ${key}` })).toBe(key);
    expect(presentedKey({ 'x-api-key': key })).toBe(key);
    expect(presentedKey({ authorization: `Basic ${key}` })).toBeUndefined();
  });

  it('accepts the same key in both headers and refuses two different keys with UNAUTHORIZED', async () => {
    const otherKey = generateApiKey();
    const store = memoryStore([record, { ...record, key_hash: hashApiKey(otherKey), tenant_id: 'tenant-b' }]);
    const authenticate = createAuthenticator(store);
    expect(presentedKey({ 'x-api-key': key, authorization: `Bearer ${key}` })).toBe(key);
    expect(await authenticate({ 'x-api-key': key, authorization: `bearer ${key}` })).toMatchObject({ tenantId: 'tenant-a' });
    expect(() => presentedKey({ 'x-api-key': key, authorization: `Bearer ${otherKey}` })).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
    await expect(authenticate({ 'x-api-key': otherKey, authorization: `Bearer ${key}` })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate({ 'x-api-key': key, authorization: `Bearer ${otherKey}` })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('finds the tenant and sites of a valid key, reading the store once per minute', async () => {
    const store = memoryStore([record]);
    const authenticate = createAuthenticator(store);
    expect(await authenticate({ 'x-api-key': key })).toMatchObject({ tenantId: 'tenant-a', siteIds: ['s1'] });
    await authenticate({ authorization: `Bearer ${key}` });
    expect(store.reads).toBe(1);
  });

  it('refuses missing, unknown and revoked keys with UNAUTHORIZED', async () => {
    const revokedKey = generateApiKey();
    const store = memoryStore([record, { ...record, key_hash: hashApiKey(revokedKey), revoked_at: '2026-11-23T01:00:00Z' }]);
    const authenticate = createAuthenticator(store);
    await expect(authenticate({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate({ 'x-api-key': 'sbk_wrong' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(authenticate({ 'x-api-key': revokedKey })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('stores only the hash of a key', () => {
    expect(record.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(record)).not.toContain(key);
  });
});
