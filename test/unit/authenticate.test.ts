import { generateApiKey, hashApiKey, type ApiKeyRecord, type ApiKeyStore } from '../../shared/access/api-keys';
import { createAuthenticator, KEY_CACHE_MAX_ENTRIES, presentedKey } from '../../shared/access/authenticate';

function memoryStore(records: ApiKeyRecord[]): Pick<ApiKeyStore, 'findByHash' | 'save'> & { reads: number; readsOf: Map<string, number> } {
  const byHash = new Map(records.map((record) => [record.key_hash, record]));
  const store = {
    reads: 0,
    readsOf: new Map<string, number>(),
    async findByHash(hash: string) {
      store.reads += 1;
      store.readsOf.set(hash, (store.readsOf.get(hash) ?? 0) + 1);
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
    expect(() => presentedKey({ 'x-api-key': key, authorization: `Bearer ${otherKey}` })).toThrow(
      expect.objectContaining({ code: 'UNAUTHORIZED' }),
    );
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

describe('authenticator key cache', () => {
  const key = generateApiKey();
  const record: ApiKeyRecord = { key_hash: hashApiKey(key), tenant_id: 'tenant-a', site_ids: ['s1'], created_at: '2026-11-23T00:00:00Z' };
  const fakeClock = () => {
    const clock = { at: Date.parse('2026-11-23T10:00:00Z'), now: () => clock.at };
    return clock;
  };

  it('stays bounded under a flood of random keys, each costing one read', async () => {
    const store = memoryStore([record]);
    const authenticate = createAuthenticator(store);
    // Twice the bound of distinct keys: past it, each new miss must push an older one out.
    const flood = 2 * KEY_CACHE_MAX_ENTRIES;
    for (let index = 0; index < flood; index += 1) {
      await expect(authenticate({ 'x-api-key': generateApiKey() })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect(store.reads).toBe(flood);
    expect(authenticate.cacheSize()).toBeLessThanOrEqual(KEY_CACHE_MAX_ENTRIES);
  });

  it('keeps a key in use cached through a flood of others, and forgets the least recently used', async () => {
    const store = memoryStore([record]);
    const authenticate = createAuthenticator(store, { maxEntries: 100 });
    const idle = generateApiKey();
    await authenticate({ 'x-api-key': idle }).catch(() => undefined);
    for (let index = 0; index < 1_000; index += 1) {
      if (index % 50 === 0) await authenticate({ 'x-api-key': key });
      await authenticate({ 'x-api-key': generateApiKey() }).catch(() => undefined);
    }
    expect(store.readsOf.get(record.key_hash)).toBe(1);
    await authenticate({ 'x-api-key': idle }).catch(() => undefined);
    expect(store.readsOf.get(hashApiKey(idle))).toBe(2);
    expect(authenticate.cacheSize()).toBe(100);
  });

  it('remembers a miss only briefly: a key registered after it works once the miss time has passed', async () => {
    const clock = fakeClock();
    const store = memoryStore([]);
    const authenticate = createAuthenticator(store, { now: clock.now, missTtlMs: 5_000, ttlMs: 60_000 });

    await expect(authenticate({ 'x-api-key': key })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await store.save(record);
    clock.at += 4_999;
    await expect(authenticate({ 'x-api-key': key })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(store.reads).toBe(1);

    clock.at += 2;
    expect(await authenticate({ 'x-api-key': key })).toMatchObject({ tenantId: 'tenant-a' });
    clock.at += 59_000;
    await authenticate({ 'x-api-key': key });
    expect(store.reads).toBe(2);
    clock.at += 1_001;
    await authenticate({ 'x-api-key': key });
    expect(store.reads).toBe(3);
  });

  it('shares one read between concurrent lookups of a key, and forgets a read that failed', async () => {
    let reads = 0;
    let fail = true;
    const authenticate = createAuthenticator({
      async findByHash() {
        reads += 1;
        if (fail) throw new Error('DynamoDB unreachable');
        return record;
      },
    });
    const lookups = Array.from({ length: 5 }, () => authenticate({ 'x-api-key': key }));
    expect((await Promise.allSettled(lookups)).every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(reads).toBe(1);
    expect(authenticate.cacheSize()).toBe(0);

    fail = false;
    await Promise.all(Array.from({ length: 5 }, () => authenticate({ 'x-api-key': key })));
    expect(reads).toBe(2);
  });

  it('refuses an expired key like a revoked one, and stops trusting a cached key at its expiry', async () => {
    const clock = fakeClock();
    const expired = generateApiKey();
    const expiring = generateApiKey();
    const store = memoryStore([
      { ...record, key_hash: hashApiKey(expired), valid_until: new Date(clock.at - 1).toISOString() },
      { ...record, key_hash: hashApiKey(expiring), valid_until: new Date(clock.at + 10_000).toISOString() },
    ]);
    const authenticate = createAuthenticator(store, { now: clock.now });

    await expect(authenticate({ 'x-api-key': expired })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'The API key is not valid.',
    });
    expect(await authenticate({ 'x-api-key': expiring })).toMatchObject({ tenantId: 'tenant-a' });
    clock.at += 9_999;
    await authenticate({ 'x-api-key': expiring });
    clock.at += 1;
    await expect(authenticate({ 'x-api-key': expiring })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
