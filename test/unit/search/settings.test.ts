import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { environmentSecrets, type SecretSource } from '../../../shared/platform/secrets';
import { configuredSearchProviders, SEARCH_PROVIDERS_REFRESH_MS } from '../../../shared/providers/search/from-settings';
import { SEARCH_PROVIDER_NAMES, SEARCH_PROVIDER_TABLE } from '../../../shared/providers/search/providers';
import { readSearchSettings, SEARCH_SECRET_KEYS, searchSettingsSchema } from '../../../shared/providers/search/settings';

/** Never reached: building providers talks to no table (the quota is only used when Google searches). */
const db = createDocumentClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
afterAll(() => db.destroy());

const allKeys = {
  GOOGLE_CSE_API_KEY: 'g-key',
  GOOGLE_CSE_ID: 'g-cx',
  BRAVE_API_KEY: 'b-key',
  PERPLEXITY_API_KEY: 'p-key',
};

/** A secret source that counts its reads. */
function counting(values: Record<string, string | undefined>): SecretSource & { reads: number } {
  const source = {
    reads: 0,
    async read(names: readonly string[]) {
      source.reads += 1;
      return Object.fromEntries(names.map((name) => [name, values[name]]));
    },
  };
  return source;
}

const names = async (settings: Record<string, string | undefined>, secrets: SecretSource) =>
  (await configuredSearchProviders({ settings, secrets, db, tableName: 't' })()).map((provider) => provider.name);

describe('search settings', () => {
  it('defaults to google, brave, perplexity with a 1 h cache and Google’s free 100 queries', () => {
    expect(readSearchSettings({})).toEqual({
      SEARCH_PROVIDERS: ['google', 'brave', 'perplexity'],
      SEARCH_CACHE_TTL: 3600,
      GOOGLE_CSE_DAILY_QUOTA: 100,
    });
  });

  it('reads every setting by its documented name', () => {
    expect(Object.keys(searchSettingsSchema.shape).sort()).toEqual(
      [
        'BRAVE_BASE_URL',
        'GOOGLE_CSE_BASE_URL',
        'GOOGLE_CSE_DAILY_QUOTA',
        'PERPLEXITY_BASE_URL',
        'PERPLEXITY_MODEL',
        'SEARCH_CACHE_TTL',
        'SEARCH_PROVIDERS',
      ].sort(),
    );
    expect(
      readSearchSettings({
        SEARCH_PROVIDERS: ' Brave , perplexity ',
        SEARCH_CACHE_TTL: '0',
        GOOGLE_CSE_DAILY_QUOTA: '10000',
        GOOGLE_CSE_BASE_URL: 'http://127.0.0.1:1/g',
        PERPLEXITY_MODEL: 'sonar-pro',
      }),
    ).toMatchObject({
      SEARCH_PROVIDERS: ['brave', 'perplexity'],
      SEARCH_CACHE_TTL: 0,
      GOOGLE_CSE_DAILY_QUOTA: 10000,
      PERPLEXITY_MODEL: 'sonar-pro',
    });
  });

  it('fails at cold start on an unknown provider, naming the setting and the name', () => {
    expect(() =>
      configuredSearchProviders({ settings: { SEARCH_PROVIDERS: 'google,bing' }, secrets: environmentSecrets({}), db, tableName: 't' }),
    ).toThrow(/SEARCH_PROVIDERS: unknown search provider bing \(known: google, brave, perplexity\)/);
  });

  it('refuses a provider named twice, and malformed numbers and URLs, naming each setting', () => {
    expect(() => readSearchSettings({ SEARCH_PROVIDERS: 'brave,brave' })).toThrow(/SEARCH_PROVIDERS: names brave more than once/);
    expect(() => readSearchSettings({ SEARCH_CACHE_TTL: '1h' })).toThrow(/SEARCH_CACHE_TTL: must be a whole number/);
    expect(() => readSearchSettings({ GOOGLE_CSE_DAILY_QUOTA: '-1' })).toThrow(/GOOGLE_CSE_DAILY_QUOTA/);
    expect(() => readSearchSettings({ BRAVE_BASE_URL: 'not a url' })).toThrow(/BRAVE_BASE_URL/);
  });

  it('lists the credentials of every provider as the secret keys', () => {
    expect(SEARCH_SECRET_KEYS).toEqual(['GOOGLE_CSE_API_KEY', 'GOOGLE_CSE_ID', 'BRAVE_API_KEY', 'PERPLEXITY_API_KEY']);
    expect(SEARCH_PROVIDER_NAMES).toEqual(['google', 'brave', 'perplexity']);
    expect(SEARCH_PROVIDER_TABLE.google.credentials).toEqual(['GOOGLE_CSE_API_KEY', 'GOOGLE_CSE_ID']);
  });
});

describe('configuredSearchProviders', () => {
  it('builds the chain in SEARCH_PROVIDERS order', async () => {
    expect(await names({}, environmentSecrets(allKeys))).toEqual(['google', 'brave', 'perplexity']);
    expect(await names({ SEARCH_PROVIDERS: 'perplexity,google' }, environmentSecrets(allKeys))).toEqual(['perplexity', 'google']);
  });

  it('skips a provider without credentials: with no Google key Brave leads', async () => {
    const { GOOGLE_CSE_API_KEY: _key, ...withoutGoogle } = allKeys;
    expect(await names({}, environmentSecrets(withoutGoogle))).toEqual(['brave', 'perplexity']);
  });

  it('needs both Google credentials: the key alone or the engine id alone is not enough', async () => {
    expect(await names({}, environmentSecrets({ GOOGLE_CSE_API_KEY: 'k' }))).toEqual([]);
    expect(await names({}, environmentSecrets({ GOOGLE_CSE_ID: 'cx', BRAVE_API_KEY: 'b' }))).toEqual(['brave']);
    expect(await names({}, environmentSecrets({ GOOGLE_CSE_API_KEY: 'k', GOOGLE_CSE_ID: '  ' }))).toEqual([]);
  });

  it('is empty with no credentials at all (the caller then uses the local corpus)', async () => {
    expect(await names({}, environmentSecrets({}))).toEqual([]);
  });

  it('reads the credentials on first use, not at cold start, and keeps them for the refresh period', async () => {
    let clock = 1_000_000;
    const secrets = counting(allKeys);
    const providers = configuredSearchProviders({ settings: {}, secrets, db, tableName: 't', now: () => clock });
    expect(secrets.reads).toBe(0);
    await providers();
    await providers();
    expect(secrets.reads).toBe(1);
    clock += SEARCH_PROVIDERS_REFRESH_MS + 1;
    await providers();
    expect(secrets.reads).toBe(2);
  });

  it('retries a failed credential lookup on the next use', async () => {
    let fail = true;
    const secrets: SecretSource = {
      async read(keys) {
        if (fail) throw new Error('Secrets Manager unavailable');
        return environmentSecrets(allKeys).read(keys);
      },
    };
    const providers = configuredSearchProviders({ settings: {}, secrets, db, tableName: 't' });
    await expect(providers()).rejects.toThrow('Secrets Manager unavailable');
    fail = false;
    expect((await providers()).map((provider) => provider.name)).toEqual(['google', 'brave', 'perplexity']);
  });
});
