import { inspect } from 'node:util';
import { createGoogleSearch, type GoogleSearchOptions } from '../../../shared/providers/search/google';
import { SearchProviderError, type SearchQuery } from '../../../shared/providers/search/port';
import { dynamoGoogleQuota, type SearchQuota } from '../../../shared/providers/search/quota';
import { startFakeGoogle, type GoogleFailure, type GoogleFake } from '../../fakes/google';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

let services: EmbeddedServices;
let fake: GoogleFake;
let day = 0;

beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());
beforeEach(async () => {
  fake = await startFakeGoogle();
});
afterEach(() => fake.close());

/** A fresh quota (its own Pacific day) for each search under test. */
function freshQuota(limit = 100): SearchQuota & { now: () => number } {
  day += 1;
  const now = () => Date.parse('2030-01-01T20:00:00Z') + day * 24 * 60 * 60 * 1000;
  return Object.assign(dynamoGoogleQuota(services.db, services.aws.tableName, limit, now), { now });
}

const google = (overrides: Partial<GoogleSearchOptions> = {}) =>
  createGoogleSearch({
    apiKey: fake.apiKey,
    engineId: fake.engineId,
    baseUrl: fake.baseUrl,
    quota: freshQuota(),
    timeoutMs: 500,
    ...overrides,
  });

