import { SearchFailedError, searchThroughChain } from '../../../shared/providers/search/chain';
import {
  SearchProviderError,
  type SearchFailureKind,
  type SearchPage,
  type SearchProvider,
  type SearchQuery,
} from '../../../shared/providers/search/port';

const query: SearchQuery = { text: 'llm news', terms: 'llm news', keywords: [], sources: [], maxResults: 10 };

type Step = SearchPage | { fail: SearchFailureKind; requests?: number; message?: string } | Error;

/** A provider that plays its steps in order (the last one repeats) and counts its calls. */
function scripted(name: string, ...steps: Step[]): SearchProvider & { calls: number } {
  const provider = {
    name,
    calls: 0,
    async search(): Promise<SearchPage> {
      const step = steps[Math.min(provider.calls, steps.length - 1)]!;
      provider.calls += 1;
      if (step instanceof Error) throw step;
      if ('fail' in step) throw new SearchProviderError(name, step.fail, step.message ?? `${name} ${step.fail}`, step.requests ?? 1);
      return step;
    },
  };
  return provider;
}

const served = (url: string, requests = 1): SearchPage => ({ hits: [{ title: url, url, snippet: '' }], requests });
const fast = { retryDelayMs: 0 };

describe('searchThroughChain', () => {
  it('returns the first provider that serves, with its requests, and asks no other', async () => {
    const google = scripted('google', served('https://g.example/', 3));
    const brave = scripted('brave', served('https://b.example/'));
    const result = await searchThroughChain([google, brave], query, fast);
    expect(result).toEqual({
      provider: 'google',
      hits: [{ title: 'https://g.example/', url: 'https://g.example/', snippet: '' }],
      providerRequests: 3,
      passedOver: [],
    });
    expect(brave.calls).toBe(0);
  });

  it('passes a quota failure to the next provider at once, without a retry', async () => {
    const google = scripted('google', { fail: 'quota', requests: 0 });
    const brave = scripted('brave', served('https://b.example/', 2));
    const result = await searchThroughChain([google, brave], query, fast);
    expect(google.calls).toBe(1);
    expect(result.provider).toBe('brave');
    expect(result.providerRequests).toBe(2);
    expect(result.passedOver).toEqual([{ provider: 'google', reason: 'quota: google quota' }]);
  });

  it.each<SearchFailureKind>(['malformed', 'rejected'])('passes a %s failure to the next provider without a retry', async (kind) => {
    const google = scripted('google', { fail: kind });
    const brave = scripted('brave', served('https://b.example/'));
    const result = await searchThroughChain([google, brave], query, fast);
    expect(google.calls).toBe(1);
    expect(result.providerRequests).toBe(2);
    expect(result.passedOver[0]?.reason).toBe(`${kind}: google ${kind}`);
  });

  it('retries a transient failure once and serves from the retry', async () => {
    const google = scripted('google', { fail: 'transient' }, served('https://g.example/'));
    const brave = scripted('brave', served('https://b.example/'));
    const result = await searchThroughChain([google, brave], query, fast);
    expect(google.calls).toBe(2);
    expect(brave.calls).toBe(0);
    expect(result).toMatchObject({ provider: 'google', providerRequests: 2, passedOver: [] });
  });

  it('passes over a provider failing transiently twice, counting both attempts', async () => {
    const google = scripted('google', { fail: 'transient', message: 'Google answered 500 INTERNAL backendError' });
    const brave = scripted('brave', served('https://b.example/'));
    const result = await searchThroughChain([google, brave], query, fast);
    expect(google.calls).toBe(2);
    expect(result.providerRequests).toBe(3);
    expect(result.passedOver).toEqual([
      { provider: 'google', reason: 'transient: Google answered 500 INTERNAL backendError (2 attempts)' },
    ]);
  });

  it('does not retry when the retry fails otherwise, and names both failures', async () => {
    const google = scripted(
      'google',
      { fail: 'transient', message: 'Google did not answer within 8000 ms' },
      { fail: 'quota', requests: 1, message: 'Google answered 429' },
    );
    const brave = scripted('brave', served('https://b.example/'));
    const result = await searchThroughChain([google, brave], query, fast);
    expect(google.calls).toBe(2);
    expect(result.passedOver[0]?.reason).toBe('quota: Google did not answer within 8000 ms, then Google answered 429 (2 attempts)');
  });

  it('waits the retry delay before retrying', async () => {
    const google = scripted('google', { fail: 'transient' }, served('https://g.example/'));
    const started = Date.now();
    await searchThroughChain([google], query, { retryDelayMs: 120 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('waits the retry delay the way it is told (the worker waits on its clock)', async () => {
    const google = scripted('google', { fail: 'transient' }, served('https://g.example/'));
    const waits: number[] = [];
    const result = await searchThroughChain([google], query, { sleep: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([1_000]);
    expect(result.provider).toBe('google');
  });

  it('throws SearchFailedError with every reason and every request when all fail', async () => {
    const google = scripted('google', { fail: 'transient', requests: 1 });
    const brave = scripted('brave', { fail: 'quota', requests: 0 });
    const perplexity = scripted('perplexity', { fail: 'malformed', requests: 1 });
    const failure = await searchThroughChain([google, brave, perplexity], query, fast).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchFailedError);
    const failed = failure as SearchFailedError;
    expect(failed.providerRequests).toBe(3);
    expect(failed.failures.map((entry) => entry.provider)).toEqual(['google', 'brave', 'perplexity']);
    expect(failed.message).toBe(
      'Every search provider failed: google: transient: google transient (2 attempts); brave: quota: brave quota; perplexity: malformed: perplexity malformed',
    );
  });

  it('fails with no failures listed when no provider is configured', async () => {
    const failure = await searchThroughChain([], query, fast).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchFailedError);
    expect((failure as SearchFailedError).failures).toEqual([]);
    expect((failure as Error).message).toBe('No search provider is configured');
  });

  it('rethrows an error that is not a provider failure (a fault of ours), asking no further provider', async () => {
    const broken = scripted('google', new TypeError('bug'));
    const brave = scripted('brave', served('https://b.example/'));
    await expect(searchThroughChain([broken, brave], query, fast)).rejects.toThrow('bug');
    expect(brave.calls).toBe(0);
  });
});
