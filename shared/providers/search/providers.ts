import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createBraveSearch } from './brave';
import { createGoogleSearch } from './google';
import { createPerplexitySearch } from './perplexity';
import type { SearchProvider } from './port';
import { dynamoGoogleQuota } from './quota';

/** The settings the factories read (a subset of SearchSettings, settings.ts). */
export interface ProviderSettings {
  GOOGLE_CSE_BASE_URL?: string;
  GOOGLE_CSE_DAILY_QUOTA: number;
  BRAVE_BASE_URL?: string;
  PERPLEXITY_BASE_URL?: string;
  PERPLEXITY_MODEL?: string;
}

/** What a provider's factory gets: its credentials (all present), the settings, and the table for shared state. */
export interface ProviderFactoryInput {
  credentials: Readonly<Record<string, string>>;
  settings: ProviderSettings;
  db: DynamoDBDocumentClient;
  tableName: string;
  now: () => number;
}

/** One provider the chain can use: the credential settings it needs (all of them, or it is skipped) and how to build it. */
export interface SearchProviderEntry {
  credentials: readonly string[];
  build(input: ProviderFactoryInput): SearchProvider;
}

/**
 * Every search provider the chain knows, by the name SEARCH_PROVIDERS uses.
 * A new provider (Tavily, Exa, ...) is one adapter file and one entry here.
 */
export const SEARCH_PROVIDER_TABLE = {
  google: {
    credentials: ['GOOGLE_CSE_API_KEY', 'GOOGLE_CSE_ID'],
    build: ({ credentials, settings, db, tableName, now }) =>
      createGoogleSearch({
        apiKey: credentials.GOOGLE_CSE_API_KEY!,
        engineId: credentials.GOOGLE_CSE_ID!,
        baseUrl: settings.GOOGLE_CSE_BASE_URL,
        quota: dynamoGoogleQuota(db, tableName, settings.GOOGLE_CSE_DAILY_QUOTA, now),
        now,
      }),
  },
  brave: {
    credentials: ['BRAVE_API_KEY'],
    build: ({ credentials, settings, now }) =>
      createBraveSearch({ apiKey: credentials.BRAVE_API_KEY!, baseUrl: settings.BRAVE_BASE_URL, now }),
  },
  perplexity: {
    credentials: ['PERPLEXITY_API_KEY'],
    build: ({ credentials, settings }) =>
      createPerplexitySearch({
        apiKey: credentials.PERPLEXITY_API_KEY!,
        baseUrl: settings.PERPLEXITY_BASE_URL,
        model: settings.PERPLEXITY_MODEL,
      }),
  },
} as const satisfies Record<string, SearchProviderEntry>;

/** A name SEARCH_PROVIDERS may list. */
export type SearchProviderName = keyof typeof SEARCH_PROVIDER_TABLE;

/** The names SEARCH_PROVIDERS may list, in the table's order. */
export const SEARCH_PROVIDER_NAMES = Object.keys(SEARCH_PROVIDER_TABLE) as SearchProviderName[];

/** Every credential setting of the search providers, each once (the `search` secret's keys). */
export const SEARCH_SECRET_KEYS: readonly string[] = [
  ...new Set(Object.values(SEARCH_PROVIDER_TABLE).flatMap((entry) => entry.credentials)),
];