const query = (overrides: Partial<SearchQuery> = {}): SearchQuery => ({
  text: 'open source llm release',
  terms: 'open source llm release',
  keywords: [],
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

/** Nothing a caller can see of the error names the key or a URL. */
function expectNoSecrets(error: Error) {
  const seen = [error.message, String(error.stack), inspect(error, { depth: 5 }), JSON.stringify(error)].join('\n');
  expect(seen).not.toContain(fake.apiKey);
  expect(seen).not.toContain('key=');
  expect(seen).not.toContain('127.0.0.1');
  expect(seen).not.toContain('customsearch/v1');
}

describe('createGoogleSearch against the loopback fake', () => {
  it('spends exactly 3 requests for 30 results: pages of 10 at start 1, 11, 21, under the base URL prefix', async () => {
    const page = await google().search(query());
    expect(page.requests).toBe(3);
    expect(fake.requests.map((request) => [request.path, request.query.start, request.query.num])).toEqual([
      ['/prefix/customsearch/v1', '1', '10'],
      ['/prefix/customsearch/v1', '11', '10'],
      ['/prefix/customsearch/v1', '21', '10'],
    ]);
    expect(fake.requests[0]!.query).toMatchObject({ key: fake.apiKey, cx: fake.engineId, q: 'open source llm release' });
    expect(page.hits).toHaveLength(30);
    expect(new Set(page.hits.map((hit) => hit.url)).size).toBe(30);
  });

  it('never asks past start + num = 100: 100 results are 10 pages, the last of 9', async () => {
    const page = await google().search(query({ maxResults: 100 }));
    expect(page.requests).toBe(10);
    expect(fake.requests.at(-1)!.query).toMatchObject({ start: '91', num: '9' });
    expect(page.hits).toHaveLength(99);
  });

  it('asks for just the results wanted on a short search', async () => {
    const page = await google().search(query({ maxResults: 7 }));
    expect(fake.requests.map((request) => request.query.num)).toEqual(['7']);
    expect(page.hits).toHaveLength(7);
  });

  it('stops paging when a page comes back short or empty, and gives the unsent queries back to the quota', async () => {
    fake.setResults({ totalResults: 14 });
    const quota = freshQuota(3);
    const page = await google({ quota }).search(query());
    expect(page).toMatchObject({ requests: 2 });
    expect(page.hits).toHaveLength(14);
    expect(await quota.reserve(1)).toBe(true);
    expect(await quota.reserve(1)).toBe(false);

    fake.setResults({ totalResults: 0 });
    const none = await google().search(query());
    expect(none).toEqual({ hits: [], requests: 1 });
  });

  it('reads the publication day from the metatags pages use, and omits it when none is given', async () => {
    const { hits } = await google().search(query({ maxResults: 12 }));
    expect(hits[0]!.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/); // article:published_time date-time
    expect(hits[1]!.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/); // og:updated_time
    expect(hits[2]).not.toHaveProperty('publishedDate'); // no date metatag
    expect(hits[3]!.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/); // date
    expect(hits[5]).not.toHaveProperty('publishedDate'); // no pagemap at all
    expect(hits.filter((hit) => hit.publishedDate).length).toBe(8);
  });

  it('restricts dates natively with sort=date:r:FROM:TO, closing an open end', async () => {
    const now = () => Date.parse('2025-06-30T12:00:00Z');
    const { hits } = await google({ now }).search(query({ dateFrom: '2025-03-01', dateTo: '2025-03-31', maxResults: 10 }));
    expect(fake.requests[0]!.query.sort).toBe('date:r:20250301:20250331');
    for (const hit of hits.filter((one) => one.publishedDate)) {
      expect(hit.publishedDate! >= '2025-03-01' && hit.publishedDate! <= '2025-03-31').toBe(true);
    }
    await google({ now }).search(query({ dateFrom: '2025-03-01', maxResults: 5 }));
    expect(fake.requests[1]!.query.sort).toBe('date:r:20250301:20250701');
    await google({ now }).search(query({ maxResults: 5 }));
    expect(fake.requests[2]!.query).not.toHaveProperty('sort');
  });

  it('sends nothing when the quota cannot cover the pages needed', async () => {
    const quota = freshQuota(2);
    const error = await failureOf(google({ quota }).search(query()));
    expect(error).toMatchObject({ kind: 'quota', requests: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it.each<[GoogleFailure, number]>([
    ['quota', 429],
    ['daily-limit', 403],
  ])("treats Google's %s answer as quota and closes the day", async (how, status) => {
    const quota = freshQuota(100);
    fake.failNext(1, how);
    const error = await failureOf(google({ quota }).search(query()));
    expect(error).toMatchObject({ kind: 'quota', status, requests: 1 });
    expect(error.message).toContain('daily quota used up');
    expect(await quota.reserve(1)).toBe(false);
    expectNoSecrets(error);
  });

  it.each<[GoogleFailure, string, number | undefined]>([
    ['server-error', 'transient', 500],
    ['unavailable', 'transient', 503],
    ['rate-limit', 'transient', 429],
    ['invalid-key', 'rejected', 400],
    ['forbidden', 'rejected', 403],
    ['malformed', 'malformed', 200],
    ['wrong-shape', 'malformed', undefined],
  ])('reports %s as %s, naming the status but no key or URL', async (how, kind, status) => {
    fake.failNext(1, how);
    const error = await failureOf(google().search(query()));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.requests).toBe(1);
    expectNoSecrets(error);
  });

  it('names Google’s status word and reason, never its message text (which here echoes the key)', async () => {
    fake.failNext(2, 'server-error');
    const raw = await fetch(`${fake.baseUrl}/customsearch/v1?key=${fake.apiKey}&cx=${fake.engineId}&q=x`);
    expect(await raw.text()).toContain(fake.apiKey);
    const error = await failureOf(google().search(query()));
    expect(error.message).toBe('Google answered 500 INTERNAL backendError');
  });

  it('counts the pages spent before a later page fails, and gives back only the unsent one', async () => {
    const quota = freshQuota(4);
    fake.failNext(2, { normal: true });
    fake.failNext(1, 'server-error');
    const error = await failureOf(google({ quota }).search(query()));
    expect(error).toMatchObject({ kind: 'transient', requests: 3, status: 500 });
    expect(await quota.reserve(1)).toBe(true);
    expect(await quota.reserve(1)).toBe(false);
  });

  it('gives up on a page that does not answer within its timeout (transient)', async () => {
    fake.failNext(1, 'slow');
    const started = Date.now();
    const error = await failureOf(google({ timeoutMs: 200 }).search(query()));
    expect(error).toMatchObject({ kind: 'transient', message: 'Google did not answer within 200 ms', requests: 1 });
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('gives up when all the pages together pass the search deadline', async () => {
    fake.failNext(Infinity, { slowMs: 120 });
    const error = await failureOf(google({ timeoutMs: 1_000, deadlineMs: 300 }).search(query()));
    expect(error).toMatchObject({ kind: 'transient', message: 'Google search ran past its deadline' });
    expect(fake.requests.length).toBeLessThanOrEqual(3);
  });

  it('reports a dropped connection and an unreachable server as transient, without the address', async () => {
    fake.failNext(1, 'disconnect');
    const dropped = await failureOf(google().search(query()));
    expect(dropped).toMatchObject({ kind: 'transient', message: 'Google could not be reached' });
    expectNoSecrets(dropped);

    const closed = google();
    await fake.close();
    const refused = await failureOf(closed.search(query()));
    expect(refused).toMatchObject({ kind: 'transient', requests: 0 });
    expectNoSecrets(refused);
    fake = await startFakeGoogle();
  });
});
