import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SecretSource } from '../../platform/secrets';
import type { SearchProvider } from './port';
import { SEARCH_PROVIDER_TABLE, SEARCH_SECRET_KEYS } from './providers';
import { readSearchSettings } from './settings';
import { refreshingLazy } from '../../platform/memo';

/** How long a resolved chain is kept before the credentials are read again (a secret filled after deploy is picked up by then). */
export const SEARCH_PROVIDERS_REFRESH_MS = 5 * 60 * 1000;

/** What the configured chain is built from. */
export interface SearchProviderDeps {
  settings: Record<string, string | undefined>;
  /** Credentials by setting name: Secrets Manager in AWS, the environment locally. */
  secrets: SecretSource;
  db: DynamoDBDocumentClient;
  tableName: string;
  now?: () => number;
}

/**
 * The search chain the settings call for, resolved on first use: the
 * settings are read and checked now (an unknown SEARCH_PROVIDERS name or a
 * malformed number fails the cold start), the credentials on first use, in
 * SEARCH_PROVIDERS order, skipping every provider that lacks one of its
 * credentials. The list may be empty: the caller then uses the local
 * corpus, or fails. Kept for SEARCH_PROVIDERS_REFRESH_MS; a failed lookup
 * is retried on the next use.
 */
export function configuredSearchProviders(deps: SearchProviderDeps): () => Promise<SearchProvider[]> {
  const settings = readSearchSettings(deps.settings);
  const now = deps.now ?? Date.now;
  const resolve = async (): Promise<SearchProvider[]> => {
    const secrets = await deps.secrets.read(SEARCH_SECRET_KEYS);
    return settings.SEARCH_PROVIDERS.flatMap((name) => {
      const entry = SEARCH_PROVIDER_TABLE[name];
      const credentials = Object.fromEntries(entry.credentials.map((key) => [key, secrets[key]?.trim() ?? '']));
      if (Object.values(credentials).some((value) => value === '')) return [];
      return [entry.build({ credentials, settings, db: deps.db, tableName: deps.tableName, now })];
    });
  };
  return refreshingLazy(resolve, SEARCH_PROVIDERS_REFRESH_MS, now);
}
