import { inspect } from 'node:util';
import { createBraveSearch, type BraveSearchOptions } from '../../../shared/providers/search/brave';
import { SearchProviderError, type SearchQuery } from '../../../shared/providers/search/port';
import { startFakeBrave, type BraveFailure, type BraveFake } from '../../fakes/brave';

let fake: BraveFake;
beforeEach(async () => {
  fake = await startFakeBrave();
});
afterEach(() => fake.close());

const brave = (overrides: Partial<BraveSearchOptions> = {}) =>
  createBraveSearch({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs: 500, ...overrides });

const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  text: 'ai chips (site:techcrunch.com OR site:theverge.com)',
  terms: 'ai chips',
  keywords: [],
  sources: ['techcrunch.com', 'theverge.com'],
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

describe('createBraveSearch against the loopback fake', () => {
  it('pages 20 at a time by offset until max results, with the token header and q as given', async () => {
    const page = await brave().search(query());
    expect(page.requests).toBe(2);
    expect(fake.requests.map((request) => [request.path, request.query.count, request.query.offset])).toEqual([
      ['/prefix/res/v1/web/search', '20', '0'],
      ['/prefix/res/v1/web/search', '20', '1'],
    ]);
    expect(fake.requests[0]!.query.q).toBe('ai chips (site:techcrunch.com OR site:theverge.com)');
    expect(fake.requests[0]!.headers).toMatchObject({ 'x-subscription-token': fake.apiKey, accept: 'application/json' });
    expect(page.hits).toHaveLength(30);
    expect(new Set(page.hits.map((hit) => hit.url)).size).toBe(30);
    expect(page.hits.every((hit) => ['techcrunch.com', 'theverge.com'].includes(new URL(hit.url).hostname))).toBe(true);
  });

  it('asks for no more than wanted, and stops when Brave has no more results', async () => {
    await brave().search(query({ maxResults: 5 }));
    expect(fake.requests.map((request) => request.query.count)).toEqual(['5']);
    fake.setResults({ totalResults: 25 });
    const page = await brave().search(query({ maxResults: 100 }));
    expect(page).toMatchObject({ requests: 2 });
    expect(page.hits).toHaveLength(25);
  });

  it('sends dates as a freshness range, closing an open end with today and an early day', async () => {
    const now = () => Date.parse('2025-06-30T12:00:00Z');
    await brave({ now }).search(query({ maxResults: 5, dateFrom: '2025-01-01', dateTo: '2025-01-31' }));
    await brave({ now }).search(query({ maxResults: 5, dateFrom: '2025-01-01' }));
    await brave({ now }).search(query({ maxResults: 5, dateTo: '2025-01-31' }));
    await brave({ now }).search(query({ maxResults: 5 }));
    expect(fake.requests.map((request) => request.query.freshness)).toEqual([
      '2025-01-01to2025-01-31',
      '2025-01-01to2025-07-01',
      '1990-01-01to2025-01-31',
      undefined,
    ]);
  });

  it('gives plain text and the publication day from page_age, or from age when it is a date', async () => {
    const { hits } = await brave().search(query({ maxResults: 6 }));
    expect(hits[0]!.snippet).toBe('Report 1 on ai chips, with details & figures.');
    expect(hits[0]!.snippet).not.toContain('<strong>');
    expect(hits.map((hit) => hit.publishedDate === undefined)).toEqual([false, false, true, false, false, true]);
    for (const hit of hits) if (hit.publishedDate) expect(hit.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each<[BraveFailure, string, number | undefined]>([
    ['rate-limit', 'transient', 429],
    ['server-error', 'transient', 500],
    ['credit-exhausted', 'quota', 402],
    ['invalid-token', 'rejected', 422],
    ['malformed', 'malformed', 200],
    ['wrong-shape', 'malformed', undefined],
  ])('reports %s as %s', async (how, kind, status) => {
    fake.failNext(1, how);
    const error = await failureOf(brave().search(query()));
    expect(error).toMatchObject({ kind, status, requests: 1 });
  });

  it('names the code of an error, never its detail text (which can echo the token)', async () => {
    const error = await failureOf(brave({ apiKey: 'BSA-wrong-token-0000' }).search(query()));
    expect(error).toMatchObject({ kind: 'rejected', message: 'Brave answered 422 SUBSCRIPTION_TOKEN_INVALID' });
    expect(inspect(error)).not.toContain('BSA-wrong-token-0000');
  });

  it('times out a slow page as transient', async () => {
    fake.failNext(1, 'slow');
    const error = await failureOf(brave({ timeoutMs: 200 }).search(query()));
    expect(error).toMatchObject({ kind: 'transient', message: 'Brave did not answer within 200 ms', requests: 1 });
  });

  it('paces its pages to a 1-request-a-second plan instead of being refused', async () => {
    await fake.close();
    fake = await startFakeBrave({ perSecondLimit: 1 });
    const page = await brave({ timeoutMs: 2_000 }).search(query({ maxResults: 40 }));
    expect(page.hits).toHaveLength(40);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.at - fake.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });
});
