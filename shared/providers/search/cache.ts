import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import { epochSeconds } from '../../platform/clock';
import { canonicalJson, sha256Hex } from '../../platform/hashing';
import type { SearchHit, SearchQuery } from './port';
import { recordUsage } from '../../usage/meter';
import { searchCacheHits } from '../../usage/usage';

/** A chain's answer as kept in the cache. */
export interface CachedSearch {
  provider: string;
  hits: SearchHit[];
}

/** Port: recent searches' answers, so an identical search within the TTL costs no provider request. */
export interface SearchCache {
  /** The answer kept for an identical query, unless it has expired. */
  get(query: SearchQuery): Promise<CachedSearch | undefined>;
  /** Keeps an answer for the TTL. A fresh answer already kept for the query stays as it is. */
  put(query: SearchQuery, value: CachedSearch): Promise<void>;
}

/** DynamoDB's item limit is 400 KB; an answer this large is not worth a write (100 ordinary hits take about 50 KB). */
const MAX_CACHED_BYTES = 300_000;

const storedSchema = z.object({
  provider: z.string(),
  hits: z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string(), publishedDate: z.optional(z.string()) })),
  expires_at: z.number(),
});

/**
 * What makes two queries the same search: text and terms with runs of
 * whitespace collapsed, sources and keywords lower-cased, de-duplicated
 * and sorted, the dates and the number of results.
 */
export function normalizedQuery(query: SearchQuery): Record<string, unknown> {
  const tidy = (value: string) => value.trim().replace(/\s+/g, ' ');
  const set = (values: readonly string[]) => [...new Set(values.map((value) => tidy(value).toLowerCase()).filter(Boolean))].sort();
  return {
    text: tidy(query.text),
    terms: tidy(query.terms),
    sources: set(query.sources),
    keywords: set(query.keywords),
    dateFrom: query.dateFrom ?? null,
    dateTo: query.dateTo ?? null,
    maxResults: query.maxResults,
  };
}

/** The key of a query's cached answer: `SEARCH#<sha256 of the normalized query>`. */
export function searchCacheKey(query: SearchQuery): { pk: string; sk: string } {
  return { pk: `SEARCH#${sha256Hex(canonicalJson(normalizedQuery(query)))}`, sk: 'SEARCH' };
}

/**
 * The search cache in the table, one item per normalized query with
 * `expires_at` as its TTL. DynamoDB deletes expired items lazily (up to
 * days late), so a read checks the expiry itself. `ttlSeconds` 0 turns the
 * cache off: no read, no write.
 */
export function dynamoSearchCache(
  db: DynamoDBDocumentClient,
  tableName: string,
  ttlSeconds: number,
  now: () => number = Date.now,
): SearchCache {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0)
    throw new Error(`Search cache TTL must be a whole number of seconds (got ${ttlSeconds})`);
  return {
    async get(query) {
      if (ttlSeconds === 0) return undefined;
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: searchCacheKey(query), ConsistentRead: false }));
      if (Item === undefined) return undefined;
      const stored = storedSchema.safeParse(Item);
      if (!stored.success || stored.data.expires_at <= epochSeconds(now())) return undefined;
      // A search the cache served: no provider request, counted on the job it ran for.
      recordUsage(searchCacheHits(1));
      return { provider: stored.data.provider, hits: stored.data.hits };
    },

    async put(query, value) {
      if (ttlSeconds === 0) return;
      const at = now();
      const item = {
        ...searchCacheKey(query),
        provider: value.provider,
        hits: value.hits.map(({ title, url, snippet, publishedDate }) => ({ title, url, snippet, publishedDate })),
        cached_at: new Date(at).toISOString(),
        expires_at: epochSeconds(at) + ttlSeconds,
      };
      if (Buffer.byteLength(JSON.stringify(item), 'utf8') > MAX_CACHED_BYTES) return;
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: item,
            ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
            ExpressionAttributeValues: { ':now': epochSeconds(at) },
          }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },
  };
}
