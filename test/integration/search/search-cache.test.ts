import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { dynamoSearchCache, normalizedQuery, searchCacheKey, type CachedSearch } from '../../../shared/providers/search/cache';
import type { SearchQuery } from '../../../shared/providers/search/port';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

let services: EmbeddedServices;
beforeAll(async () => {
  services = await startEmbeddedServices();
});
afterAll(() => services.stop());

let counter = 0;
/** A query no other test uses. */
const uniqueQuery = (overrides: Partial<SearchQuery> = {}): SearchQuery => {
  counter += 1;
  return {
    text: `battery recycling ${counter} site:a.example OR site:b.example`,
    terms: `battery recycling ${counter}`,
    keywords: ['Recycling', 'lithium'],
    sources: ['b.example', 'a.example'],
    dateFrom: '2025-01-01',
    dateTo: '2025-02-01',
    maxResults: 20,
    ...overrides,
  };
};

const answer: CachedSearch = {
  provider: 'brave',
  hits: [
    { title: 'One', url: 'https://a.example/1', snippet: 'first', publishedDate: '2025-01-05' },
    { title: 'Two', url: 'https://b.example/2', snippet: 'second' },
  ],
};

describe('dynamoSearchCache', () => {
  const clock = { ms: Date.parse('2025-03-01T10:00:00Z') };
  const now = () => clock.ms;

  it('misses, then returns what was put, hits exactly as given', async () => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 3600, now);
    const query = uniqueQuery();
    expect(await cache.get(query)).toBeUndefined();
    await cache.put(query, answer);
    expect(await cache.get(query)).toEqual(answer);
  });

  it('treats queries that differ only in source order, case, duplicates or spacing as the same search', async () => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 3600, now);
    const query = uniqueQuery();
    await cache.put(query, answer);
    const same = {
      ...query,
      text: `  ${query.text.replace(/ /g, '   ')} `,
      sources: ['A.example', 'b.example', 'a.example'],
      keywords: ['lithium', 'recycling'],
    };
    expect(searchCacheKey(same)).toEqual(searchCacheKey(query));
    expect(await cache.get(same)).toEqual(answer);
  });

  it.each<[string, Partial<SearchQuery>]>([
    ['another number of results', { maxResults: 21 }],
    ['another start date', { dateFrom: '2025-01-02' }],
    ['no end date', { dateTo: undefined }],
    ['another source', { sources: ['a.example', 'c.example'] }],
    ['another keyword', { keywords: ['recycling'] }],
  ])('does not serve a search with %s', async (_, change) => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 3600, now);
    const query = uniqueQuery();
    await cache.put(query, answer);
    expect(await cache.get({ ...query, ...change })).toBeUndefined();
  });

  it('stores under SEARCH#<sha256> with expires_at (epoch seconds) the TTL later', async () => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 600, now);
    const query = uniqueQuery();
    await cache.put(query, answer);
    const key = searchCacheKey(query);
    expect(key.pk).toMatch(/^SEARCH#[0-9a-f]{64}$/);
    const { Item } = await services.db.send(new GetCommand({ TableName: services.aws.tableName, Key: key }));
    expect(Item).toMatchObject({ provider: 'brave', expires_at: clock.ms / 1000 + 600 });
    expect(normalizedQuery(query)).toMatchObject({ sources: ['a.example', 'b.example'], keywords: ['lithium', 'recycling'] });
  });

  it('checks the expiry itself: an item past expires_at is a miss though DynamoDB has not deleted it yet', async () => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 60, now);
    const query = uniqueQuery();
    await cache.put(query, answer);
    const saved = clock.ms;
    clock.ms += 59_000;
    expect(await cache.get(query)).toEqual(answer);
    clock.ms += 1_000;
    expect(await cache.get(query)).toBeUndefined();
    expect((await services.db.send(new GetCommand({ TableName: services.aws.tableName, Key: searchCacheKey(query) }))).Item).toBeDefined();

    const newer: CachedSearch = { provider: 'google', hits: [] };
    await cache.put(query, newer);
    expect(await cache.get(query)).toEqual(newer);
    clock.ms = saved;
  });

  it('keeps a fresh answer when another worker puts one for the same search', async () => {
    const cache = dynamoSearchCache(services.db, services.aws.tableName, 3600, now);
    const query = uniqueQuery();
    await cache.put(query, answer);
    await cache.put(query, { provider: 'perplexity', hits: [] });
    expect(await cache.get(query)).toEqual(answer);
  });

  it('with TTL 0 never reads nor writes (no table reached at all)', async () => {
    const unreachable = createDocumentClient({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
    const cache = dynamoSearchCache(unreachable, 'no-table', 0, now);
    const query = uniqueQuery();
    await cache.put(query, answer);
    expect(await cache.get(query)).toBeUndefined();
    unreachable.destroy();
  });

  it('refuses a negative or fractional TTL', () => {
    expect(() => dynamoSearchCache(services.db, services.aws.tableName, -1, now)).toThrow('whole number');
    expect(() => dynamoSearchCache(services.db, services.aws.tableName, 1.5, now)).toThrow('whole number');
  });
});
