import { createLogger } from '../../../shared/platform/logger';
import { environmentSecrets } from '../../../shared/platform/secrets';
import { dynamoSearchCache } from '../../../shared/providers/search/cache';
import { SearchFailedError, searchThroughChain, type ChainResult } from '../../../shared/providers/search/chain';
import { configuredSearchProviders } from '../../../shared/providers/search/from-settings';
import type { SearchQuery } from '../../../shared/providers/search/port';
import { startFakeBrave, type BraveFake } from '../../fakes/brave';
import { startFakeGoogle, type GoogleFake } from '../../fakes/google';
import { startFakePerplexity, type PerplexityFake } from '../../fakes/perplexity';
import { captureOutput } from '../../support/capture-output';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * The provider chain as the research worker builds it: settings and
 * credentials → configuredSearchProviders → searchThroughChain, against
 * the loopback fakes of Google, Brave and Perplexity and the embedded
 * DynamoDB (Google's daily counter, the cache).
 */
let services: EmbeddedServices;
let google: GoogleFake;
let brave: BraveFake;
let perplexity: PerplexityFake;
const clock = { ms: Date.parse('2031-01-01T20:00:00Z') };
const now = () => clock.ms;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  [services, google, brave, perplexity] = await Promise.all([
    startEmbeddedServices(),
    startFakeGoogle(),
    startFakeBrave(),
    startFakePerplexity(),
  ]);
});
afterAll(async () => {
  await Promise.all([google.close(), brave.close(), perplexity.close()]);
  await services.stop();
});
beforeEach(() => {
  clock.ms += DAY_MS; // every test on a fresh Pacific day: its own Google counter
  for (const fake of [google, brave, perplexity]) {
    fake.heal();
    fake.requests.length = 0;
  }
});

const credentials = () => ({
  GOOGLE_CSE_API_KEY: google.apiKey,
  GOOGLE_CSE_ID: google.engineId,
  BRAVE_API_KEY: brave.apiKey,
  PERPLEXITY_API_KEY: perplexity.apiKey,
});

function chain(settings: Record<string, string> = {}, secrets: Record<string, string> = credentials()) {
  return configuredSearchProviders({
    settings: { GOOGLE_CSE_BASE_URL: google.baseUrl, BRAVE_BASE_URL: brave.baseUrl, PERPLEXITY_BASE_URL: perplexity.baseUrl, ...settings },
    secrets: environmentSecrets(secrets),
    db: services.db,
    tableName: services.aws.tableName,
    now,
  });
}

const query: SearchQuery = {
  text: 'enterprise ai adoption after:2025-01-01',
  terms: 'enterprise ai adoption',
  keywords: [],
  sources: [],
  dateFrom: '2025-01-01',
  maxResults: 30,
};

const search = async (providers: ReturnType<typeof chain>, asked: SearchQuery = query) =>
  searchThroughChain(await providers(), asked, { retryDelayMs: 5 });
const counts = () => ({ google: google.requests.length, brave: brave.requests.length, perplexity: perplexity.requests.length });

async function failureOf(promise: Promise<unknown>): Promise<SearchFailedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SearchFailedError);
  return error as SearchFailedError;
}

