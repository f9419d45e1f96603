import { inspect } from 'node:util';
import { createPerplexitySearch, sonarDate } from '../../../shared/providers/search/perplexity';
import { SearchProviderError, type SearchQuery } from '../../../shared/providers/search/port';
import { startFakePerplexity, type PerplexityFailure, type PerplexityFake } from '../../fakes/perplexity';

let fake: PerplexityFake;
beforeEach(async () => {
  fake = await startFakePerplexity();
});
afterEach(() => fake.close());

const perplexity = (timeoutMs = 2_000, apiKey = fake.apiKey) => createPerplexitySearch({ apiKey, baseUrl: fake.baseUrl, timeoutMs });

const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  text: 'robotics funding "series b" site:techcrunch.com after:2025-03-01',
  terms: 'robotics funding series b',
  keywords: ['series b'],
  sources: [],
  maxResults: 30,
  ...overrides,
});

async function failureOf(promise: Promise<unknown>): Promise<SearchProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SearchProviderError);
  return error as SearchProviderError;
}

interface SonarBody {
  model: string;
  max_tokens: number;
  messages: Array<{ role: string; content: string }>;
  search_domain_filter?: string[];
  search_after_date_filter?: string;
  search_before_date_filter?: string;
}

describe('createPerplexitySearch against the loopback fake', () => {
  it('makes one request with the terms (no operators) and hits from search_results', async () => {
    const page = await perplexity().search(query());
    expect(page.requests).toBe(1);
    expect(fake.requests).toHaveLength(1);
    const body = fake.requests[0]!.body as SonarBody;
    expect(fake.requests[0]!.path).toBe('/prefix/chat/completions');
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(body.model).toBe('sonar');
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'robotics funding series b' });
    expect(body).not.toHaveProperty('search_domain_filter');
    expect(body).not.toHaveProperty('search_after_date_filter');
    expect(page.hits).toHaveLength(10);
    expect(page.hits[0]).toEqual({
      title: 'robotics funding series b: report 1',
      url: 'https://news0.example.com/robotics-funding-series-b/1',
      snippet: 'Report 1 on robotics funding series b, with details & figures.',
      publishedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(page.hits[2]).not.toHaveProperty('publishedDate');
  });

  it('maps sources to search_domain_filter (at most 20) and dates to M/D/YYYY filters', async () => {
    const sources = Array.from({ length: 25 }, (_, index) => `Site${index}.example.com`);
    const page = await perplexity().search(query({ sources, dateFrom: '2025-03-01', dateTo: '2025-04-09' }));
    const body = fake.requests[0]!.body as SonarBody;
    expect(body.search_domain_filter).toHaveLength(20);
    expect(body.search_domain_filter![0]).toBe('site0.example.com');
    expect(body.search_after_date_filter).toBe('3/1/2025');
    expect(body.search_before_date_filter).toBe('4/9/2025');
    for (const hit of page.hits) {
      expect(body.search_domain_filter).toContain(new URL(hit.url).hostname);
      if (hit.publishedDate) expect(hit.publishedDate >= '2025-03-01' && hit.publishedDate <= '2025-04-09').toBe(true);
    }
  });

  it('writes dates without leading zeros', () => {
    expect(sonarDate('2025-01-05')).toBe('1/5/2025');
    expect(sonarDate('2025-12-31')).toBe('12/31/2025');
  });

  it('keeps to max results', async () => {
    const page = await perplexity().search(query({ maxResults: 4 }));
    expect(page.hits).toHaveLength(4);
  });

  it('falls back to citations when an answer has no search_results', async () => {
    await fake.close();
    fake = await startFakePerplexity({ format: 'citations', resultsPerAnswer: 3 });
    const page = await perplexity().search(query());
    expect(page.hits).toEqual([
      { title: 'news0.example.com', url: 'https://news0.example.com/robotics-funding-series-b/1', snippet: '' },
      { title: 'news1.example.com', url: 'https://news1.example.com/robotics-funding-series-b/2', snippet: '' },
      { title: 'news2.example.com', url: 'https://news2.example.com/robotics-funding-series-b/3', snippet: '' },
    ]);
  });

  it.each<[PerplexityFailure, string, number | undefined]>([
    ['rate-limit', 'transient', 429],
    ['server-error', 'transient', 500],
    ['insufficient-quota', 'quota', 429],
    ['invalid-key', 'rejected', 401],
    ['malformed', 'malformed', undefined],
    ['wrong-shape', 'malformed', undefined],
  ])('reports %s as %s after exactly one request (the library does not retry)', async (how, kind, status) => {
    fake.failNext(1, how);
    const error = await failureOf(perplexity().search(query()));
    expect(error).toMatchObject({ kind, status, requests: 1 });
    expect(fake.requests).toHaveLength(1);
  });

  it('times out as transient', async () => {
    fake.failNext(1, 'slow');
    const error = await failureOf(perplexity(300).search(query()));
    expect(error).toMatchObject({ kind: 'transient', message: 'Perplexity did not answer within 300 ms' });
    expect(fake.requests).toHaveLength(1);
  });

  it('never passes the key on, even when Perplexity echoes it', async () => {
    const error = await failureOf(perplexity(2_000, 'pplx-wrong-key-123456').search(query()));
    expect(error).toMatchObject({ kind: 'rejected', status: 401 });
    expect(inspect(error)).not.toContain('pplx-wrong-key-123456');
    expect(error.message).toBe('Perplexity answered 401 invalid_api_key');
  });
});