describe('the search chain against the provider fakes', () => {
  it('serves 30 results from Google for exactly 3 requests, asking no other provider', async () => {
    const result = await search(chain());
    expect(result).toMatchObject({ provider: 'google', providerRequests: 3, passedOver: [] });
    expect(result.hits).toHaveLength(30);
    expect(counts()).toEqual({ google: 3, brave: 0, perplexity: 0 });
  });

  it('with no Google credentials, Brave leads', async () => {
    const { GOOGLE_CSE_API_KEY: _key, ...withoutGoogle } = credentials();
    const result = await search(chain({}, withoutGoogle));
    expect(result).toMatchObject({ provider: 'brave', providerRequests: 2, passedOver: [] });
    expect(counts()).toEqual({ google: 0, brave: 2, perplexity: 0 });
  });

  it('passes to Brave when the quota left cannot cover the pages needed, and skips Google until the Pacific reset', async () => {
    const saved = clock.ms;
    clock.ms = Date.parse('2031-06-15T19:00:00Z'); // noon PDT, a day no other test uses
    const providers = chain({ GOOGLE_CSE_DAILY_QUOTA: '4' });
    expect((await search(providers)).provider).toBe('google');

    const second = await search(providers);
    expect(second).toMatchObject({ provider: 'brave', providerRequests: 2 });
    expect(second.passedOver).toEqual([{ provider: 'google', reason: expect.stringMatching(/^quota: /) }]);
    expect(counts()).toEqual({ google: 3, brave: 2, perplexity: 0 });

    clock.ms += 11 * 60 * 60 * 1000; // 23:00 Pacific: the same day
    expect((await search(providers)).provider).toBe('brave');
    expect(google.requests).toHaveLength(3);

    clock.ms += 60 * 60 * 1000; // midnight Pacific: a new day, a new allowance
    expect((await search(providers)).provider).toBe('google');
    expect(google.requests).toHaveLength(6);
    clock.ms = saved;
  });

  it('retries Google once after a 500, then serves from Brave, counting every request', async () => {
    google.failNext(2, 'server-error');
    const result = await search(chain());
    expect(result).toMatchObject({ provider: 'brave', providerRequests: 4 });
    expect(result.passedOver).toEqual([
      { provider: 'google', reason: 'transient: Google answered 500 INTERNAL backendError (2 attempts)' },
    ]);
    expect(counts()).toEqual({ google: 2, brave: 2, perplexity: 0 });
  });

  it('serves from Google when its retry succeeds', async () => {
    google.failNext(1, 'server-error');
    const result = await search(chain());
    expect(result).toMatchObject({ provider: 'google', providerRequests: 4, passedOver: [] });
  });

  it('falls to Perplexity when Google and Brave are both down', async () => {
    google.failNext(Infinity, 'unavailable');
    brave.failNext(Infinity, 'disconnect');
    const result = await search(chain());
    expect(result.provider).toBe('perplexity');
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.passedOver.map((failure) => failure.provider)).toEqual(['google', 'brave']);
    expect(counts()).toEqual({ google: 2, brave: 2, perplexity: 1 });
    expect(result.providerRequests).toBe(3); // Brave's dropped connections never answered
  });

  it('fails with SEARCH_FAILED reasons for every provider when all are down', async () => {
    google.failNext(Infinity, 'server-error');
    brave.failNext(Infinity, 'credit-exhausted');
    perplexity.failNext(Infinity, 'malformed');
    const error = await failureOf(search(chain()));
    expect(error.failures).toEqual([
      { provider: 'google', reason: 'transient: Google answered 500 INTERNAL backendError (2 attempts)' },
      { provider: 'brave', reason: 'quota: Brave answered 402 CREDIT_EXHAUSTED' },
      { provider: 'perplexity', reason: 'malformed: Perplexity sent a body that is not JSON' },
    ]);
    expect(error.providerRequests).toBe(4);
    expect(counts()).toEqual({ google: 2, brave: 1, perplexity: 1 });
  });

  it('closes Google for the day on its 429 quota answer: the next search never asks it', async () => {
    google.failNext(1, 'quota');
    const first = await search(chain());
    expect(first).toMatchObject({ provider: 'brave', providerRequests: 3 });
    expect(first.passedOver[0]!.reason).toMatch(/^quota: Google answered 429 RESOURCE_EXHAUSTED rateLimitExceeded/);

    const second = await search(chain());
    expect(second.provider).toBe('brave');
    expect(google.requests).toHaveLength(1);
  });

  it('serves an identical search from the cache for 0 provider requests, until the TTL passes', async () => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 3600, now);
    const providers = chain();
    const cachedSearch = async (asked: SearchQuery): Promise<ChainResult & { cached: boolean }> => {
      const hit = await cache.get(asked);
      if (hit) return { ...hit, providerRequests: 0, passedOver: [], cached: true };
      const result = await search(providers, asked);
      await cache.put(asked, { provider: result.provider, hits: result.hits });
      return { ...result, cached: false };
    };
    const fresh = await cachedSearch({ ...query, sources: ['b.example', 'a.example'] });
    expect(fresh).toMatchObject({ cached: false, providerRequests: 3 });

    const again = await cachedSearch({ ...query, sources: ['A.example', 'b.example'], text: ` ${query.text}  ` });
    expect(again).toMatchObject({ cached: true, provider: 'google', providerRequests: 0 });
    expect(again.hits).toEqual(fresh.hits);
    expect(counts()).toEqual({ google: 3, brave: 0, perplexity: 0 });

    clock.ms += 3601 * 1000;
    expect(await cachedSearch({ ...query, sources: ['a.example', 'b.example'] })).toMatchObject({ cached: false });
    expect(google.requests).toHaveLength(6);
  });

  it('keeps every key out of errors and log lines, even when each provider echoes its key back', async () => {
    const secrets = { ...credentials(), BRAVE_API_KEY: 'BSA-wrong-brave-token-77', PERPLEXITY_API_KEY: 'pplx-wrong-perplexity-key-77' };
    google.failNext(Infinity, 'invalid-key'); // Google's message echoes the request URL, key included
    const providers = chain({}, secrets);
    let error: SearchFailedError | undefined;
    const written = [];
    for (const format of ['json', 'pretty'] as const) {
      const logger = createLogger('research', { level: 'DEBUG', format });
      written.push(
        await captureOutput(async () => {
          error = await failureOf(search(providers));
          logger.error('Search failed', error);
          logger.error('Search failed', { failures: error.failures, error });
          logger.warn('Provider passed over', { cause: error });
        }),
      );
    }
    const output = written.map(({ stdout, stderr }) => stdout + stderr).join('\n');
    expect(output).toContain('Google answered 400 INVALID_ARGUMENT badRequest');
    expect(output).toContain('Brave answered 422 SUBSCRIPTION_TOKEN_INVALID');
    expect(output).toContain('Perplexity answered 401');
    for (const secret of [google.apiKey, 'BSA-wrong-brave-token-77', 'pplx-wrong-perplexity-key-77', 'key=', '/customsearch/v1']) {
      expect(output).not.toContain(secret);
      expect(error!.message).not.toContain(secret);
      expect(JSON.stringify(error!.failures)).not.toContain(secret);
    }
  });
});
